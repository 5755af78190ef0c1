import { Sha256 } from '@avp/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  blobReader,
  browserHasher,
  hashWorker,
  IDLE_HASH_WORKERS,
  RangeHasher,
  WorkerHasher,
  type FileHasher,
  type HashPort,
  type HashReply,
  type HashRequest,
  type ReadRange,
} from './hashing';
import { fileSource } from './transport';

/** Bytes 0..size-1 of a made-up file (not all zeros, so a wrong order or offset changes the hash). */
function bytesOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

function sha(bytes: Uint8Array): string {
  const hasher = new Sha256();
  hasher.update(bytes);
  return hasher.digest();
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Reads from memory, each read answered after `delay(start)` ms; counts reads under way at once. */
function memoryReader(bytes: Uint8Array, delay: (start: number) => number = () => 0) {
  const stats = { reads: [] as number[], atOnce: 0, maxAtOnce: 0 };
  const read: ReadRange = async (start, end) => {
    stats.reads.push(start);
    stats.atOnce++;
    stats.maxAtOnce = Math.max(stats.maxAtOnce, stats.atOnce);
    await new Promise((resolve) => setTimeout(resolve, delay(start)));
    stats.atOnce--;
    return bytes.slice(start, end);
  };
  return { read, stats };
}

/**
 * A worker in this process: the page's messages reach `hashWorker` and its answers come back each on a
 * later task, in order, as postMessage delivers them. `broken()` plays a worker that failed to load.
 */
function inProcessWorker(reader: (file: Blob) => ReadRange) {
  const state = { requests: [] as HashRequest[], terminated: 0 };
  let reply: (r: HashReply) => void = () => undefined;
  let broken: () => void = () => undefined;
  const alive = () => state.terminated === 0;
  const handle = hashWorker((r) => setTimeout(() => alive() && reply(r), 0), reader);
  const port: HashPort = {
    post: (request) => {
      state.requests.push(request);
      setTimeout(() => alive() && handle(request), 0);
    },
    listen: (onReply, onBroken) => {
      reply = onReply;
      broken = onBroken;
    },
    terminate: () => void state.terminated++,
  };
  return { port, state, breakDown: () => broken() };
}

/** The upload client's way of feeding a hasher: every part of the file in order, from the first. */
function feed(hasher: { update(data: Uint8Array): void }, bytes: Uint8Array, part: number, from = 0) {
  for (let start = from; start < bytes.length; start += part) {
    hasher.update(bytes.subarray(start, Math.min(start + part, bytes.length)));
  }
}

describe('RangeHasher (the worker’s queue)', () => {
  it('hashes the ranges in the order they were added, one read at a time, even when later reads would be quicker', async () => {
    const bytes = bytesOf(10_000);
    // The first ranges are the slowest to read: a hasher that read ahead would finish them last.
    const { read, stats } = memoryReader(bytes, (start) => (start < 3000 ? 15 : 0));
    const hasher = new RangeHasher(read);
    for (let start = 0; start < bytes.length; start += 1000) hasher.add(start, start + 1000);
    expect(await hasher.digest()).toBe(sha(bytes));
    expect(stats.reads).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000]);
    expect(stats.maxAtOnce).toBe(1);
  });

  it('fails the digest on a failed or a short read, and reads nothing after it', async () => {
    const bytes = bytesOf(3000);
    const { read, stats } = memoryReader(bytes);
    let calls = 0;
    const failing = new RangeHasher(async (start, end) => {
      calls++;
      if (start === 1000) throw new Error('NotReadableError: the file changed on disk');
      return read(start, end);
    });
    failing.add(0, 1000);
    failing.add(1000, 2000);
    failing.add(2000, 3000);
    await expect(failing.digest()).rejects.toThrow('NotReadableError');
    expect(calls).toBe(2);
    expect(stats.reads).toEqual([0]);

    const short = new RangeHasher(async () => new Uint8Array(3));
    short.add(0, 10);
    await expect(short.digest()).rejects.toThrow('The file changed while it was being sent.');
    const thrower = new RangeHasher(() => Promise.reject('plain'));
    thrower.add(0, 1);
    await expect(thrower.digest()).rejects.toThrow('plain');
  });

  it('refuses use after digest', async () => {
    const hasher = new RangeHasher(memoryReader(bytesOf(1)).read);
    expect(await hasher.digest()).toBe(sha(new Uint8Array(0)));
    expect(() => hasher.add(0, 1)).toThrow(/after digest/);
    await expect(hasher.digest()).rejects.toThrow(/twice/);
  });

  it('reads a Blob', async () => {
    const bytes = bytesOf(5000);
    const read = blobReader(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    expect(await read(1000, 1010)).toEqual(bytes.slice(1000, 1010));
  });
});

