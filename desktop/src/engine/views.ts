/**
 * What the engine shows of its queue: each job and file with its progress, the snapshot the window and
 * `av-upload status` read, and the events it emits. Views are built from the persisted jobs and, for a
 * file being sent, its live upload; nothing here changes state.
 */
import { describeMediaFacts, snapshot } from '@avp/shared';
import type {
  CloudProvider,
  FileUpload,
  ImportStatus,
  MediaCheck,
  MediaFacts,
  ProgressSnapshot,
  SubmissionFields,
} from '@avp/shared';
import type { ConnectionState, RetryEvent } from './connection.js';
import type { EngineFileState, EngineSettings, HistoryEntry, PersistedFile, PersistedJob } from './state.js';
import type { WatchFolder } from './watch.js';

export interface FileView {
  key: string;
  name: string;
  path: string;
  size: number;
  state: EngineFileState;
  sha256: string | null;
  error: { code: string; message: string } | null;
  progress: ProgressSnapshot;
  /** For a file the server imports from a cloud account: where from, and the server's state of the copy. */
  cloud?: { provider: CloudProvider; status: ImportStatus | null };
  /** Its media facts, in words, and its check against the event's spec (local files read when queued). */
  facts?: MediaFacts | null;
  factsText?: string;
  check?: MediaCheck;
}

export interface JobView {
  id: string;
  /** null until the server has registered the job (state 'waiting'). */
  submissionId: string | null;
  formType: SubmissionFields['form_type'];
  fields: SubmissionFields;
  state: PersistedJob['state'];
  error: { code: string; message: string } | null;
  files: FileView[];
  progress: ProgressSnapshot;
}

export interface EngineSnapshot {
  jobs: JobView[];
  overall: ProgressSnapshot;
  /** Whether anything is being sent or waits its turn (or waits for the server). */
  active: boolean;
  history: HistoryEntry[];
  /** The saved settings. */
  settings: EngineSettings;
  /** Folders whose new files are sent once they stop growing (watch.ts). */
  watches: WatchFolder[];
  /** Whether the server answers; while it does not, when it is tried next. */
  connection: ConnectionState;
}

export type EngineEvent =
  | { type: 'change' }
  | { type: 'submitted'; entry: HistoryEntry }
  | { type: 'failed'; jobId: string; file: string | null; message: string }
  | { type: 'unauthorized' }
  | { type: 'registered'; jobId: string; submissionId: string }
  | { type: 'connection'; connection: ConnectionState }
  | RetryEvent;

export function fileView(file: PersistedFile, live: FileUpload | undefined): FileView {
  const progress =
    file.state === 'complete'
      ? snapshot(file.size, file.size, 0)
      : file.cloud
        ? snapshot(
            file.cloud.bytesDone,
            file.size,
            file.state === 'uploading' ? (file.cloud.bytesPerSecond ?? 0) : 0,
          )
        : live
          ? live.progress()
          : snapshot(0, file.size, 0);
  return {
    key: file.key,
    name: file.name,
    path: file.path,
    size: file.size,
    state: file.state,
    sha256: file.sha256,
    error: file.error,
    progress,
    ...(file.cloud ? { cloud: { provider: file.cloud.provider, status: file.cloud.status } } : {}),
    ...(file.facts !== undefined ? { facts: file.facts, factsText: describeMediaFacts(file.facts) } : {}),
    ...(file.check ? { check: file.check } : {}),
  };
}

/** A job with its files; `live` finds the upload of a file being sent (by its key). */
export function jobView(job: PersistedJob, live: (key: string) => FileUpload | undefined): JobView {
  const files = job.files.map((f) => fileView(f, live(f.key)));
  const sent = files.reduce((s, f) => s + f.progress.sentBytes, 0);
  const total = files.reduce((s, f) => s + f.size, 0);
  const rate = files.reduce((s, f) => s + f.progress.bytesPerSecond, 0);
  return {
    id: job.id,
    submissionId: job.submissionId,
    formType: job.fields.form_type,
    fields: job.fields,
    state: job.state,
    error: job.error,
    files,
    progress: snapshot(sent, total, rate),
  };
}
