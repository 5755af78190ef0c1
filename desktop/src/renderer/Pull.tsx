/**
 * "Pull this event to a folder…" (issue #31), for staff with the Media role: the event (the names the
 * server's inbox knows), "Accepted files only", a folder from the system's chooser, then the pull runs in
 * the engine (engine/pull.ts, as `av-upload pull` does) and its progress comes back in the snapshot:
 * files done of total, bytes, MB/s and the files under way, with Cancel; then what it came to. The figures
 * are shown as they change; what a screen reader hears (the live region) changes only with the state or
 * every 10 %.
 */
import { formatBytes, formatSpeed, truncateFileName } from '@avp/shared';
import { Button, Checkbox, NumberInput, SelectField } from '@avp/web/ui';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, Ref } from 'react';
import type { DesktopApi, EngineSnapshot, PullEventsResult, PullView } from './api';

export const CHOOSE_EVENT = 'Choose the event to pull.';
export const CHOOSE_PULL_FOLDER = 'Choose a folder to pull into.';

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** What the live region says: the state, and the share in steps of 10 %. */
function announcement(pull: PullView | null): string {
  if (!pull) return '';
  const name = `“${pull.event}”`;
  switch (pull.state) {
    case 'listing':
      return `Asking the server for the files of ${name}…`;
    case 'pulling':
      return `Pulling ${name}: ${Math.floor(pull.percent / 10) * 10}%, ${pull.done} of ${files(pull.files)}.`;
    case 'cancelling':
      return 'Cancelling the pull…';
    case 'cancelled':
      return `The pull of ${name} was cancelled after ${pull.done} of ${files(pull.files)}.`;
    case 'done':
      return summaryLine(pull);
    case 'failed':
      return '';
  }
}

function summaryLine(pull: PullView): string {
  const mismatched = pull.mismatched.length ? `, ${pull.mismatched.length} did not match` : '';
  return (
    `Pulled ${files(pull.files)} of “${pull.event}”: ${pull.fetched} fetched (${formatBytes(pull.bytes)}), ` +
    `${pull.skipped} already there and verified${mismatched}.`
  );
}

