/**
 * New upload: the web portal's upload form (@avp/web/upload-form) with the desktop's files. Local files
 * and folders are dropped anywhere on the window or chosen with the system's dialog, and only their paths
 * travel (avUpload.pathForFile): the engine reads the bytes from disk, a part at a time, and walks
 * folders. Files picked in a connected cloud account (the browse panel, opened by an 'Add from …' button
 * beside the chooser) join the same list with their size and provider, and the server imports them.
 */
import { checkMediaFacts, formatBytes, type UploadEventPublic, type UploadFormType } from '@avp/shared';
import { Button } from '@avp/web/ui';
import {
  FileDropZone,
  typedFields,
  UploadFormBase,
  type ChosenFile,
  type UploadFormBaseProps,
} from '@avp/web/upload-form';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { CloudItem, DesktopApi, ProviderStatus, RefusedPath } from './api';
import { CloudBrowser } from './CloudBrowser';
import { PROVIDER_LABELS } from './cloud';
import { blockedReason, ChosenFacts, type FactsState } from './MediaFacts';

export const UNKNOWN_LOCATION =
  'Some items could not be added because their location on disk is unknown. Drop them from your file manager instead.';

/** "Not added: keynote.mov does not exist; stills cannot be read: permission denied." */
export function refusedMessage(refused: RefusedPath[]): string {
  const named = refused.map((r) => `${r.path.split(/[\\/]/).pop() || r.path} ${r.reason}`);
  return `Not added: ${named.join('; ')}.`;
}

/** A file or folder on disk, or a file picked in a cloud account, keyed by its ref (`dropbox:id:…`). */
interface ChosenItem {
  path: string;
  name: string;
  cloud?: CloudItem;
}

export interface NewUploadProps {
  api: DesktopApi;
  /** Called once the files are in the queue. */
  onQueued: (count: number) => void;
}

function row(item: ChosenItem, details?: ChosenFile['details']): ChosenFile {
  const { cloud } = item;
  return {
    ...(details ? { details } : {}),
    key: item.path,
    name: item.name,
    title: cloud?.path ?? item.path,
    source: cloud
      ? `${cloud.size !== null ? `${formatBytes(cloud.size)} · ` : ''}from ${PROVIDER_LABELS[cloud.provider]}`
      : undefined,
  };
}

