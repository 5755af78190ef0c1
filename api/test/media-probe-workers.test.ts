import { readFile } from 'node:fs/promises';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ProbeTimedOut,
  ProbeWorkerPool,
  spawnProbeWorker,
} from '../src/modules/uploads/media-probe-workers.js';

/**
 * The media-facts reader's worker threads (media-probe-workers.ts): mediainfo.js parses in another thread
 * while this one keeps answering; a read that hangs is ended by terminating its worker, a worker that
 * crashes fails only its file, and the next read gets a fresh worker; idle workers exit.
 */

const FIXTURE = fileURLToPath(
  new URL('../../test/fixtures/media/h264-1920x1080-29.97-aac-faststart.mp4', import.meta.url),
);

const pools: ProbeWorkerPool[] = [];
afterEach(async () => {
  while (pools.length) await pools.pop()!.close();
});
function pool(options: ConstructorParameters<typeof ProbeWorkerPool>[0]) {
  const made = new ProbeWorkerPool(options);
  pools.push(made);
  return made;
}

const chunksOf = (bytes: Buffer) => async (offset: number, length: number) =>
  new Uint8Array(bytes.subarray(offset, offset + length));

/** Workers standing in for a parse that never ends and for one that crashes. */
const spinning = () =>
  new Worker("require('node:worker_threads').parentPort.on('message', () => { for (;;) {} });", {
    eval: true,
  });
const crashing = () =>
  new Worker("require('node:worker_threads').parentPort.on('message', () => { throw new Error('boom'); });", {
    eval: true,
  });

function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

describe('media facts read in worker threads', () => {
  it('parses in another thread while this one keeps answering HTTP requests', async () => {
    const bytes = await readFile(FIXTURE);
    const server = createServer((_req, res) => res.end('here'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      // The read is held open at its second range until this thread has answered a request.
      let reads = 0;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let firstAsked!: () => void;
      const asked = new Promise<void>((r) => (firstAsked = r));
      const probe = pool({ max: 1 }).read({
        size: bytes.length,
        timeoutMs: 30_000,
        readChunk: async (offset, length) => {
          reads += 1;
          if (reads === 2) {
            firstAsked();
            await held;
          }
          return chunksOf(bytes)(offset, length);
        },
      });
      await asked;
      expect(await httpGet(url)).toBe('here');
      release();
      const result = await probe;
      expect(result.threadId).not.toBe(threadId);
      expect(result.facts).toMatchObject({ width: 1920, height: 1080, videoCodec: 'H.264' });
      expect(result.bytesRead).toBeGreaterThan(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('terminates a read that outlives its time, and the next read gets a fresh worker', async () => {
    const bytes = await readFile(FIXTURE);
    const spawned: Worker[] = [];
    const exits: Array<Promise<number>> = [];
    const spawns = [spinning, spawnProbeWorker];
    const workers = pool({
      max: 1,
      spawn: () => {
        const worker = spawns.shift()!();
        spawned.push(worker);
        exits.push(new Promise((r) => worker.once('exit', r)));
        return worker;
      },
    });
    const hung = workers.read({ size: bytes.length, readChunk: chunksOf(bytes), timeoutMs: 500 });
    await expect(hung).rejects.toBeInstanceOf(ProbeTimedOut);
    // The spinning thread really ended: terminate() is the only thing that stops it.
    // 1: terminated (a thread that ended by itself exits 0); nothing else would stop the loop.
    expect(await exits[0]).toBe(1);
    expect(workers.size).toBe(0);

    const next = await workers.read({ size: bytes.length, readChunk: chunksOf(bytes), timeoutMs: 30_000 });
    expect(next.facts).toMatchObject({ width: 1920, height: 1080 });
    expect(spawned).toHaveLength(2);
  });

  it('ends a read whose ranges never come at its time', async () => {
    const workers = pool({ max: 1 });
    const never = workers.read({
      size: 10_000_000,
      readChunk: () => new Promise<Uint8Array>(() => undefined),
      timeoutMs: 1_000,
    });
    await expect(never).rejects.toBeInstanceOf(ProbeTimedOut);
    await vi.waitFor(() => expect(workers.size).toBe(0));
  });

  it('fails only the file a crashing worker was reading', async () => {
    const bytes = await readFile(FIXTURE);
    const spawns = [crashing, spawnProbeWorker];
    const workers = pool({ max: 1, spawn: () => spawns.shift()!() });
    await expect(
      workers.read({ size: bytes.length, readChunk: chunksOf(bytes), timeoutMs: 30_000 }),
    ).rejects.toThrow('boom');
    const next = await workers.read({ size: bytes.length, readChunk: chunksOf(bytes), timeoutMs: 30_000 });
    expect(next.facts).toMatchObject({ width: 1920 });
  });

  it('answers a range it cannot read as a failed read, and keeps the worker', async () => {
    const bytes = await readFile(FIXTURE);
    const workers = pool({ max: 1 });
    const failed = await workers.read({
      size: bytes.length,
      readChunk: () => Promise.reject(new Error('gone')),
      timeoutMs: 30_000,
    });
    expect(failed.facts).toBeNull();
    expect(workers.size).toBe(1);
  });

  it('runs at most max reads at once and lets idle workers exit', async () => {
    const bytes = await readFile(FIXTURE);
    const workers = pool({ max: 2, idleMs: 200 });
    const threads = new Set<number>();
    const results = await Promise.all(
      [0, 1, 2, 3].map(() =>
        workers
          .read({
            size: bytes.length,
            timeoutMs: 30_000,
            readChunk: async (offset, length) => {
              expect(workers.size).toBeLessThanOrEqual(2);
              return chunksOf(bytes)(offset, length);
            },
          })
          .then((r) => (threads.add(r.threadId), r)),
      ),
    );
    expect(results.every((r) => r.facts?.width === 1920)).toBe(true);
    expect(threads.size).toBeLessThanOrEqual(2);
    await vi.waitFor(() => expect(workers.size).toBe(0), { timeout: 5_000 });
  });
});