describe('hashWorker (the worker’s side of the protocol)', () => {
  it('answers the digest of the ranges of the file it was sent', async () => {
    const bytes = bytesOf(4000);
    const replies: HashReply[] = [];
    const handle = hashWorker(
      (reply) => replies.push(reply),
      () => memoryReader(bytes).read,
    );
    handle({ type: 'file', file: new Blob([]) });
    handle({ type: 'range', start: 0, end: 2500 });
    handle({ type: 'range', start: 2500, end: 4000 });
    handle({ type: 'digest' });
    await vi.waitFor(() => expect(replies).toHaveLength(1));
    expect(replies).toEqual([{ type: 'digest', hex: sha(bytes) }]);
  });

  it('answers an error for a failed read, and for ranges with no file', async () => {
    const replies: HashReply[] = [];
    const broken = hashWorker(
      (reply) => replies.push(reply),
      () => () => Promise.reject(new Error('gone')),
    );
    broken({ type: 'file', file: new Blob([]) });
    broken({ type: 'range', start: 0, end: 5 });
    broken({ type: 'digest' });
    const lost = hashWorker((reply) => replies.push(reply));
    lost({ type: 'range', start: 0, end: 5 });
    lost({ type: 'digest' });
    hashWorker((reply) => replies.push(reply))({ type: 'digest' });
    await vi.waitFor(() => expect(replies).toHaveLength(3));
    expect(replies).toEqual([
      { type: 'error', message: 'A range came before the file.' },
      { type: 'error', message: 'No file to hash.' },
      { type: 'error', message: 'gone' },
    ]);
  });
});

describe('WorkerHasher (the page’s side)', () => {
  it('sends the file once and then ranges only, never the bytes, and gets the sha-256 of the whole file', async () => {
    const bytes = bytesOf(25_000);
    const file = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    const worker = inProcessWorker(() => memoryReader(bytes, (start) => (start === 0 ? 10 : 0)).read);
    const hasher = new WorkerHasher(file, worker.port);
    feed(hasher, bytes, 6000);
    hasher.update(new Uint8Array(0));
    expect(hasher.bytes).toBe(25_000);
    expect(await hasher.digest()).toBe(sha(bytes));
    expect(worker.state.requests).toEqual([
      { type: 'file', file },
      { type: 'range', start: 0, end: 6000 },
      { type: 'range', start: 6000, end: 12_000 },
      { type: 'range', start: 12_000, end: 18_000 },
      { type: 'range', start: 18_000, end: 24_000 },
      { type: 'range', start: 24_000, end: 25_000 },
      { type: 'digest' },
    ]);
    // Ended once it has answered.
    expect(worker.state.terminated).toBe(1);
    expect(hasher.onMainThread).toBe(false);
    expect(() => hasher.update(bytes)).toThrow(/after digest/);
    await expect(hasher.digest()).rejects.toThrow(/twice/);
  });

  it('hashes a whole file read through a real Blob (blobReader), as the worker does', async () => {
    const bytes = bytesOf(70_000);
    const worker = inProcessWorker(blobReader);
    const hasher = new WorkerHasher(new Blob([bytes as Uint8Array<ArrayBuffer>]), worker.port);
    feed(hasher, bytes, 16_384);
    expect(await hasher.digest()).toBe(sha(bytes));
  });

  it('passes the worker’s failure on as a failed digest', async () => {
    const worker = inProcessWorker(() => () => Promise.reject(new Error('NotReadableError')));
    const hasher = new WorkerHasher(new Blob([]), worker.port);
    hasher.update(new Uint8Array(5));
    await expect(hasher.digest()).rejects.toThrow('NotReadableError');
    expect(worker.state.terminated).toBe(1);
  });

  it('ends the worker at once when the round is given up, backlog and all', async () => {
    const bytes = bytesOf(30_000);
    const worker = inProcessWorker(() => memoryReader(bytes, () => 5).read);
    const hasher = new WorkerHasher(new Blob([]), worker.port);
    feed(hasher, bytes, 6000);
    hasher.dispose();
    expect(worker.state.terminated).toBe(1);
    expect(() => hasher.update(bytes)).toThrow(/after digest/);
    hasher.dispose();
    expect(worker.state.terminated).toBe(1);

    // Given up while its digest is awaited (the client never does; the promise still settles).
    const second = new WorkerHasher(
      new Blob([]),
      inProcessWorker(() => memoryReader(bytes, () => 5).read).port,
    );
    feed(second, bytes, 6000);
    const digest = second.digest();
    second.dispose();
    await expect(digest).rejects.toThrow('given up');
  });

  it('hashes on the main thread, from the file, when the worker breaks before the digest', async () => {
    const bytes = bytesOf(20_000);
    const file = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    const worker = inProcessWorker(() => () => new Promise<Uint8Array>(() => undefined));
    const hasher = new WorkerHasher(file, worker.port, blobReader);
    hasher.update(bytes.subarray(0, 6000));
    hasher.update(bytes.subarray(6000, 12_000));
    worker.breakDown();
    expect(hasher.onMainThread).toBe(true);
    expect(worker.state.terminated).toBe(1);
    hasher.update(bytes.subarray(12_000));
    expect(await hasher.digest()).toBe(sha(bytes));
    // Nothing more went to the broken worker.
    expect(worker.state.requests.map((r) => r.type)).toEqual(['file', 'range', 'range']);
    worker.breakDown();
    expect(worker.state.terminated).toBe(1);
  });

  it('hashes on the main thread when the worker breaks while the digest is awaited, or before any update', async () => {
    const bytes = bytesOf(9000);
    const file = new Blob([bytes as Uint8Array<ArrayBuffer>]);
    const stuck = inProcessWorker(() => () => new Promise<Uint8Array>(() => undefined));
    const hasher = new WorkerHasher(file, stuck.port);
    feed(hasher, bytes, 4000);
    const digest = hasher.digest();
    await tick();
    stuck.breakDown();
    expect(await digest).toBe(sha(bytes));

    const early = inProcessWorker(() => () => new Promise<Uint8Array>(() => undefined));
    const empty = new WorkerHasher(file, early.port);
    early.breakDown();
    feed(empty, bytes, 4000);
    expect(await empty.digest()).toBe(sha(bytes));
  });
});