export function Pull({ api, snapshot }: { api: DesktopApi; snapshot: EngineSnapshot | null }) {
  const [events, setEvents] = useState<PullEventsResult | null>(null);
  const [asked, setAsked] = useState(0);
  // Back in this section, the form holds the last pull's choices (a cancelled pull is started again as it was).
  const last = snapshot?.pull ?? null;
  const [event, setEvent] = useState(last?.event ?? '');
  const [acceptedOnly, setAcceptedOnly] = useState(last?.acceptedOnly ?? false);
  const [limit, setLimit] = useState<number | null>(0);
  const [folder, setFolder] = useState<string | null>(last?.dir ?? null);
  const [errors, setErrors] = useState<{ event?: string; folder?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const folderLabel = useId();
  const folderError = useId();
  const pull = snapshot?.pull ?? null;
  const running = pull !== null && ['listing', 'pulling', 'cancelling'].includes(pull.state);
  const progress = useRef<HTMLElement>(null);
  const focusProgress = useRef(false);

  // Start disables its button and Cancel goes away when the pull ends: keyboard and screen-reader users
  // are taken to the pull's card instead of being left on nothing.
  const state = pull?.state;
  useEffect(() => {
    if (!progress.current) return;
    const lost = document.activeElement === document.body || document.activeElement === null;
    if (focusProgress.current || (lost && state !== undefined && !running)) {
      focusProgress.current = false;
      progress.current.focus();
    }
  }, [state, running]);

  useEffect(() => {
    let current = true;
    api.pullEvents().then(
      (result) => current && setEvents(result),
      () =>
        current &&
        setEvents({ access: 'unknown', error: 'The uploader could not ask the server. Please try again.' }),
    );
    return () => {
      current = false;
    };
  }, [api, asked]);

  async function choose() {
    setFailure(null);
    try {
      const chosen = await api.chooseFolder('pull');
      if (chosen) {
        setFolder(chosen);
        setErrors((e) => ({ ...e, folder: undefined }));
      }
    } catch (error) {
      setFailure(`The folder chooser did not open: ${(error as Error).message}`);
    }
  }

  async function start(e: FormEvent) {
    e.preventDefault();
    const missing = {
      event: event ? undefined : CHOOSE_EVENT,
      folder: folder ? undefined : CHOOSE_PULL_FOLDER,
    };
    setErrors(missing);
    setFailure(null);
    if (missing.event || missing.folder) return;
    setStarting(true);
    try {
      const result = await api.startPull(event, acceptedOnly, folder!, Math.max(0, limit ?? 0) * 1024);
      focusProgress.current = result.ok;
      if (!result.ok) {
        setErrors({ event: result.fields?.event, folder: result.fields?.folder });
        if (!result.fields) setFailure(result.message);
      }
    } catch (error) {
      setFailure(`The pull did not start: ${(error as Error).message}`);
    } finally {
      setStarting(false);
    }
  }

  const eventNames = events?.access === 'staff' ? (events.events ?? []) : [];
  const listFailure =
    events && events.access !== 'none' && (events.access === 'unknown' || events.events === null)
      ? events.error
      : null;
  return (
    <div className="app-pull">
      <p className="app-intro">
        Every file of an event goes into the folder you choose, one folder per company, each checked against
        the server’s SHA-256, with a manifest.csv listing them all. A pull that is cancelled or cut off goes
        on where it stopped when the same event is pulled into the same folder again; files already there and
        verified are not fetched again.
      </p>
      <p className="visually-hidden" role="status" data-testid="pull-announcement">
        {announcement(pull)}
      </p>
      {failure ? (
        <p className="kit-error app-alert" role="alert">
          {failure}
        </p>
      ) : null}
      {events?.access === 'none' ? (
        <p className="kit-error app-alert" role="alert">
          Pulling an event is for staff accounts with the Media role.
        </p>
      ) : (
        <form className="app-card app-pull-form" aria-label="Pull an event" noValidate onSubmit={start}>
          {events === null ? (
            <p className="app-loading" role="status">
              Loading the events…
            </p>
          ) : listFailure ? (
            <div className="app-actions">
              <p className="kit-error" role="alert">
                The events could not be fetched: {listFailure}
              </p>
              <Button variant="secondary" dense onPress={() => setAsked((n) => n + 1)}>
                Try again
              </Button>
            </div>
          ) : (
            <SelectField
              label="Event"
              placeholder={eventNames.length ? 'Choose an event…' : 'No event has files yet'}
              options={eventNames.map((name) => ({ id: name, label: name }))}
              value={event}
              onChange={(next) => {
                setEvent(next);
                setErrors((e) => ({ ...e, event: undefined }));
              }}
              errorMessage={errors.event}
              isDisabled={running || eventNames.length === 0}
              isRequired
            />
          )}
          <Checkbox
            label="Accepted files only"
            description="Only the files staff marked Accepted; the others stay on the server."
            value={acceptedOnly}
            onChange={setAcceptedOnly}
            isDisabled={running}
          />
          <NumberInput
            label="Bandwidth limit (KB/s)"
            description="For this pull, in KB/s as the progress shows them (1 KB = 1024 bytes); 0 means unlimited."
            value={limit}
            onChange={setLimit}
            min={0}
            isDisabled={running}
          />
          <div
            className={`app-folder${errors.folder ? ' app-folder--error' : ''}`}
            role="group"
            aria-labelledby={folderLabel}
            aria-describedby={errors.folder ? folderError : undefined}
          >
            <span id={folderLabel} className="app-folder__label">
              Folder
            </span>
            <p className="app-folder__path">{folder ?? 'No folder chosen yet.'}</p>
            <Button variant="secondary" isDisabled={running} onPress={() => void choose()}>
              {folder ? 'Choose another folder…' : 'Choose a folder…'}
            </Button>
            {errors.folder ? (
              <p id={folderError} className="kit-error" role="alert">
                {errors.folder}
              </p>
            ) : null}
          </div>
          <div className="app-actions">
            <Button type="submit" isDisabled={running || starting || events === null}>
              {starting ? 'Starting…' : 'Start the pull'}
            </Button>
          </div>
        </form>
      )}
      {pull ? <PullProgress api={api} pull={pull} ref={progress} /> : null}
    </div>
  );
}

function PullProgress({ api, pull, ref }: { api: DesktopApi; pull: PullView; ref: Ref<HTMLElement> }) {
  const [cancelFailure, setCancelFailure] = useState<string | null>(null);
  const currentLabel = useId();
  const running = ['listing', 'pulling', 'cancelling'].includes(pull.state);
  const title = `${running ? 'Pulling' : 'Pull of'} “${pull.event}”${pull.acceptedOnly ? ' (accepted files only)' : ''}`;
  const figures = `${pull.done} of ${files(pull.files)} · ${formatBytes(pull.bytes)} received`;
  return (
    <section className="app-card app-pull-progress" aria-label="The pull" ref={ref} tabIndex={-1}>
      <h3>{title}</h3>
      <p className="app-pull-progress__dir">
        Into <span className="app-folder__path">{pull.dir}</span>
      </p>
      {pull.state !== 'failed' ? (
        <div className="app-pull-progress__line">
          <div
            className="app-pull-bar"
            role="progressbar"
            aria-label={`Pull of ${pull.event}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pull.percent}
            aria-valuetext={`${pull.percent}%: ${pull.done} of ${files(pull.files)}`}
          >
            <span className="app-pull-bar__fill" style={{ width: `${pull.percent}%` }} />
          </div>
          <span className="app-pull-progress__percent">{pull.percent}%</span>
        </div>
      ) : null}
      {pull.state === 'failed' && pull.files === 0 ? null : (
        <p className="app-pull-progress__figures" data-testid="pull-figures">
          {pull.state === 'listing'
            ? 'Asking the server for the event’s files…'
            : `${figures}${running ? ` · ${formatSpeed(pull.bytesPerSecond)}` : ''}`}
        </p>
      )}
      {running && pull.current.length > 0 ? (
        <div className="app-pull-progress__current">
          <p id={currentLabel}>Now:</p>
          <ul aria-labelledby={currentLabel}>
            {pull.current.map((file) => (
              <li key={file} title={file}>
                {truncateFileName(file)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {pull.state === 'done' ? <Result pull={pull} /> : null}
      {pull.state === 'cancelled' ? (
        <p>
          Cancelled after {pull.done} of {files(pull.files)}. What arrived is kept: pull “{pull.event}” into
          the same folder again to go on where it stopped.
        </p>
      ) : null}
      {pull.state === 'failed' ? (
        <p className="kit-error" role="alert">
          {pull.error}
        </p>
      ) : null}
      {cancelFailure ? (
        <p className="kit-error" role="alert">
          {cancelFailure}
        </p>
      ) : null}
      {running ? (
        <div className="app-actions">
          <Button
            variant="secondary"
            isDisabled={pull.state === 'cancelling'}
            onPress={() => {
              setCancelFailure(null);
              api.cancelPull().catch((error: unknown) => {
                setCancelFailure(`The pull could not be cancelled: ${(error as Error).message}`);
              });
            }}
          >
            {pull.state === 'cancelling' ? 'Cancelling…' : 'Cancel the pull'}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function Result({ pull }: { pull: PullView }) {
  return (
    <div className="app-pull-result">
      <p>{summaryLine(pull)}</p>
      {pull.mismatched.length > 0 ? (
        <div className="kit-error" role="alert">
          <p>
            Did not match the server’s SHA-256 after a second download (kept as .part files; pull again, or
            tell the client):
          </p>
          <ul aria-label="Files that did not match">
            {pull.mismatched.map((file) => (
              <li key={file}>{file}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {pull.manifest ? (
        <p>
          The manifest is at <span className="app-folder__path">{pull.manifest}</span>
        </p>
      ) : null}
    </div>
  );
}
