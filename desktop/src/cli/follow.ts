import { formatBytes, formatSpeed, formatTimeLeft } from '@avp/shared';
import type { EngineEvent, UploadEngine } from '../engine/engine.js';
import { EXIT } from './errors.js';
import { interrupted, signalStop } from './interrupt.js';
import type { Io } from './io.js';

/**
 * Follows the engine until idle, reporting progress: a line redrawn on a terminal (at most 5 times a
 * second), else JSON lines (once a second). Resolves with the exit code the outcome calls for.
 */
export async function follow(engine: UploadEngine, o: Io, begin: () => Promise<void>): Promise<number> {
  const failures: { file: string | null; message: string; code: string }[] = [];
  let unauthorized = false;
  let last = 0;
  const tty = !o.json && process.stdout.isTTY;
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
      const current = jobs.flatMap((j) => j.files).find((f) => f.state === 'uploading' && !f.cloud);
      const line = `${String(o2.percent).padStart(3)}%  ${formatBytes(o2.sentBytes)} / ${formatBytes(o2.totalBytes)}  ${formatSpeed(o2.bytesPerSecond)}  ${formatTimeLeft(o2.secondsLeft)}  ${current ? current.name.slice(0, 24) : ''}`;
      process.stdout.write(`\r\x1b[K${line}`);
    }
  };
  const off = engine.on((event: EngineEvent) => {
    if (event.type === 'change') progress();
    else if (event.type === 'unauthorized') unauthorized = true;
    else if (event.type === 'failed') {
      const job = engine.snapshot().jobs.find((j) => j.id === event.jobId);
      const file = job?.files.find((f) => f.name === event.file);
      failures.push({
        file: event.file,
        message: event.message,
        code: file?.error?.code ?? job?.error?.code ?? 'failed',
      });
      if (o.json)
        o.event({
          event: 'failed',
          submissionId: job?.submissionId,
          file: event.file,
          code: file?.error?.code,
          message: event.message,
        });
      else o.err(`${tty ? '\n' : ''}Failed${event.file ? ` (${event.file})` : ''}: ${event.message}`);
    } else if (event.type === 'submitted') {
      if (o.json) o.event({ event: 'submitted', ...event.entry });
      else {
        if (tty) process.stdout.write('\n');
        o.out(`Sent submission ${event.entry.submissionId}:`);
        for (const f of event.entry.files) o.out(`  ${f.name}  ${formatBytes(f.size)}  sha-256 ${f.sha256}`);
      }
    }
  });
  await begin();
  let code = await Promise.race([engine.whenIdle().then(() => -1), interrupted]);
  const stopping = signalStop();
  if (stopping) {
    await stopping;
    code = EXIT.interrupted;
  }
  if (code === EXIT.interrupted && !o.json)
    o.err('\nStopped; the queue is saved. Run `av-upload resume` to continue.');
  off();
  if (code !== -1) return code;
  progress(true);
  if (tty) process.stdout.write('\n');
  await engine.stop();
  const errors = engine
    .snapshot()
    .jobs.flatMap((j) => [j.error?.code, ...j.files.map((f) => f.error?.code)])
    .concat(failures.map((f) => f.code));
  if (unauthorized || errors.includes('unauthenticated')) return EXIT.auth;
  if (errors.includes('file_changed')) return EXIT.fileChanged;
  if (errors.includes('network')) return EXIT.network;
  return errors.some((e) => e !== undefined) ? EXIT.uploadFailed : EXIT.ok;
}
