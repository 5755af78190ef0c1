/**
 * Files the server copies from cloud accounts: their progress, speed and time left as the server reports
 * them, the same as a local file's. An import goes on when the page is closed, so /client lists the
 * client's recent ones on return; one that waits for a new sign-in offers to pick the file again.
 */
import {
  CLOUD_PICK_FAILED,
  formatBytes,
  formatSpeed,
  formatTimeLeft,
  truncateFileName,
  type CloudImportInfo,
  type CloudPickerConfig,
  type UploadFileInfo,
} from '@avp/shared';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { Button } from '../../../ui';
import { importedFile, recentImports, renewImport } from './api';
import { pickFrom, useCloudPickers } from './CloudButtons';
import { PROVIDER_LABELS } from './pickers';

const POLL_MS = 1_500;

const STATUS_LABELS: Record<CloudImportInfo['status'], string> = {
  queued: 'Waiting',
  running: 'Copying',
  needs_auth: 'Sign-in needed',
  failed: 'Failed',
  complete: 'Done',
};

export const isSettled = (info: CloudImportInfo | undefined) =>
  info?.status === 'complete' || info?.status === 'failed' || info?.status === 'needs_auth';

export interface ImportRowData {
  fileId: string;
  name: string;
  size: number | null;
  import: CloudImportInfo;
}

/** One imported file: its state, progress and, when it waits for the client, the way on. */
export function ImportRow({
  row,
  providers,
  onChange,
}: {
  row: ImportRowData;
  providers: CloudPickerConfig[];
  onChange: (file: UploadFileInfo) => void;
}) {
  const info = row.import;
  const size = row.size ?? 0;
  const done = info.status === 'complete' ? size : Math.min(info.bytesDone, size);
  const percent = size > 0 ? Math.floor((done / size) * 100) : info.status === 'complete' ? 100 : 0;
  const rate = info.bytesPerSecond ?? 0;
  const secondsLeft = rate > 0 && size > done ? Math.ceil((size - done) / rate) : null;
  const provider = PROVIDER_LABELS[info.provider];
  const config = providers.find((p) => p.provider === info.provider);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function pickAgain(picker: CloudPickerConfig) {
    setProblem(null);
    setBusy(true);
    try {
      const picked = await pickFrom(picker);
      if (!picked) return;
      const same = picked.find((p) => p.name === row.name) ?? picked[0];
      if (same) onChange(await renewImport(row.fileId, same));
    } catch (caught) {
      setProblem(
        caught instanceof Error && caught.name === 'PickerError' ? CLOUD_PICK_FAILED : errorMessage(caught),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className={`uploads-row uploads-row--import-${info.status}`} data-testid="import-row">
      <span className="uploads-file-name" title={row.name}>
        {truncateFileName(row.name)}
      </span>
      <span className="uploads-file-size">{row.size === null ? '' : formatBytes(row.size)}</span>
      <span className="uploads-state">
        {STATUS_LABELS[info.status]} <span className="uploads-file-source">from {provider}</span>
      </span>
      <div className="uploads-progress">
        <progress max={100} value={percent} aria-label={`Progress of ${row.name}`} />
        <span className="uploads-percent">{percent}%</span>
        <span>{info.status === 'running' ? formatSpeed(rate) : '—'}</span>
        <span>{info.status === 'complete' ? '' : formatTimeLeft(secondsLeft)}</span>
      </div>
      {info.error ? <p className="uploads-import-error">{info.error}</p> : null}
      {problem ? (
        <p className="kit-error uploads-error" role="alert">
          {problem}
        </p>
      ) : null}
      {(info.status === 'needs_auth' || info.status === 'failed') && config ? (
        <Button
          variant="secondary"
          dense
          isDisabled={busy}
          aria-label={`Pick ${row.name} again from ${provider}`}
          onPress={() => void pickAgain(config)}
        >
          {busy ? 'Opening…' : 'Pick again'}
        </Button>
      ) : null}
    </li>
  );
}

/** Polls the server for these files (as first given) until each import has settled. */
export function useImportProgress(
  files: UploadFileInfo[],
): [UploadFileInfo[], (file: UploadFileInfo) => void] {
  const [latest, setLatest] = useState<UploadFileInfo[]>(files);
  const update = (file: UploadFileInfo) => setLatest((all) => all.map((f) => (f.id === file.id ? file : f)));
  const pending = latest.filter((f) => !isSettled(f.import)).map((f) => f.id);
  const key = pending.join(',');
  useEffect(() => {
    if (key === '') return undefined;
    const timer = setInterval(() => {
      for (const id of key.split(',')) {
        importedFile(id).then(update, () => undefined);
      }
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [key]);
  return [latest, update];
}

/** The client's recent imports, for /client on return: polled while any is still copying. */
export function CloudImportsPanel({ refreshKey = 0 }: { refreshKey?: number }) {
  const providers = useCloudPickers();
  const [rows, setRows] = useState<ImportRowData[] | null>(null);
  const [tick, setTick] = useState(0);
  const active = rows?.some((r) => !isSettled(r.import)) ?? false;

  useEffect(() => {
    let live = true;
    recentImports().then(
      (imports) => {
        if (live) setRows(imports);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [refreshKey, tick]);

  useEffect(() => {
    if (!active) return undefined;
    const timer = setTimeout(() => setTick((n) => n + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [active, rows]);

  if (!rows || rows.length === 0) return null;
  return (
    <section className="uploads-imports" aria-labelledby="uploads-imports-title">
      <h2 id="uploads-imports-title">Files from cloud accounts</h2>
      <p>These are copied by our server: you may close this page and come back.</p>
      <ul className="uploads-rows">
        {rows.map((row) => (
          <ImportRow
            key={row.fileId}
            row={row}
            providers={providers}
            onChange={(file) =>
              setRows((all) =>
                (all ?? []).map((r) =>
                  r.fileId === file.id && file.import ? { ...r, import: file.import } : r,
                ),
              )
            }
          />
        ))}
      </ul>
    </section>
  );
}