export function NewUpload({ api, onQueued }: NewUploadProps) {
  const [formType, setFormType] = useState<UploadFormType>('creative');
  const [items, setItems] = useState<ChosenItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [accounts, setAccounts] = useState<ProviderStatus[]>([]);
  const [browsing, setBrowsing] = useState<ProviderStatus | null>(null);
  const [picked, setPicked] = useState('');
  const refs = useMemo(() => items.map((item) => ({ name: item.name })), [items]);
  // Open upload events (issue #30): the Event name suggests them; the one named gives the files' spec.
  const [events, setEvents] = useState<UploadEventPublic[] | undefined>(undefined);
  // Each chosen file's media facts, read by the engine on this machine (folders get none).
  const [facts, setFacts] = useState<ReadonlyMap<string, FactsState>>(new Map());

  useEffect(() => {
    let live = true;
    api
      .uploadEvents()
      .then((open) => live && setEvents(open))
      .catch(() => live && setEvents([]));
    return () => {
      live = false;
    };
  }, [api]);

  /** Reads the facts of newly chosen files; a path the engine does not answer for (a folder) shows none. */
  const readFacts = useCallback(
    (paths: string[]) => {
      if (paths.length === 0) return;
      setFacts(
        (current) => new Map([...current, ...paths.map((p) => [p, { status: 'reading' } as const] as const)]),
      );
      api
        .mediaFacts(paths)
        .catch(() => [])
        .then((answer) =>
          setFacts((current) => {
            const next = new Map(current);
            for (const p of paths) next.delete(p);
            for (const { path, facts: read } of answer) next.set(path, { status: 'read', facts: read });
            return next;
          }),
        );
    },
    [api],
  );

  const blockedBy = useCallback(
    (applied: Parameters<NonNullable<UploadFormBaseProps['blockedBy']>>[0]) => {
      if (!applied?.spec) return null;
      const spec = applied.spec;
      const blocked = items.filter((item) => {
        const state = facts.get(item.path);
        return state?.status === 'read' && checkMediaFacts(spec, state.facts).verdict === 'block';
      });
      return blockedReason(
        blocked.map((item) => item.name),
        applied.event.name,
      );
    },
    [items, facts],
  );

  // The connected accounts, for their 'Add from …' buttons; without them the form is as before.
  useEffect(() => {
    let live = true;
    api
      .cloudProviders()
      .then((all) => live && setAccounts(all.filter((p) => p.account !== null)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);

  async function addLocal(files: File[]) {
    const all = files.map((file) => ({ path: api.pathForFile(file), name: file.name }));
    const located = all.filter((item) => item.path);
    // Refused as dropped, by name and reason, rather than when the form is sent.
    const refused = located.length > 0 ? await api.checkPaths(located.map((item) => item.path)) : [];
    const refusedPaths = new Set(refused.map((r) => r.path));
    const chosen = located.filter((item) => !refusedPaths.has(item.path));
    const problems = [
      ...(all.length > located.length ? [UNKNOWN_LOCATION] : []),
      ...(refused.length > 0 ? [refusedMessage(refused)] : []),
    ];
    setProblem(problems.length > 0 ? problems.join(' ') : null);
    const known = new Set(items.map((item) => item.path));
    readFacts(chosen.filter((item) => !known.has(item.path)).map((item) => item.path));
    setItems((current) => {
      const known = new Set(current.map((item) => item.path));
      const added: ChosenItem[] = [];
      for (const item of chosen) {
        if (known.has(item.path)) continue;
        known.add(item.path);
        added.push(item);
      }
      return added.length > 0 ? [...current, ...added] : current;
    });
  }

  function addPicked(list: CloudItem[]) {
    const known = new Set(items.map((item) => item.path));
    const added = list
      .filter((cloud) => !known.has(cloud.ref))
      .map((cloud) => ({ path: cloud.ref, name: cloud.name, cloud }));
    setItems([...items, ...added]);
    setBrowsing(null);
    setPicked(
      `Added ${added.length} ${added.length === 1 ? 'file' : 'files'} from ${browsing?.providerName ?? 'the account'}.`,
    );
  }

  return (
    <UploadFormBase
      className="app-card"
      label="New upload"
      formType={formType}
      choice={{ question: 'What are you uploading?', onChange: setFormType }}
      files={refs}
      events={events}
      blockedBy={blockedBy}
      renderFiles={(errorMessage, applied) => (
        <FileDropZone
          items={items.map((item) =>
            row(
              item,
              // A folder (no facts of its own) and a cloud file get no line.
              item.cloud || !facts.has(item.path) ? undefined : (
                <ChosenFacts state={facts.get(item.path)} spec={applied?.spec ?? null} />
              ),
            ),
          )}
          onAdd={(files) => void addLocal(files)}
          onRemove={(key) => {
            setItems(items.filter((item) => item.path !== key));
            setFacts((current) => {
              const next = new Map(current);
              next.delete(key);
              return next;
            });
          }}
          errorMessage={errorMessage}
          problem={problem}
          dropAnywhere
          prompt="Drop files or folders anywhere on this window, or"
          emptyText="No files chosen yet."
          actions={accounts.map((account) => (
            <Button
              key={account.provider}
              variant="secondary"
              onPress={() => {
                setPicked('');
                setBrowsing(account);
              }}
            >
              Add from {account.providerName}
            </Button>
          ))}
        />
      )}
      onSubmit={async (_fields, values) => {
        const paths = items.filter((item) => !item.cloud).map((item) => item.path);
        const cloudFiles = items.flatMap((item) => (item.cloud ? [item.cloud] : []));
        const result = await api.submit(typedFields(values), paths, cloudFiles);
        if (!result.ok) return result;
        onQueued(items.length);
        return null;
      }}
      busyLabel="Adding to the queue…"
    >
      <p className="visually-hidden" role="status">
        {picked}
      </p>
      {browsing ? (
        <CloudBrowser
          api={api}
          provider={browsing.provider}
          providerName={browsing.providerName}
          chosen={new Set(items.map((item) => item.path))}
          onAdd={addPicked}
          onClose={() => setBrowsing(null)}
        />
      ) : null}
    </UploadFormBase>
  );
}
