/**
 * Files and folders for the upload: dropped from the operating system anywhere on the window, or chosen
 * with the system's file dialog. Only their paths travel (avUpload.pathForFile); the engine reads the
 * bytes from disk, a part at a time, and walks folders. Files picked in a connected cloud account (the
 * browse panel, opened by an 'Add from …' button here) join the same list with their size and provider.
 * Names are cut at 24 characters (SPEC §2).
 */
import { formatBytes, truncateFileName } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DesktopApi, ProviderStatus } from './api';
import { PROVIDER_LABELS } from './cloud';
import type { ChosenItem } from './form';

export const UNKNOWN_LOCATION =
  'Some items could not be added because their location on disk is unknown. Drop them from your file manager instead.';

export interface FileDropProps {
  api: DesktopApi;
  items: ChosenItem[];
  onChange: (items: ChosenItem[]) => void;
  errorMessage?: string | undefined;
  /** Connected cloud accounts: an 'Add from …' button each, beside the file chooser. */
  accounts?: ProviderStatus[];
  onBrowse?: (account: ProviderStatus) => void;
}

export function FileDrop({ api, items, onChange, errorMessage, accounts = [], onBrowse }: FileDropProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();
  const problemId = useId();
  // The drop listener lives on the window for the form's lifetime; it reads the latest list through this.
  const latest = useRef({ items, onChange });
  useEffect(() => {
    latest.current = { items, onChange };
  });

  const add = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const { items: current, onChange: change } = latest.current;
      const known = new Set(current.map((item) => item.path));
      const added: ChosenItem[] = [];
      let unknown = 0;
      for (const file of files) {
        const path = api.pathForFile(file);
        if (!path) unknown++;
        else if (!known.has(path)) {
          known.add(path);
          added.push({ path, name: file.name });
        }
      }
      setProblem(unknown > 0 ? UNKNOWN_LOCATION : null);
      if (added.length > 0) change([...current, ...added]);
    },
    [api],
  );

  // The whole window takes drops while the form is shown: a file dropped beside the zone is added rather
  // than opened by the browser engine.
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setOver(true);
    };
    const onDragLeave = (event: DragEvent) => {
      if (event.relatedTarget === null) setOver(false);
    };
    const onDrop = (event: DragEvent) => {
      event.preventDefault();
      setOver(false);
      add([...(event.dataTransfer?.files ?? [])]);
    };
    window.addEventListener('dragover', onDragOver);
    window.addEventListener('dragleave', onDragLeave);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onDragOver);
      window.removeEventListener('dragleave', onDragLeave);
      window.removeEventListener('drop', onDrop);
    };
  }, [add]);

  const describedBy = [errorMessage ? errorId : null, problem ? problemId : null].filter(Boolean).join(' ');

  return (
    <div className="app-files" role="group" aria-label="Files" aria-describedby={describedBy || undefined}>
      <div
        className={`app-drop${over ? ' app-drop--over' : ''}${errorMessage ? ' app-drop--error' : ''}`}
        data-testid="drop-zone"
      >
        <p>Drop files or folders anywhere on this window, or</p>
        <Button variant="secondary" onPress={() => input.current?.click()}>
          Choose files
        </Button>
        {accounts.map((account) => (
          <Button
            key={account.provider}
            variant="secondary"
            className="app-drop__cloud"
            onPress={() => onBrowse?.(account)}
          >
            Add from {account.providerName}
          </Button>
        ))}
        <input
          ref={input}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            add([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
      </div>
      {errorMessage ? (
        <p id={errorId} className="kit-error" role="alert">
          {errorMessage}
        </p>
      ) : null}
      {problem ? (
        <p id={problemId} className="kit-error" role="alert">
          {problem}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="app-chosen" aria-label="Chosen files">
          {items.map((item) => (
            <li key={item.path}>
              <span className="app-chosen__name">
                <span className="app-file-name" title={item.cloud?.path ?? item.path}>
                  {truncateFileName(item.name)}
                </span>
                {item.cloud ? (
                  <span className="app-file-size">
                    {item.cloud.size !== null ? `${formatBytes(item.cloud.size)} · ` : ''}
                    from {PROVIDER_LABELS[item.cloud.provider]}
                  </span>
                ) : null}
              </span>
              <Button
                variant="secondary"
                dense
                aria-label={`Remove ${item.name}`}
                onPress={() => onChange(items.filter((other) => other.path !== item.path))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="app-empty">No files chosen yet.</p>
      )}
    </div>
  );
}
