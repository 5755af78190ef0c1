/**
 * The client upload utility (SPEC §2 'Upload page flow', §4 'Upload', §8): the choice of form through
 * the URL hash (#creative, #event, #eventForm, #sponsor; back and forward move between them), the form,
 * then the files sent with the shared upload client, with per-file and overall progress, pause, resume
 * and remove, a guard against leaving while sending, and a fresh form after success (the spec's page
 * reload) under the thank-you. The form is submitted from the foot of a long page, so the progress and
 * the thank-you are brought into view and given the focus, and announced through one live region.
 */
import {
  checkMediaFacts,
  formatBytes,
  SESSION_EXPIRED,
  truncateFileName,
  UPLOAD_CHUNK_FAILED,
  UPLOAD_FILE_REQUIRED,
  type RetryNotice,
  type SubmissionFields,
  type SubmissionInfo,
  type UploadFormType,
  type UploadFileInfo,
  type UploadQueue,
} from '@avp/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '../../ui';
import { errorMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { startCloudImport } from './cloud/api';
import { useCloudPickers } from './cloud/CloudButtons';
import { CloudImportsPanel, ImportRow, useImportProgress } from './cloud/CloudImports';
import type { PickedCloudFile } from './cloud/pickers';
import { factsIfRead, readFileFacts } from './media-facts';
import type { AppliedSpec } from './media-spec';
import { browserUploadClient, fileSource } from './transport';
import { coalescer, eachInSlices } from './coalesce';
import { ProgressLine, SendingList, type HeldFile } from './SendingList';
import { fromSubmissionFields, UploadForm } from './UploadForms';
import './uploads.css';

/** not in SPEC: the wording of the 'do not close or refresh' message and of the success state. */
export const DO_NOT_CLOSE =
  'Uploading… Please do not close or refresh this page until your upload is complete.';
export const UPLOAD_SUCCESS = 'Thank you! Your files were received.';

const CAUSES: Record<RetryNotice['reason'], string> = {
  unreachable: 'Connection problem',
  'server-error': 'Server problem',
  busy: 'Server busy',
};

/** What is being tried again, in words: the file's part, its registration, the submission… */
function retrySubject(notice: RetryNotice, fileName: string | undefined): string | null {
  switch (notice.what) {
    case 'part':
      return fileName ?? null;
    case 'register':
      return fileName ? `the registration of ${fileName}` : 'the start of this upload';
    case 'complete':
      return fileName ? `the completion of ${fileName}` : 'the completion of a file';
    case 'submit':
      return 'the submission';
    default:
      return null;
  }
}

/**
 * not in SPEC: what shows while a call waits to be tried again (the spec's error comes after the last),
 * with the server's own message when it gave one.
 */
export function retryingText(notice: RetryNotice, now: number, fileName?: string): string {
  const subject = retrySubject(notice, fileName);
  const attempt = `${CAUSES[notice.reason]}: retrying${subject ? ` ${subject}` : ''} (attempt ${notice.attempt} of ${notice.attempts})`;
  const seconds = Math.ceil((notice.nextAt - now) / 1000);
  const when = seconds > 0 ? `${attempt}, next try in ${seconds} s.` : `${attempt} now.`;
  return notice.message ? `${when} ${notice.message}` : when;
}

/** not in SPEC (issue #30): a file kept back because its event's spec blocks it, with the mismatches. */
export function notSentText(name: string, issues: readonly string[]): string {
  return `Not sent: ${name}. ${issues.join(' ')}`;
}

/** not in SPEC (issue #29): a file of an open submission that the page can send on once chosen again. */
export function canContinueText(file: { name: string; size: number }): string {
  return `This upload can continue: choose the same file again (${file.name}, ${formatBytes(file.size)})`;
}

type Step = 'choose' | 'eventForm' | UploadFormType;

export function stepOf(hash: string): Step {
  switch (hash) {
    case '#creative':
      return 'creative';
    case '#event':
      return 'event';
    case '#sponsor':
      return 'sponsor';
    case '#eventForm':
      return 'eventForm';
    default:
      return 'choose';
  }
}

const OPEN_SUBMISSION_KEY = 'avp.upload.openSubmission';

interface OpenSubmission {
  id: string;
  userId: number;
  formType: UploadFormType;
}

function savedSubmission(userId: number): OpenSubmission | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(OPEN_SUBMISSION_KEY) ?? 'null') as OpenSubmission | null;
    return saved && saved.userId === userId ? saved : undefined;
  } catch {
    return undefined;
  }
}

