/**
 * The queue: every submission still being sent, its files with their progress, speed and time left,
 * pause and resume per file and for all, and each failure's message (a file changed on disk included).
 * A file imported from a cloud account shows where from and the server's state of the copy; a file from
 * disk, its media facts and what the event's spec said of them when it was queued (issue #30).
 */
import { formatBytes, truncateFileName } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { FORM_TITLES } from '@avp/web/upload-form';
import type { DesktopApi, EngineSnapshot, FileView, JobView } from './api';
import { importLabel, PROVIDER_LABELS } from './cloud';
import { submissionSummary } from './format';
import { FactsLine } from './MediaFacts';
import { ProgressLine } from './Progress';

const STATE_LABELS: Record<FileView['state'], string> = {
  queued: 'Waiting',
  uploading: 'Sending',
  paused: 'Paused',
  complete: 'Done',
  failed: 'Failed',
};

const JOB_LABELS: Record<JobView['state'], string> = {
  waiting: 'Saved here, waiting for the server',
  uploading: 'Sending',
  failed: 'Stopped',
  submitting: 'Sending the submission…',
  submitted: 'Sent',
};

export interface QueueProps {
  api: DesktopApi;
  snapshot: EngineSnapshot | null;
  /** Called after a button press so the change shows at once. */
  onAction: () => void;
}

export function Queue({ api, snapshot, onAction }: QueueProps) {
  const act = (run: () => Promise<void>) => () => void run().finally(onAction);
  if (!snapshot) {
    return (
      <p className="app-loading" role="status">
        Loading the queue…
      </p>
    );
  }
  const files = snapshot.jobs.flatMap((job) => job.files);
  const canPause = files.some((f) => f.state === 'uploading' || f.state === 'queued');
  const canResume =
    files.some((f) => f.state === 'paused' || f.state === 'failed') ||
    snapshot.jobs.some((job) => job.state === 'failed');
  if (snapshot.jobs.length === 0) {
    return <p className="app-empty">No uploads in the queue. Start one from New upload.</p>;
  }
  return (
    <div className="app-queue">
      <div className="app-overall">
        <ProgressLine progress={snapshot.overall} label="Overall progress" />
        <div className="app-actions">
          <Button variant="secondary" isDisabled={!canPause} onPress={act(() => api.pauseAll())}>
            Pause all
          </Button>
          <Button variant="secondary" isDisabled={!canResume} onPress={act(() => api.resumeAll())}>
            Resume all
          </Button>
        </div>
      </div>
      {snapshot.jobs.map((job) => (
        <JobCard key={job.id} api={api} job={job} act={act} />
      ))}
    </div>
  );
}

type Act = (run: () => Promise<void>) => () => void;

function JobCard({ api, job, act }: { api: DesktopApi; job: JobView; act: Act }) {
  const title = `${FORM_TITLES[job.formType]}: ${submissionSummary(job.fields)}`;
  return (
    <article className="app-card app-job" aria-label={title}>
      <h3>{title}</h3>
      <p className="app-job__state">{JOB_LABELS[job.state]}</p>
      {job.error && !job.files.some((f) => f.error?.message === job.error?.message) ? (
        <p className="kit-error app-alert" role="alert">
          {job.error.message}
        </p>
      ) : null}
      <ul className="app-rows" aria-label={`Files of ${title}`}>
        {job.files.map((file) => (
          <FileRow key={file.key} api={api} jobId={job.id} file={file} act={act} />
        ))}
      </ul>
    </article>
  );
}

function FileRow({ api, jobId, file, act }: { api: DesktopApi; jobId: string; file: FileView; act: Act }) {
  const { name, state } = file;
  // A file changed on disk cannot be continued: the message says to add it again.
  const retryable = state === 'failed' && file.error?.code !== 'file_changed';
  return (
    <li className={`app-row app-row--${state}`} data-testid="queue-file">
      <span className="app-row__name">
        <span className="app-file-name" title={file.path}>
          {truncateFileName(name)}
        </span>
        {file.cloud ? (
          <span className="app-row__source">from {PROVIDER_LABELS[file.cloud.provider]}</span>
        ) : null}
      </span>
      <span className="app-file-size">{formatBytes(file.size)}</span>
      <span className="app-row__state" data-testid="queue-file-state">
        {importLabel(file) ?? STATE_LABELS[state]}
      </span>
      <ProgressLine progress={file.progress} label={`Progress of ${name}`} />
      <span className="app-row__actions">
        {state === 'uploading' || state === 'queued' ? (
          <Button
            variant="secondary"
            dense
            aria-label={`Pause ${name}`}
            onPress={act(() => api.pauseFile(jobId, file.key))}
          >
            Pause
          </Button>
        ) : null}
        {state === 'paused' || retryable ? (
          <Button
            variant="secondary"
            dense
            aria-label={`${state === 'paused' ? 'Resume' : 'Retry'} ${name}`}
            onPress={act(() => api.resumeFile(jobId, file.key))}
          >
            {state === 'paused' ? 'Resume' : 'Retry'}
          </Button>
        ) : null}
      </span>
      {file.factsText !== undefined ? (
        <div className="app-row__facts">
          <FactsLine text={file.factsText} check={file.check} />
        </div>
      ) : null}
      {file.error ? (
        <p className="kit-error app-row__error" role="alert">
          {file.error.message}
        </p>
      ) : null}
    </li>
  );
}
