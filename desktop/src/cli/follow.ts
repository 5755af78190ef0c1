import { formatBytes, formatSpeed, formatTimeLeft, UPLOAD_CHUNK_FAILED } from '@avp/shared';
import type { EngineEvent, UploadEngine } from '../engine/engine.js';
import { describeDuration } from './duration.js';
import { CliError, EXIT } from './errors.js';
import { interrupted, signalStop } from './interrupt.js';
import type { Io } from './io.js';
import { announceConnection } from './retry-lines.js';

export interface FollowOptions {
  home: string;
  /** The server's address, as the last words name it. */
  server: string;
  command: string;
  /** The bounded run's give-up time, for the last words when the server never answered. */
  giveUpAfterMs?: number;
}

/**
 * Follows the engine until idle, reporting progress: a line redrawn on a terminal (at most 5 times a
 * second), else JSON lines (once a second); every retry said as it is scheduled. Resolves with 0 or 130,
 * or throws the CliError the outcome calls for, its message naming the cause: the server unreachable (6),
 * the sign-in refused (3), the server's own refusal (4), a file changed on disk (5).
 */
export async function follow(
  engine: UploadEngine,
  o: Io,
  begin: () => Promise<void>,
  options: FollowOptions,
): Promise<number> {
  const failures: { file: string | null; message: string; code: string }[] = [];
  let unauthorized = false;
  let last = 0;
  const tty = !o.json && process.stdout.isTTY;
  /** Whether a progress line is on screen (so it is cleared before another line, and ended at the end). */
  let drawn = false;
  const clearLine = () => {
    if (drawn) process.stdout.write('\r\x1b[K');
    drawn = false;
  };
  const progress = (force = false) => {
    const now = Date.now();
    if (!force && now - last < (tty ? 200 : 1000)) return;
    last = now;
    const snap = engine.snapshot();
    const jobs = snap.jobs;
    if (o.json) {
      for (const job of jobs) {
        o.event({
          event: 'progress',
          submissionId: job.submissionId,
          state: job.state,
          percent: job.progress.percent,
          sentBytes: job.progress.sentBytes,
          totalBytes: job.progress.totalBytes,
          bytesPerSecond: Math.round(job.progress.bytesPerSecond),
          secondsLeft: job.progress.secondsLeft,
          files: job.files.map((f) => ({
            name: f.name,
            state: f.state,
            percent: f.progress.percent,
            ...(f.cloud ? { cloud: f.cloud } : {}),
          })),
        });
      }
    } else if (tty) {
      const o2 = snap.overall;
      // Nothing left to send (the submission just went, say): no "100%  0 B / 0 B" line.
      if (o2.totalBytes === 0 || !jobs.some((j) => j.state !== 'failed')) return clearLine();
      const current = jobs.flatMap((j) => j.files).find((f) => f.state === 'uploading' && !f.cloud);
      const line = `${String(o2.percent).padStart(3)}%  ${formatBytes(o2.sentBytes)} / ${formatBytes(o2.totalBytes)}  ${formatSpeed(o2.bytesPerSecond)}  ${formatTimeLeft(o2.secondsLeft)}  ${current ? current.name.slice(0, 24) : ''}`;
      process.stdout.write(`\r\x1b[K${line}`);
      drawn = true;
    }
  };
  const connection = announceConnection(engine, o, options.home, options.command, clearLine);
  /** What the latest retry was about: the cause behind a failure that only says it failed. */
  let lastCause: string | null = null;
  const off = engine.on((event: EngineEvent) => {
    if (event.type === 'retry') lastCause = event.message;
    else if (event.type === 'change') progress();
    else if (event.type === 'unauthorized') unauthorized = true;
    else if (event.type === 'registered') {
      if (o.json) o.event({ event: 'registered', submissionId: event.submissionId });
    } else if (event.type === 'failed') {
      const job = engine.snapshot().jobs.find((j) => j.id === event.jobId);
      const file = job?.files.find((f) => f.name === event.file);
      const code = (event.file ? file?.error?.code : job?.error?.code) ?? 'failed';
      // The spec's chunk text names no cause: never printed without one.
      const message =
        event.message === UPLOAD_CHUNK_FAILED && lastCause
          ? `${event.message} (${lastCause})`
          : event.message;
      failures.push({ file: event.file, message, code });
      if (o.json)
        o.event({
          event: 'failed',
          submissionId: job?.submissionId,
          file: event.file,
          code,
          message,
        });
      else {
        clearLine();
        o.err(`Failed${event.file ? ` (${event.file})` : ''}: ${message}`);
      }
    } else if (event.type === 'submitted') {
      if (o.json) o.event({ event: 'submitted', ...event.entry });
      else {
        clearLine();
        o.out(`Sent submission ${event.entry.submissionId}:`);
        for (const f of event.entry.files) o.out(`  ${f.name}  ${formatBytes(f.size)}  sha-256 ${f.sha256}`);
      }
    }
  });
  // The engine's timers (a retry's wait, say) do not hold a process open on their own: this one does.
  const alive = setInterval(() => undefined, 60_000);
  try {
    await begin();
    let code = await Promise.race([engine.whenIdle().then(() => -1), interrupted]);
    const stopping = signalStop();
    if (stopping) {
      await stopping;
      code = EXIT.interrupted;
    }
    if (code === EXIT.interrupted) {
      clearLine();
      if (!o.json) o.err('Stopped; the queue is saved. Run `av-upload resume` to continue.');
      return code;
    }
    progress(true);
    clearLine();
    const waiting = connection.lastWaiting() ?? waitingOf(engine);
    const since = connection.silentSince();
    await engine.stop();
    return outcome(
      engine,
      failures,
      unauthorized,
      waiting,
      since === null ? null : Date.now() - since,
      options,
    );
  } finally {
    clearInterval(alive);
    off();
    connection.off();
  }
}

