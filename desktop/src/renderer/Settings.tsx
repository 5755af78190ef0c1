/**
 * Parallel parts (1–8), the bandwidth limit (0 = unlimited), scheduled bandwidth windows, start at
 * login, the cloud accounts (Accounts.tsx), and the log file for support. The current values are read with an empty setSettings call: its
 * answer carries openAtLogin, which a snapshot does not.
 */
import { Button, Checkbox, NumberInput } from '@avp/web/ui';
import { useEffect, useState, type FormEvent } from 'react';
import { Accounts } from './Accounts';
import type { DesktopApi, EngineSettings } from './api';
import { checkDrafts, draftsOf, KB, Schedule, type WindowDraft, type WindowErrors } from './Schedule';

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
  return (
    <>
      <SettingsForm api={api} initial={loaded} />
      <Accounts api={api} />
      <Support api={api} />
    </>
  );
}

function SettingsForm({ api, initial }: { api: DesktopApi; initial: Loaded }) {
  const [saved, setSaved] = useState<EngineSettings>(initial);
  const [parts, setParts] = useState<number | null>(initial.partConcurrency);
  const [limit, setLimit] = useState<number | null>(Math.round(initial.bandwidthBytesPerSecond / KB));
  const [drafts, setDrafts] = useState<WindowDraft[]>(() => draftsOf(initial.schedule));
  const [windowErrors, setWindowErrors] = useState<WindowErrors[]>([]);
  const [tried, setTried] = useState(false);
  const [openAtLogin, setOpenAtLogin] = useState(initial.openAtLogin);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);

  // After a refused save the messages follow the windows as they are corrected.
  const changeDrafts = (next: WindowDraft[]) => {
    setDrafts(next);
    if (tried) {
      const check = checkDrafts(next);
      setWindowErrors(check.ok ? [] : check.errors);
    }
  };

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    setStatus('');
    const check = checkDrafts(drafts);
    if (!check.ok) {
      setWindowErrors(check.errors);
      setStatus('The settings were not saved: see the messages in the bandwidth windows.');
      focusFirstInvalid(event.currentTarget, '.app-days--error input');
      return;
    }
    setWindowErrors([]);
    setBusy(true);
    try {
      const next = await api.setSettings({
        partConcurrency: parts ?? initial.partConcurrency,
        bandwidthBytesPerSecond: (limit ?? 0) * KB,
        schedule: check.windows,
        openAtLogin,
      });
      // What the engine kept (it clamps and checks), so the form never shows a value that is not in force.
      setSaved(next);
      setParts(next.partConcurrency);
      setLimit(Math.round(next.bandwidthBytesPerSecond / KB));
      setDrafts(draftsOf(next.schedule));
      setOpenAtLogin(next.openAtLogin);
      setTried(false);
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
      {/* No step: a stepped field snaps what is typed to its multiples (10000 became 9984). */}
      <NumberInput
        label="Bandwidth limit (KB/s)"
        description="For all uploads together, in KB/s as the progress shows them (1 KB = 1024 bytes); 0 means unlimited."
        value={limit}
        onChange={setLimit}
        min={0}
      />
      <Schedule drafts={drafts} onChange={changeDrafts} errors={windowErrors} saved={saved} />
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

/** Today's log file, for support: shown in the system's file manager. */
function Support({ api }: { api: DesktopApi }) {
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState<string | null>(null);

  async function show() {
    setStatus('');
    setFailure(null);
    try {
      const file = await api.showLog();
      setStatus(file ? `Today’s log file: ${file}` : 'This window keeps no log file.');
    } catch (error) {
      setFailure(`The log file could not be shown: ${(error as Error).message}`);
    }
  }

  return (
    <section className="app-card app-support" aria-labelledby="app-support-title">
      <h3 id="app-support-title">Support</h3>
      <p className="app-help">
        The app writes a log file each day (sign-ins, submissions, failures, watch folders), kept for two
        weeks. Support may ask you for it; it never holds your password or sign-in token.
      </p>
      <div className="app-actions">
        <Button variant="secondary" onPress={() => void show()}>
          Show log file
        </Button>
      </div>
      <p className="app-status app-log-path" role="status">
        {status}
      </p>
      {failure ? (
        <p className="kit-error app-alert" role="alert">
          {failure}
        </p>
      ) : null}
    </section>
  );
}

/** Keyboard and screen-reader users land on the first field that needs attention. */
function focusFirstInvalid(form: HTMLFormElement, also: string): void {
  // The messages render after this event; wait for them.
  requestAnimationFrame(() => {
    form.querySelector<HTMLElement>(`[aria-invalid="true"], ${also}`)?.focus();
  });
}
