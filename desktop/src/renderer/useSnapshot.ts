/** The engine's queue, history and settings as React state: the first snapshot, then every change. */
import { useCallback, useEffect, useState } from 'react';
import type { DesktopApi, EngineSnapshot } from './api';

export function useSnapshot(api: DesktopApi): {
  snapshot: EngineSnapshot | null;
  refresh: () => void;
} {
  const [snapshot, setSnapshot] = useState<EngineSnapshot | null>(null);

  useEffect(() => {
    let live = true;
    const off = api.onChange((next) => {
      if (live) setSnapshot(next);
    });
    // A change may already have arrived by the time this answers: keep the newer one.
    api
      .snapshot()
      .then((first) => {
        if (live) setSnapshot((current) => current ?? first);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      off();
    };
  }, [api]);

  /** After a button press: the change is shown at once, not at the next scheduled update. */
  const refresh = useCallback(() => {
    api
      .snapshot()
      .then(setSnapshot)
      .catch(() => undefined);
  }, [api]);

  return { snapshot, refresh };
}