function waitingOf(engine: UploadEngine) {
  const c = engine.snapshot().connection;
  return c.state === 'waiting' ? c : null;
}

/** The exit code for how the run ended, with its cause in words (thrown as a CliError). */
function outcome(
  engine: UploadEngine,
  failures: { file: string | null; message: string; code: string }[],
  unauthorized: boolean,
  waiting: ReturnType<typeof waitingOf>,
  silentMs: number | null,
  options: FollowOptions,
): number {
  const snap = engine.snapshot();
  const errors = [...failures, ...snap.jobs.flatMap((j) => [j.error, ...j.files.map((f) => f.error)])].filter(
    (e): e is { code: string; message: string } => e !== null && e !== undefined,
  );
  const has = (...codes: string[]) => errors.find((e) => codes.includes(e.code));
  const auth = has('auth', 'unauthenticated');
  if (unauthorized || auth)
    throw new CliError(
      EXIT.auth,
      `The server refused the sign-in: ${auth?.message ?? 'the session has ended.'} Run \`av-upload login\`, then \`av-upload resume\`.`,
    );
  const changed = has('file_changed');
  if (changed) throw new CliError(EXIT.fileChanged, changed.message);
  // How long it really was: from the first retry said to the end.
  const silent = silentMs ?? options.giveUpAfterMs;
  const after = silent === undefined ? '' : ` for ${describeDuration(silent)}`;
  const unreachable = has('unreachable', 'network');
  if (unreachable) {
    const server = waiting?.server ?? options.server;
    throw new CliError(
      EXIT.network,
      `Server unreachable at ${server}: no answer${after}. ${waiting?.message ?? unreachable.message} ` +
        'The job is saved: run `av-upload resume` when the server answers.',
    );
  }
  const failing = has('server_error');
  if (failing)
    throw new CliError(
      EXIT.uploadFailed,
      `The server kept failing${after}: ${failing.message} The job is saved: run \`av-upload resume\` later.`,
    );
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new CliError(
      EXIT.uploadFailed,
      `The server refused the upload: ${first.message} Run \`av-upload resume\` to try again once it is fixed.`,
    );
  }
  return EXIT.ok;
}
