/**
 * Parallel parts (1–8), the bandwidth limit (0 = unlimited) and start at login. The current values are
 * read with an empty setSettings call: its answer carries openAtLogin, which a snapshot does not.
 */
import { Button, Checkbox, NumberInput } from '@avp/web/ui';
import { useEffect, useState, type FormEvent } from 'react';
import type { DesktopApi, EngineSettings } from './api';

/** The limit is entered in KB/s (1024 bytes, as formatBytes shows speeds). */
const KB = 1024;

type Loaded = EngineSettings & { openAtLogin: boolean };

export function Settings({ api }: { api: DesktopApi }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api
      .setSettings({})
      .then((current) => live && setLoaded(current))
      .catch((error: Error) => live && setFailure(error.message));
    return () => {
      live = false;
    };
  }, [api]);

  if (failure && !loaded) {
    return (
      <p className="kit-error app-alert" role="alert">
        {failure}
      </p>
    );
  }
  if (!loaded) {
    return (
      <p className="app-loading" role="status">
        Loading the settings…
      </p>
    );
  }
  return <SettingsForm api={api} initial={loaded} />;
}

function SettingsForm({ api, initial }: { api: DesktopApi; initial: Loaded }) {
  const [parts, setParts] = useState<number | null>(initial.partConcurrency);
  const [limit, setLimit] = useState<number | null>(Math.round(initial.bandwidthBytesPerSecond / KB));
  const [openAtLogin, setOpenAtLogin] = useState(initial.openAtLogin);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setStatus('');
    try {
      const saved = await api.setSettings({
        partConcurrency: parts ?? initial.partConcurrency,
        bandwidthBytesPerSecond: (limit ?? 0) * KB,
        openAtLogin,
      });
      // What the engine kept (it clamps), so the form never shows a value that is not in force.
      setParts(saved.partConcurrency);
      setLimit(Math.round(saved.bandwidthBytesPerSecond / KB));
      setOpenAtLogin(saved.openAtLogin);
      setStatus('Settings saved.');
    } catch (error) {
      setStatus(`The settings were not saved: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="app-card app-settings" noValidate aria-label="Settings" onSubmit={(e) => void save(e)}>
      <NumberInput
        label="Parallel parts"
        description="How many parts of a file are sent at once (1 to 8)."
        value={parts}
        onChange={setParts}
        min={1}
        max={8}
        showSteppers
      />
      <NumberInput
        label="Bandwidth limit (KB/s)"
        description="For all uploads together; 0 means unlimited."
        value={limit}
        onChange={setLimit}
        min={0}
        step={64}
      />
      <Checkbox label="Start at login" value={openAtLogin} onChange={setOpenAtLogin} />
      <div className="app-actions">
        <Button type="submit" isDisabled={busy}>
          Save settings
        </Button>
      </div>
      <p className="app-status" role="status">
        {status}
      </p>
    </form>
  );
}