describe('browserHasher (the upload client’s createHasher)', () => {
  const bytes = bytesOf(30_000);
  const file = new File([bytes as Uint8Array<ArrayBuffer>], 'clip.mov', { type: 'video/quicktime' });
  const subtle = globalThis.crypto.subtle;

  function pool() {
    const spawned: ReturnType<typeof inProcessWorker>[] = [];
    const spawn = () => {
      const worker = inProcessWorker(blobReader);
      spawned.push(worker);
      return worker.port;
    };
    return { spawned, spawn };
  }

  it('hashes a file fed whole in one update with crypto.subtle, starting no worker', async () => {
    const { spawned, spawn } = pool();
    const create = browserHasher(spawn, subtle);
    const source = fileSource(file);
    expect(source.blob).toBe(file);
    const hasher = create(source) as FileHasher;
    hasher.update(bytes);
    expect(hasher.way).toBe('subtle');
    expect(await hasher.digest()).toBe(sha(bytes));
    const empty = create(fileSource(new File([], 'empty.txt')));
    expect(await empty.digest()).toBe(sha(new Uint8Array(0)));
    expect(spawned).toHaveLength(0);
  });

  it('hashes a file fed part by part in a worker, and reuses the workers that answered for the next files', async () => {
    const { spawned, spawn } = pool();
    const create = browserHasher(spawn, subtle);
    for (let round = 0; round < 5; round++) {
      const hasher = create(fileSource(file)) as FileHasher;
      feed(hasher, bytes, 7000);
      expect(hasher.way).toBe('worker');
      expect(await hasher.digest()).toBe(sha(bytes));
    }
    expect(spawned).toHaveLength(1);
    expect(spawned[0]!.state.terminated).toBe(0);
    expect(spawned[0]!.state.requests.filter((r) => r.type === 'file')).toHaveLength(5);

    // Several at once start a worker each; no more than IDLE_HASH_WORKERS are kept once they answered.
    const many = Array.from({ length: 4 }, () => create(fileSource(file)));
    for (const hasher of many) feed(hasher, bytes, 7000);
    expect(spawned).toHaveLength(4);
    expect(await Promise.all(many.map((h) => h.digest()))).toEqual(many.map(() => sha(bytes)));
    expect(spawned.filter((w) => w.state.terminated === 0)).toHaveLength(IDLE_HASH_WORKERS);

    // A round given up ends its worker: it may still be hashing, so it never serves another file.
    const givenUp = create(fileSource(file)) as FileHasher;
    feed(givenUp, bytes, 7000);
    const busy = spawned.find((w) => w.state.requests.at(-1)?.type === 'range')!;
    givenUp.dispose!();
    expect(busy.state.terminated).toBe(1);
  });

  it('feeds a worker what looked like the whole file when more comes after it', async () => {
    const { spawned, spawn } = pool();
    const hasher = browserHasher(
      spawn,
      subtle,
    )(fileSource(new File([bytes.subarray(0, 10_000) as Uint8Array<ArrayBuffer>], 'a')));
    hasher.update(bytes.subarray(0, 10_000));
    expect(spawned).toHaveLength(0);
    hasher.update(bytes.subarray(10_000, 12_000));
    expect(spawned).toHaveLength(1);
    // The worker reads the file itself, and finds it shorter than what was sent.
    await expect(hasher.digest()).rejects.toThrow(/changed/);
    expect(spawned[0]!.state.requests.slice(1, 3)).toEqual([
      { type: 'range', start: 0, end: 10_000 },
      { type: 'range', start: 10_000, end: 12_000 },
    ]);
  });

  it('falls back to the main-thread Sha256 with no Worker and no crypto.subtle, for a source that is no Blob, and when a worker cannot start', async () => {
    const source = fileSource(file);
    const alone = browserHasher(null, null)(source);
    alone.update(bytes);
    expect(await alone.digest()).toBe(sha(bytes));
    const { blob: _blob, ...plain } = source;
    expect(browserHasher(() => inProcessWorker(blobReader).port, subtle)(plain)).toBeInstanceOf(Sha256);
    const refused = browserHasher(() => {
      throw new DOMException('Refused by the Content-Security-Policy', 'SecurityError');
    }, subtle)(source) as FileHasher;
    feed(refused, bytes, 7000);
    expect(refused.way).toBe('main-thread');
    expect(await refused.digest()).toBe(sha(bytes));
  });
});