function rememberedSubmission(userId: number, formType: UploadFormType): string | undefined {
  const saved = savedSubmission(userId);
  return saved?.formType === formType ? saved.id : undefined;
}

/**
 * The open submission of an upload cut off (a reload, a closed tab): its fields come back in the form,
 * the files the server holds in part are named so that the same ones can be chosen again, and those it
 * holds whole (or imports from a cloud account) are sent with it as they are.
 */
interface Draft {
  submission: SubmissionInfo;
  pending: UploadFileInfo[];
  carried: UploadFileInfo[];
}

function draftOf(submission: SubmissionInfo): Draft | null {
  if (submission.status !== 'open') return null;
  const pending = submission.files.filter((f) => f.status !== 'complete' && !f.import);
  const carried = submission.files.filter((f) => f.status === 'complete' || f.import);
  return pending.length > 0 ? { submission, pending, carried } : null;
}

/** Whether every file of the draft left unfinished is among `files` again (by name and size). */
function allChosenAgain(draft: Draft, files: File[]): boolean {
  return draft.pending.every((p) => files.some((f) => f.name === p.name && f.size === p.size));
}

/** A cloud file of the submission: the server's import, or why the server would not start it. */
interface StartedImport {
  picked: PickedCloudFile;
  file: UploadFileInfo | null;
  error: string | null;
}

type Phase =
  | { kind: 'editing' }
  | {
      kind: 'sending';
      queue: UploadQueue | null;
      failed: string | null;
      imports: StartedImport[];
      /** The files not in the queue (HeldFile), in the order picked; the same map as keptBack's. */
      held?: ReadonlyMap<File, HeldFile>;
    }
  | { kind: 'done'; notSent?: HeldFile[] };

const NO_IMPORTS: StartedImport[] = [];

/** The imports started with the submission, with the server's progress. */
function ImportRows({
  imports,
  providers,
}: {
  imports: StartedImport[];
  providers: ReturnType<typeof useCloudPickers>;
}) {
  const started = imports.flatMap((i) => (i.file ? [i.file] : []));
  const [files, update] = useImportProgress(started);
  return (
    <>
      {files.map((file) =>
        file.import ? (
          <ImportRow
            key={file.id}
            row={{ fileId: file.id, name: file.name, size: file.size, import: file.import }}
            providers={providers}
            onChange={update}
          />
        ) : null,
      )}
      {imports
        .filter((i) => i.error)
        .map((i) => (
          <li
            key={`${i.picked.provider}-${i.picked.fileId ?? i.picked.link}`}
            className="uploads-row uploads-row--failed"
          >
            <span className="uploads-file-name" title={i.picked.name}>
              {truncateFileName(i.picked.name)}
            </span>
            <span className="kit-error uploads-error">{i.error}</span>
          </li>
        ))}
    </>
  );
}

/** The first file waiting to retry a call, if any, with its name. */
function fileRetry(queue: UploadQueue | null): { notice: RetryNotice; name: string } | null {
  const file = queue?.files.find((f) => f.retrying !== null);
  return file?.retrying ? { notice: file.retrying, name: file.source.name } : null;
}

/** The time over which a send's changes are gathered into one render (10 a second reads as live). */
const PROGRESS_RENDER_GAP_MS = 100;

