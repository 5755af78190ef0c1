/**
 * Watch folders (issue 16): the folders whose new files are sent, each with its form, once they have
 * stopped growing; adding one (the system's folder chooser and the upload form's fields and messages)
 * and removing one.
 */
import type { UploadFormType } from '@avp/shared';
import { Button, ConfirmDialog } from '@avp/web/ui';
import { FOCUS_WHEN_INVALID, FORM_TITLES, typedFields, UploadFormBase } from '@avp/web/upload-form';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DesktopApi, EngineSnapshot, WatchView } from './api';
import { submissionSummary } from './format';

export const CHOOSE_FOLDER = 'Choose a folder to watch.';

const since = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const folderName = (folder: string) =>
  folder
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || folder;

export interface WatchFoldersProps {
  api: DesktopApi;
  snapshot: EngineSnapshot | null;
  /** Called after a change so the list shows it at once. */
  onAction: () => void;
}

export function WatchFolders({ api, snapshot, onAction }: WatchFoldersProps) {
  const [adding, setAdding] = useState(false);
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<WatchView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [focusAdd, setFocusAdd] = useState(0);

  // Back on the button that opened the form, for keyboard users, once it is shown again.
  const backToAdd = () => setFocusAdd((n) => n + 1);
  useEffect(() => {
    if (focusAdd > 0) addButton.current?.focus();
  }, [focusAdd]);

  async function remove(watch: WatchView) {
    setRemoving(null);
    setFailure(null);
    try {
      await api.removeWatch(watch.id);
      setStatus(`Stopped watching ${watch.folder}.`);
      onAction();
    } catch (error) {
      setFailure(`The folder is still watched: ${(error as Error).message}`);
    }
    backToAdd();
  }

  return (
    <div className="app-watch">
      <p className="app-intro">
        Every new file in a watched folder is sent with the folder’s form once it has stopped growing for 10
        seconds, so an export or a copy still being written waits. Each file is sent once, even after a
        restart; a file replaced by a new version is sent again.
      </p>
      <p className="app-status" role="status">
        {status}
      </p>
      {failure ? (
        <p className="kit-error app-alert" role="alert">
          {failure}
        </p>
      ) : null}
      {adding ? (
        <WatchForm
          api={api}
          onAdded={(watch) => {
            setAdding(false);
            setStatus(`Watching ${watch.folder}. Its new files are sent once they stop growing.`);
            onAction();
            backToAdd();
          }}
          onCancel={() => {
            setAdding(false);
            backToAdd();
          }}
        />
      ) : (
        <div className="app-actions">
          <Button
            ref={addButton}
            onPress={() => {
              setStatus('');
              setFailure(null);
              setAdding(true);
            }}
          >
            Add a watch folder
          </Button>
        </div>
      )}
      <WatchList snapshot={snapshot} onRemove={setRemoving} />
      <ConfirmDialog
        isOpen={removing !== null}
        title="Stop watching this folder?"
        text={
          removing
            ? `New files in ${removing.folder} will no longer be sent. What was sent stays sent; if you watch ` +
              'the folder again later, the files in it are sent again.'
            : ''
        }
        confirmLabel="Stop watching"
        destructive
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}

function WatchList({
  snapshot,
  onRemove,
}: {
  snapshot: EngineSnapshot | null;
  onRemove: (watch: WatchView) => void;
}) {
  if (!snapshot) {
    return (
      <p className="app-loading" role="status">
        Loading the watch folders…
      </p>
    );
  }
  if (snapshot.watches.length === 0) {
    return <p className="app-empty">No folders are watched yet. Add one to send the files you put in it.</p>;
  }
  return (
    <ul className="app-watches" aria-label="Watched folders">
      {snapshot.watches.map((watch) => {
        const form = `${FORM_TITLES[watch.fields.form_type]}: ${submissionSummary(watch.fields)}`;
        return (
          <li key={watch.id} className="app-card app-watch-item">
            <div className="app-watch-item__text">
              <h3 className="app-watch-item__folder" title={watch.folder}>
                {watch.folder}
              </h3>
              <p>{form}</p>
              <p className="app-watch-item__meta">
                {watch.filesSent === 1 ? '1 file sent' : `${watch.filesSent} files sent`} · watched since{' '}
                <time dateTime={watch.createdAt}>{since(watch.createdAt)}</time>
              </p>
            </div>
            <Button
              variant="secondary"
              dense
              aria-label={`Remove the watch folder ${watch.folder}`}
              onPress={() => onRemove(watch)}
            >
              Remove
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

interface WatchFormProps {
  api: DesktopApi;
  onAdded: (watch: WatchView) => void;
  onCancel: () => void;
}

/** A folder from the system's chooser and the upload form its files are sent with. */
function WatchForm({ api, onAdded, onCancel }: WatchFormProps) {
  const [formType, setFormType] = useState<UploadFormType>('creative');
  const [folder, setFolder] = useState<string | null>(null);
  const [chooserFailure, setChooserFailure] = useState<string | null>(null);
  const folderLabel = useId();
  const folderError = useId();
  // The upload form's check, with the folder in the place of the files.
  const files = useMemo(() => (folder ? [{ name: folderName(folder) }] : []), [folder]);

  async function choose() {
    setChooserFailure(null);
    try {
      const chosen = await api.chooseFolder();
      if (chosen) setFolder(chosen);
    } catch (error) {
      setChooserFailure(`The folder chooser did not open: ${(error as Error).message}`);
    }
  }

  return (
    <UploadFormBase
      className="app-card app-watch-form"
      label="Add a watch folder"
      formType={formType}
      choice={{ question: 'What does this folder hold?', onChange: setFormType }}
      files={files}
      filesFirst
      renderFiles={(filesMessage) => {
        const message = filesMessage ? CHOOSE_FOLDER : undefined;
        return (
          <div
            className={`app-folder${message ? ' app-folder--error' : ''}`}
            role="group"
            aria-labelledby={folderLabel}
            aria-describedby={message ? folderError : undefined}
          >
            <span id={folderLabel} className="app-folder__label">
              Folder
            </span>
            <p className="app-folder__path">{folder ?? 'No folder chosen yet.'}</p>
            <Button
              variant="secondary"
              onPress={() => void choose()}
              {...(message ? { [FOCUS_WHEN_INVALID]: true } : {})}
            >
              {folder ? 'Choose another folder…' : 'Choose a folder…'}
            </Button>
            {message ? (
              <p id={folderError} className="kit-error" role="alert">
                {message}
              </p>
            ) : null}
            {chooserFailure ? (
              <p className="kit-error" role="alert">
                {chooserFailure}
              </p>
            ) : null}
          </div>
        );
      }}
      onSubmit={async (_fields, values) => {
        // The schema has checked that a folder was chosen (it stands in for the files).
        const result = await api.addWatch(typedFields(values), folder ?? '');
        if (!result.ok) return result;
        onAdded({ ...result.value, filesSent: 0 });
        return null;
      }}
      submitLabel="Start watching"
      busyLabel="Adding…"
      actions={
        <Button variant="secondary" onPress={onCancel}>
          Cancel
        </Button>
      }
    />
  );
}
