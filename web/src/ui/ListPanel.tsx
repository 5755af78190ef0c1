/**
 * The drop-down panel of Select and Suggestions. It is mounted when the list opens and becomes visible
 * widgetDefaults.listAppearDelayMs (150 ms) later; until then it is transparent and ignores the pointer,
 * but stays in the accessibility tree so keyboard focus and announcements are never delayed.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Popover } from 'react-aria-components';
import { widgetDefaults } from './theme';

export function useAppearAfter(delayMs: number): boolean {
  const [shown, setShown] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = setTimeout(() => setShown(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return shown;
}

function Reveal({ children, delayMs }: { children: ReactNode; delayMs: number }) {
  const shown = useAppearAfter(delayMs);
  return (
    <div className="kit-list-panel" data-shown={shown || undefined}>
      {children}
    </div>
  );
}

export function ListPanel({
  children,
  appearDelayMs = widgetDefaults.listAppearDelayMs,
}: {
  children: ReactNode;
  appearDelayMs?: number;
}) {
  return (
    <Popover
      className="kit-popover"
      placement="bottom start"
      offset={4}
      maxHeight={widgetDefaults.suggestions.panelMaxHeight}
    >
      <Reveal delayMs={appearDelayMs}>{children}</Reveal>
    </Popover>
  );
}