/**
 * A render for a burst of changes: a queue of 2,000 small files reports several changes per file, and the
 * page draws them a few times a second instead of once each (bench:portal's profile: React's renders were
 * most of the main thread's work while sending).
 */
function useCoalescedRender(): () => void {
  const [, setTick] = useState(0);
  const [render] = useState(() => coalescer(() => setTick((n) => n + 1), PROGRESS_RENDER_GAP_MS));
  useEffect(() => () => render.cancel(), [render]);
  return render.request;
}

/** Re-renders every second while `active`, for a countdown. */
function useSecondTicks(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [active]);
}

export default function UploadUtility() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const step = stepOf(hash);
  const session = useSession();
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [cloudFiles, setCloudFiles] = useState<PickedCloudFile[]>([]);
  const providers = useCloudPickers();
  const [phase, setPhase] = useState<Phase>({ kind: 'editing' });
  const [error, setError] = useState<string | null>(null);
  // Each sent submission gives a new form, as the spec's reload after send would.
  const [round, setRound] = useState(0);
  const rerender = useCoalescedRender();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [submitSignal, setSubmitSignal] = useState(0);
  // A retry of the calls made outside the files' queue: starting the submission and sending it.
  const [callRetry, setCallRetry] = useState<RetryNotice | null>(null);
  // Files of a continued submission that the server already holds whole: sent with it as they are.
  const carried = useRef<string[]>([]);
  // The files of the current send not in its queue (HeldFile), in the order picked.
  const keptBack = useRef(new Map<File, HeldFile>());
  const client = useRef(browserUploadClient());
  const notice = useRef<HTMLDivElement>(null);
  const errorText = useRef<HTMLParagraphElement>(null);
  const retryButton = useRef<HTMLButtonElement>(null);
  const sending = phase.kind === 'sending';
  const failed = phase.kind === 'sending' ? phase.failed : null;
  const retrying =
    phase.kind === 'sending' && !failed
      ? (fileRetry(phase.queue) ?? (callRetry ? { notice: callRetry, name: undefined } : null))
      : null;
  useSecondTicks(retrying !== null);

  // After a reload (or a tab closed mid-upload): the open submission the server keeps, if it has files
  // left unfinished, comes back as a draft on its own form.
  const userId = session.user?.id;
  useEffect(() => {
    if (userId === undefined) return undefined;
    const saved = savedSubmission(userId);
    if (!saved) return undefined;
    let live = true;
    client.current.getSubmission(saved.id).then(
      (submission) => {
        if (!live) return;
        const found = draftOf(submission);
        if (submission.status !== 'open') localStorage.removeItem(OPEN_SUBMISSION_KEY);
        if (!found) return;
        setDraft(found);
        void navigate({ hash: `#${submission.formType}` }, { replace: true });
      },
      (caught: unknown) => {
        // Gone (cleaned up, or another account's): nothing to continue.
        if ((caught as { status?: number }).status === 404) localStorage.removeItem(OPEN_SUBMISSION_KEY);
      },
    );
    return () => {
      live = false;
    };
  }, [userId, navigate]);

  // SPEC §4: a message that blocks leaving while the files are being sent.
  useEffect(() => {
    if (!sending) return undefined;
    const guard = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [sending]);

  // Submit sits at the foot of the form: without this the progress and the thank-you appear above the
  // screen (on a phone only the contact panel shows) and the focus falls to the page's body.
  const attention = phase.kind === 'done' ? 'done' : sending ? (failed ? 'failed' : 'sending') : null;
  useLayoutEffect(() => {
    if (attention === 'failed') {
      retryButton.current?.focus();
      return;
    }
    if (attention === null || !notice.current) return;
    notice.current.scrollIntoView({ block: 'start' });
    notice.current.focus({ preventScroll: true });
  }, [attention]);
  useLayoutEffect(() => {
    if (!error || !errorText.current) return;
    errorText.current.scrollIntoView({ block: 'nearest' });
    errorText.current.focus({ preventScroll: true });
  }, [error]);

  const go = (next: string) => {
    setError(null);
    void navigate({ hash: next });
  };

  /** SPEC §4, §8: a 403 destroys the session and the login form returns (401 likewise, with the notice). */
  const sessionLost = useCallback(
    async (status: number) => {
      if (status === 401) session.showNotice(SESSION_EXPIRED);
      await session.signOut();
    },
    [session],
  );

  async function send(fields: SubmissionFields, applied: AppliedSpec | null) {
    const user = session.user;
    if (!user) return;
    setError(null);
    setCallRetry(null);
    setPhase({ kind: 'sending', queue: null, failed: null, imports: NO_IMPORTS });
    const api = client.current;
    let submissionId: string;
    try {
      const resumeId = rememberedSubmission(user.id, fields.form_type);
      const submission = await api.createSubmission(
        { ...fields, ...(resumeId ? { resume_id: resumeId } : {}) },
        setCallRetry,
      );
      setCallRetry(null);
      submissionId = submission.id;
      carried.current = draft?.submission.id === submission.id ? draft.carried.map((f) => f.id) : [];
      setDraft(null);
      localStorage.setItem(
        OPEN_SUBMISSION_KEY,
        JSON.stringify({
          id: submission.id,
          userId: user.id,
          formType: fields.form_type,
        } satisfies OpenSubmission),
      );
    } catch (caught) {
      const status = (caught as { status?: number }).status ?? 0;
      setPhase({ kind: 'editing' });
      if (status === 401 || status === 403) {
        await sessionLost(status);
        return;
      }
      // An event whose deadline has passed meanwhile (#30): the server's sentence, and the list of open
      // events asked for again. Otherwise SPEC §8's text for a failed start.
      if ((caught as { code?: string }).code === 'uploads_closed') {
        setError((caught as Error).message);
        void queryClient.invalidateQueries({ queryKey: ['upload-events'] });
        return;
      }
      setError(SESSION_EXPIRED);
      return;
    }
    // The server fetches cloud files itself: each is started here, and goes on if the page is closed.
    const imports: StartedImport[] = [];
    for (const picked of cloudFiles) {
      try {
        imports.push({ picked, file: await startCloudImport(submissionId, picked), error: null });
      } catch (caught) {
        const status = (caught as { status?: number }).status ?? 0;
        if (status === 401) {
          setPhase({ kind: 'editing' });
          await sessionLost(status);
          return;
        }
        imports.push({ picked, file: null, error: errorMessage(caught) });
      }
    }
    const queue = api.queue(submissionId, { onChange: rerender });
    // Under an event's spec each file joins the queue once its facts are read (at once when the form
    // already read them), with those facts for the server; reading one never holds up the others, and
    // one the spec blocks stays out. Without a spec nothing waits: the facts go along if already read.
    const spec = applied?.spec ?? null;
    const held = new Map(
      files.map((file) => [file, { file, blocked: null, waiting: spec === null } as HeldFile]),
    );
    keptBack.current = held;
    const join = async (file: File) => {
      const read = spec === null ? factsIfRead(file) : await readFileFacts(file);
      const check = checkMediaFacts(spec, read?.facts ?? null);
      if (check.verdict === 'block') held.set(file, { file, blocked: check.issues });
      else {
        held.delete(file);
        queue.add({ ...fileSource(file), ...(read ? { facts: read.facts } : {}) });
      }
      rerender();
    };
    setPhase({ kind: 'sending', queue, failed: null, imports, held });
    // The files join the queue a slice at a time: 2,000 at once were one task of a third of a second.
    const joined: Promise<void>[] = [];
    await eachInSlices(files, (file) => joined.push(join(file)));
    await Promise.all(joined);
    await finish(queue, imports);
  }

  async function finish(queue: UploadQueue, imports: StartedImport[]) {
    const outcomes = await queue.settled();
    const lost = outcomes.find(
      (o) => o.state === 'failed' && (o.error.status === 401 || o.error.status === 403),
    );
    if (lost && lost.state === 'failed') {
      setPhase({ kind: 'editing' });
      await sessionLost(lost.error.status);
      return;
    }
    if (outcomes.some((o) => o.state === 'failed')) {
      setPhase({ kind: 'sending', queue, failed: UPLOAD_CHUNK_FAILED, imports, held: keptBack.current });
      return;
    }
    // Imports need not be finished: the server completes them and then tells staff.
    const done = [
      ...queue.files.filter((f) => f.state === 'complete').map((f) => f.fileId!),
      ...imports.flatMap((i) => (i.file ? [i.file.id] : [])),
      ...carried.current,
    ];
    if (done.length === 0) {
      const refused = imports.find((i) => i.error)?.error;
      if (refused) {
        setPhase({ kind: 'sending', queue, failed: refused, imports, held: keptBack.current });
        return;
      }
      // Every file kept back by its event's spec: they stay chosen, and the form says why.
      const blocked = [...keptBack.current.values()].filter((h) => h.blocked !== null);
      if (blocked.length > 0) {
        setPhase({ kind: 'editing' });
        setError(blocked.map((h) => notSentText(h.file.name, h.blocked ?? [])).join(' '));
        return;
      }
      setFiles([]);
      setCloudFiles([]);
      setPhase({ kind: 'editing' });
      setError(UPLOAD_FILE_REQUIRED);
      return;
    }
    try {
      await client.current.submit(queue.submissionId, done, setCallRetry);
      setCallRetry(null);
    } catch (caught) {
      setCallRetry(null);
      const status = (caught as { status?: number }).status ?? 0;
      if (status === 401 || status === 403) {
        setPhase({ kind: 'editing' });
        await sessionLost(status);
        return;
      }
      setPhase({ kind: 'sending', queue, failed: UPLOAD_CHUNK_FAILED, imports, held: keptBack.current });
      return;
    }
    localStorage.removeItem(OPEN_SUBMISSION_KEY);
    carried.current = [];
    setFiles([]);
    setCloudFiles([]);
    setRound((n) => n + 1);
    // A file whose reading ended after Submit with a mismatch its event blocks was kept back: said here.
    setPhase({ kind: 'done', notSent: [...keptBack.current.values()].filter((h) => h.blocked !== null) });
  }

  /**
   * Forgets the open submission: the next Submit starts a new one. Its unfinished files are removed on
   * the server at once, so that their bytes stop counting against the client's quota.
   */
  function startOver() {
    for (const file of draft?.pending ?? []) void client.current.removeFile(file.id).catch(() => undefined);
    localStorage.removeItem(OPEN_SUBMISSION_KEY);
    setDraft(null);
    setFiles([]);
    setRound((n) => n + 1);
  }

  function retry(queue: UploadQueue, imports: StartedImport[]) {
    setPhase({ kind: 'sending', queue, failed: null, imports, held: keptBack.current });
    for (const file of queue.files) if (file.state === 'failed') file.resume();
    void finish(queue, imports);
  }

  const queue = phase.kind === 'sending' ? phase.queue : null;
  const imports = phase.kind === 'sending' ? phase.imports : NO_IMPORTS;
  const held = phase.kind === 'sending' && phase.held ? [...phase.held.values()] : [];
  return (
    <section className="uploads-utility" aria-label="File upload">
      {/* One live region for the whole flow, so that each change of its text is announced. */}
      <div ref={notice} className="uploads-notice" role="status" tabIndex={-1}>
        {sending && !failed ? <p className="uploads-warning">{DO_NOT_CLOSE}</p> : null}
        {phase.kind === 'done' ? <p className="uploads-success">{UPLOAD_SUCCESS}</p> : null}
        {phase.kind === 'done'
          ? phase.notSent?.map(({ file, blocked }) => (
              <p key={`${file.name}-${file.size}-${file.lastModified}`} className="kit-error uploads-error">
                {notSentText(file.name, blocked ?? [])}
              </p>
            ))
          : null}
      </div>
      {failed ? (
        <p className="kit-error uploads-error" role="alert">
          {failed}
        </p>
      ) : null}
      {error ? (
        <p ref={errorText} className="kit-error uploads-error" role="alert" tabIndex={-1}>
          {error}
        </p>
      ) : null}
      {sending ? (
        <div className="uploads-sending" role="group" aria-label="Sending files">
          {queue ? (
            <>
              {queue.files.length > 0 ? (
                <ProgressLine progress={queue.progress()} label="Overall progress" />
              ) : null}
              <SendingList queue={queue} held={held} />
              {imports.length > 0 ? (
                <ul className="uploads-rows" aria-label="Files from cloud accounts">
                  <ImportRows imports={imports} providers={providers} />
                </ul>
              ) : null}
              {failed ? (
                <Button ref={retryButton} variant="primary" onPress={() => retry(queue, imports)}>
                  Retry
                </Button>
              ) : null}
            </>
          ) : null}
          {/* Under the files, so that their Pause and Remove buttons do not move as it comes and goes. */}
          <p className="uploads-retrying" aria-live="polite">
            {retrying ? retryingText(retrying.notice, Date.now(), retrying.name) : null}
          </p>
        </div>
      ) : null}
      {!sending && draft && step === draft.submission.formType ? (
        <div className="uploads-continue" role="status">
          {draft.pending.map((file) => (
            <p key={file.id}>{canContinueText(file)}</p>
          ))}
          {draft.carried.length > 0 ? (
            <p>
              Already received: {draft.carried.map((f) => `${f.name} (${formatBytes(f.size)})`).join(', ')}.
            </p>
          ) : null}
          <Button variant="secondary" dense onPress={startOver}>
            Start over
          </Button>
        </div>
      ) : null}
      {!sending && step === 'choose' ? (
        <div className="uploads-choice" role="group" aria-label="What are you uploading?">
          <h2>What are you uploading?</h2>
          <Button variant="primary" onPress={() => go('#creative')}>
            Creative Asset
          </Button>
          <Button variant="primary" onPress={() => go('#eventForm')}>
            Event Asset
          </Button>
        </div>
      ) : null}
      {!sending && step === 'eventForm' ? (
        <div className="uploads-choice" role="group" aria-label="Which event upload?">
          <h2>Event upload</h2>
          <Button variant="primary" onPress={() => go('#event')}>
            Event Asset
          </Button>
          <Button variant="primary" onPress={() => go('#sponsor')}>
            Sponsor Commercial
          </Button>
        </div>
      ) : null}
      {!sending && (step === 'creative' || step === 'event' || step === 'sponsor') ? (
        <UploadForm
          key={`${step}-${round}-${draft?.submission.id ?? ''}`}
          formType={step}
          files={files}
          initialValues={
            draft && draft.submission.formType === step
              ? fromSubmissionFields(step, draft.submission.fields)
              : undefined
          }
          submitSignal={submitSignal}
          onFilesChange={(next) => {
            setFiles(next);
            if (phase.kind === 'done') setPhase({ kind: 'editing' });
            // The files left unfinished are back: the upload goes on at once, from the parts the server lacks.
            if (draft && draft.submission.formType === step && allChosenAgain(draft, next)) {
              setSubmitSignal((n) => n + 1);
            }
          }}
          cloud={
            providers.length > 0
              ? {
                  providers,
                  files: cloudFiles,
                  onChange: (next) => {
                    setCloudFiles(next);
                    if (phase.kind === 'done') setPhase({ kind: 'editing' });
                  },
                }
              : undefined
          }
          onSubmit={(fields, applied) => void send(fields, applied)}
        />
      ) : null}
      {!sending ? <CloudImportsPanel refreshKey={round} /> : null}
    </section>
  );
}
