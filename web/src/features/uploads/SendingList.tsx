/**
 * The files of a send, however many (issue #34: 2,000 picked at once): a summary line with the counts,
 * a way to see only the files that failed or were kept back, and the rows in a VirtualList, so that only
 * those on screen are in the page. The queue's changes reach this through the page's once-a-frame render
 * (UploadUtility), so a burst of progress events costs one render of the rows on screen.
 */
import {
  formatBytes,
  formatSpeed,
  formatTimeLeft,
  truncateFileName,
  type FileUpload,
  type ProgressSnapshot,
  type UploadQueue,
} from '@avp/shared';
import { memo, useState } from 'react';
import { VirtualList } from '../../components/VirtualList';
import { Button, Checkbox } from '../../ui';

/**
 * A picked file not in the queue: still being read (it joins the queue once its check allows it), or
 * held back because its event's spec blocks it (read too late for the form to stop it).
 */
export interface HeldFile {
  file: File;
  blocked: string[] | null;
  /** Not being read: only waiting its turn to join the queue (no spec to check it against). */
  waiting?: boolean | undefined;
}

export const STATE_LABELS: Record<FileUpload['state'], string> = {
  waiting: 'Waiting',
  uploading: 'Sending',
  paused: 'Paused',
  complete: 'Done',
  failed: 'Failed',
  removed: 'Removed',
};

/**
 * The server's refusals of a file that say what is wrong in words (issue #30): the event's spec stops it
 * ('media_mismatch', its sentences) or the event's deadline has passed ('uploads_closed').
 */
const REFUSALS_IN_WORDS = new Set(['media_mismatch', 'uploads_closed']);

/** A row's height before it is drawn: name, size, state and a progress bar on one line (1280 px). */
const ROW_ESTIMATE_PX = 48;

export function ProgressLine({ progress, label }: { progress: ProgressSnapshot; label: string }) {
  return (
    <div className="uploads-progress">
      <progress max={100} value={progress.percent} aria-label={label} />
      <span className="uploads-figures">
        <span className="uploads-percent">{progress.percent}%</span>
        <span className="uploads-speed">{formatSpeed(progress.bytesPerSecond)}</span>
        <span className="uploads-time-left">{formatTimeLeft(progress.secondsLeft)}</span>
      </span>
    </div>
  );
}

interface FileRowProps {
  upload: FileUpload;
  /** What the row shows, as props, so that a row whose file did not change is not drawn again. */
  state: FileUpload['state'];
  retrying: boolean;
  refusal: string | null;
  percent: number;
  speed: string;
  timeLeft: string;
}

const FileRow = memo(function FileRow({
  upload,
  state,
  retrying,
  refusal,
  percent,
  speed,
  timeLeft,
}: FileRowProps) {
  const { name, size } = upload.source;
  return (
    <>
      <span className="uploads-file-name" title={name}>
        {truncateFileName(name)}
      </span>
      <span className="uploads-file-size">{formatBytes(size)}</span>
      <span className="uploads-state">{retrying ? 'Retrying' : STATE_LABELS[state]}</span>
      <div className="uploads-progress">
        <progress max={100} value={percent} aria-label={`Progress of ${name}`} />
        <span className="uploads-figures">
          <span className="uploads-percent">{percent}%</span>
          <span className="uploads-speed">{speed}</span>
          <span className="uploads-time-left">{timeLeft}</span>
        </span>
      </div>
      {refusal !== null ? (
        <span className="kit-error uploads-error uploads-import-error">{refusal}</span>
      ) : null}
      {state === 'uploading' || state === 'waiting' ? (
        <Button variant="secondary" dense onPress={() => upload.pause()} aria-label={`Pause ${name}`}>
          Pause
        </Button>
      ) : null}
      {state === 'paused' ? (
        <Button variant="secondary" dense onPress={() => upload.resume()} aria-label={`Resume ${name}`}>
          Resume
        </Button>
      ) : null}
      {state !== 'complete' && state !== 'removed' ? (
        <Button variant="secondary" dense onPress={() => void upload.remove()} aria-label={`Remove ${name}`}>
          Remove
        </Button>
      ) : null}
    </>
  );
});

function uploadRow(upload: FileUpload) {
  const progress = upload.progress();
  const refused =
    upload.state === 'failed' && upload.error && REFUSALS_IN_WORDS.has(upload.error.code)
      ? upload.error.message
      : null;
  return (
    <FileRow
      upload={upload}
      state={upload.state}
      retrying={upload.retrying !== null}
      refusal={refused}
      percent={progress.percent}
      speed={formatSpeed(progress.bytesPerSecond)}
      timeLeft={formatTimeLeft(progress.secondsLeft)}
    />
  );
}

