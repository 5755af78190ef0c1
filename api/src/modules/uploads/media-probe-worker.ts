import { parentPort, threadId } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { readMediaFacts } from '@avp/shared/media-reader';
import type { ProbeAnswer, ProbeJob, ProbeReply } from './media-probe-workers.js';

/**
 * The entry of a media-probe worker thread (media-probe-workers.ts starts it): runs mediainfo.js's
 * WebAssembly here, off the server's event loop, one file at a time. It holds no storage, credentials or
 * budget of its own: every range it wants is asked of the main thread over the job's port, which answers
 * with the bytes (transferred, not copied).
 */

function rangesOver(port: MessagePort) {
  let seq = 0;
  const pending = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  port.on('message', (answer: ProbeAnswer) => {
    const waiter = pending.get(answer.seq);
    if (!waiter) return;
    pending.delete(answer.seq);
    if (answer.bytes) waiter.resolve(answer.bytes);
    else waiter.reject(new Error(answer.error ?? 'the range could not be read'));
  });
  return (offset: number, length: number) =>
    new Promise<Uint8Array>((resolve, reject) => {
      seq += 1;
      pending.set(seq, { resolve, reject });
      port.postMessage({ type: 'range', seq, offset, length } satisfies ProbeReply);
    });
}

parentPort?.on('message', (job: ProbeJob) => {
  const { port } = job;
  readMediaFacts({ size: job.size, readChunk: rangesOver(port), timeoutMs: job.timeoutMs })
    .then((result) => port.postMessage({ type: 'done', result, threadId } satisfies ProbeReply))
    .catch((error: unknown) =>
      port.postMessage({ type: 'failed', message: String(error), threadId } satisfies ProbeReply),
    )
    .finally(() => port.close());
});