const HeldRow = memo(function HeldRow({ held: { file, blocked, waiting } }: { held: HeldFile }) {
  return (
    <>
      <span className="uploads-file-name" title={file.name}>
        {truncateFileName(file.name)}
      </span>
      <span className="uploads-file-size">{formatBytes(file.size)}</span>
      <span className="uploads-state">
        {blocked ? 'Not sent' : waiting ? STATE_LABELS.waiting : 'Reading its details'}
      </span>
      {blocked ? (
        <span className="kit-error uploads-error uploads-import-error">{blocked.join(' ')}</span>
      ) : null}
    </>
  );
});

type Entry = { kind: 'upload'; upload: FileUpload } | { kind: 'held'; held: HeldFile };

/** Row keys, made once per file: the list asks for every row's key at each render. */
const keys = new WeakMap<object, string>();
function keyOf(prefix: string, of: object, f: { name: string; size: number; lastModified?: number | null }) {
  let key = keys.get(of);
  if (key === undefined) {
    key = `${prefix}${f.name}-${f.size}-${f.lastModified ?? ''}`;
    keys.set(of, key);
  }
  return key;
}

/** Entries made once per file (the list is made again at each render, ten a second while sending). */
const madeEntries = new WeakMap<object, Entry>();
function entryOf(of: FileUpload, kind: 'upload'): Entry;
function entryOf(of: HeldFile, kind: 'held'): Entry;
function entryOf(of: FileUpload | HeldFile, kind: Entry['kind']): Entry {
  let entry = madeEntries.get(of);
  if (!entry) {
    entry = kind === 'upload' ? { kind, upload: of as FileUpload } : { kind, held: of as HeldFile };
    madeEntries.set(of, entry);
  }
  return entry;
}

export interface SendCounts {
  files: number;
  sent: number;
  failed: number;
  notSent: number;
}

/** The counts of the summary line (one pass over the files). */
export function sendCounts(queue: UploadQueue, held: readonly HeldFile[]): SendCounts {
  let sent = 0;
  let failed = 0;
  let removed = 0;
  for (const upload of queue.files) {
    if (upload.state === 'complete') sent++;
    else if (upload.state === 'failed') failed++;
    else if (upload.state === 'removed') removed++;
  }
  const notSent = held.filter((h) => h.blocked !== null).length;
  return { files: queue.files.length - removed + held.length, sent, failed, notSent };
}

const NUMBER = new Intl.NumberFormat('en-US');
const count = (n: number) => NUMBER.format(n);

/** not in SPEC (issue #34): the summary of a send, e.g. '2,000 files: 1,250 sent, 3 failed'. */
export function summaryText({ files, sent, failed, notSent }: SendCounts): string {
  const parts = [`${count(sent)} sent`, `${count(failed)} failed`];
  if (notSent > 0) parts.push(`${count(notSent)} not sent`);
  return `${count(files)} ${files === 1 ? 'file' : 'files'}: ${parts.join(', ')}`;
}

export const FAILED_ONLY = 'Show only files that failed';

export function SendingList({ queue, held }: { queue: UploadQueue; held: readonly HeldFile[] }) {
  const [failedOnly, setFailedOnly] = useState(false);
  const counts = sendCounts(queue, held);
  const failures = counts.failed + counts.notSent;
  const filtering = failedOnly && failures > 0;
  const entries: Entry[] = [];
  for (const upload of queue.files) {
    if (!filtering || upload.state === 'failed') entries.push(entryOf(upload, 'upload'));
  }
  for (const h of held) if (!filtering || h.blocked !== null) entries.push(entryOf(h, 'held'));
  return (
    <>
      <div className="uploads-summary-bar">
        <p className="uploads-summary" data-testid="upload-summary">
          {summaryText(counts)}
        </p>
        {failures > 0 ? <Checkbox label={FAILED_ONLY} value={failedOnly} onChange={setFailedOnly} /> : null}
      </div>
      {entries.length > 0 ? (
        <VirtualList
          className="uploads-rows"
          label={filtering ? 'Files that failed' : 'Files being sent'}
          count={entries.length}
          estimateHeight={ROW_ESTIMATE_PX}
          itemKey={(i) => {
            const entry = entries[i]!;
            return entry.kind === 'upload'
              ? keyOf('q-', entry.upload, entry.upload.source)
              : keyOf('h-', entry.held.file, entry.held.file);
          }}
          itemProps={(i) => {
            const entry = entries[i]!;
            if (entry.kind === 'upload') {
              return {
                className: `uploads-row uploads-row--${entry.upload.state}`,
                'data-testid': 'upload-row',
              };
            }
            return {
              className: `uploads-row uploads-row--${entry.held.blocked ? 'failed' : 'waiting'}`,
              'data-testid': 'upload-held-row',
            };
          }}
          renderItem={(i) => {
            const entry = entries[i]!;
            return entry.kind === 'upload' ? uploadRow(entry.upload) : <HeldRow held={entry.held} />;
          }}
        />
      ) : null}
    </>
  );
}
