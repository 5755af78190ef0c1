import { describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_FAILED } from '../messages.js';
import { planUpload } from '../upload-plan.js';
import { BUNDLE_FILE_MAX_BYTES } from './bundles.js';
import {
  abortableSleep,
  bytesOfParts,
  PREPARE_BATCH_FILES,
  PREPARE_FIRST_FILES,
  resumeDecision,
  UploadClient,
  UploadError,
} from './client.js';
import type { RetryNotice, TransportRequest, TransportResponse, UploadSource } from './client.js';
import { UPLOAD_BUNDLE_MAX_FILES } from './protocol.js';
import type { UploadFileInfo } from './protocol.js';
import { createSha256 } from './sha256.js';

const PART = 6_291_456;
const sha = (bytes: Uint8Array) => {
  const h = createSha256();
  h.update(bytes);
  return h.digest() as string;
};

function source(size: number, name = 'clip.mov'): UploadSource & { bytes: Uint8Array; reads: number } {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) % 251;
  const src = {
    name,
    size,
    type: 'video/quicktime',
    lastModified: 1_700_000_000_000,
    bytes,
    reads: 0,
    read: async (start: number, end: number) => {
      src.reads++;
      return bytes.subarray(start, end);
    },
  };
  return src;
}

type Fault = (req: TransportRequest) => TransportResponse | 'network' | undefined;

/** An in-memory stand-in for the server's side of the protocol (the network boundary of a unit test). */
class FakeServer {
  files = new Map<string, { info: UploadFileInfo; parts: Map<number, Uint8Array> }>();
  log: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  faults: Fault[] = [];
  held: Record<string, number[]> = {};
  complete = new Set<string>();
  private next = 1;

  /** The sha-256 query of part PUTs, which an older server ignores, as Express does. */
  partChecksums: string[] = [];
  /**
   * A server of issue #34: batch registration (POST …/files/batch; names in `refuse` answered with an
   * error each), and a part PUT naming the file's sha-256 completes the file once it is whole.
   */
  modern = false;
  refuse = new Set<string>();
  /** Holds batch registrations until it settles. */
  batchGate: Promise<void> | null = null;
  /**
   * A server that takes bundles (POST /api/uploads/bundles?files=id:size:sha256,…): each file named
   * stored whole and completed, or answered with its own error. The files of each bundle, in order.
   */
  bundles = false;
  bundled: string[][] = [];
  /** Names a bundle answers 409 completion_in_progress, storing nothing of them. */
  bundleRefused = new Set<string>();

  transport = async (req: TransportRequest): Promise<TransportResponse> => {
    const [path = '', query] = req.path.split('?');
    if (this.bundles && req.method === 'POST' && path === '/api/uploads/bundles') {
      this.log.push(`${req.method} ${path}`);
      for (const fault of this.faults) {
        const hit = fault({ ...req, path });
        if (hit === 'network') throw new Error('socket hang up');
        if (hit) return hit;
      }
      return this.bundle(new URLSearchParams(query).get('files')!, req);
    }
    if (query) this.partChecksums.push(query);
    req = { ...req, path };
    this.log.push(`${req.method} ${req.path}`);
    if (this.modern && req.method === 'POST' && path.endsWith('/files/batch')) {
      for (const fault of this.faults) {
        const hit = fault(req);
        if (hit === 'network') throw new Error('socket hang up');
        if (hit) return hit;
      }
      await this.batchGate;
      const files = (req.json as { files: { name: string; size: number }[] }).files.map((body) =>
        this.refuse.has(body.name)
          ? { error: { status: 413, code: 'upload_quota_exceeded', message: 'Over the quota.' } }
          : { created: true, file: this.register(body) },
      );
      return { status: 200, body: { files } };
    }
    const completeWith =
      this.modern && query?.startsWith('sha256=') ? decodeURIComponent(query.slice(7)) : undefined;
    for (const fault of this.faults) {
      const hit = fault(req);
      if (hit === 'network') throw new Error('socket hang up');
      if (hit) return hit;
    }
    const m =
      /^\/api\/uploads\/(submissions|files)\/([^/]+)(?:\/(files|parts|complete|submit)(?:\/(\d+))?)?$/.exec(
        req.path,
      );
    if (req.method === 'POST' && req.path === '/api/uploads/submissions') {
      return { status: 201, body: { submission: { id: 'sub-1', files: [] } } };
    }
    if (!m) return { status: 404, body: { error: { code: 'not_found', message: 'No such route' } } };
    const [, kind, id = '', action, n] = m;
    if (kind === 'submissions' && action === 'files') {
      return { status: 201, body: { file: this.register(req.json as { name: string; size: number }) } };
    }
    if (kind === 'submissions' && action === 'submit') {
      return { status: 200, body: { submission: { id, status: 'submitted', files: req.json } } };
    }
    if (kind === 'submissions') return { status: 200, body: { submission: { id } } };
    const file = this.files.get(id);
    if (!file) return { status: 404, body: { error: { code: 'not_found', message: 'No such file' } } };
    if (action === 'parts') {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      await new Promise((r) => setTimeout(r, 1));
      this.inFlight--;
      if (req.signal?.aborted) throw new Error('aborted');
      file.parts.set(Number(n), req.body!);
      if (completeWith !== undefined && file.parts.size === file.info.partCount) {
        file.info = { ...file.info, status: 'complete', sha256: completeWith };
        return { status: 200, body: { partNumber: Number(n), file: file.info } };
      }
      return { status: 200, body: { partNumber: Number(n) } };
    }
    if (action === 'complete') {
      const info = {
        ...file.info,
        status: 'complete' as const,
        sha256: (req.json as { sha256?: string }).sha256 ?? null,
      };
      file.info = info;
      return { status: 200, body: { file: info } };
    }
    if (req.method === 'DELETE') {
      this.files.delete(id);
      return { status: 204, body: undefined };
    }
    return {
      status: 200,
      body: { file: { ...file.info, receivedParts: [...file.parts.keys()].sort((a, b) => a - b) } },
    };
  };

  private async bundle(list: string, req: TransportRequest): Promise<TransportResponse> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 1));
    this.inFlight--;
    let at = 0;
    // The test's checksums (orderSum) hold a colon too: the id and size come first.
    const entries = list.split(',').map((e) => {
      const [id = '', size = '', ...sha] = e.split(':');
      return [id, size, sha.join(':')] as const;
    });
    this.bundled.push(entries.map(([id]) => id));
    const files = entries.map(([id, sizeText, sha]) => {
      const size = Number(sizeText);
      // Copied, as a server stores them: the client reuses a bundle's body once it is answered.
      const bytes = req.body!.slice(at, (at += size));
      const file = this.files.get(id);
      if (!file) return { id, error: { status: 404, code: 'file_not_found', message: 'No such file' } };
      if (file.info.status === 'complete') return { id, file: file.info };
      if (this.bundleRefused.has(file.info.name)) {
        return { id, error: { status: 409, code: 'completion_in_progress', message: 'Busy' } };
      }
      if (file.info.partCount !== 1 || file.info.size !== size) {
        return { id, error: { status: 400, code: 'bad_part_size', message: 'Wrong size' } };
      }
      file.parts.set(1, bytes);
      file.info = { ...file.info, status: 'complete', sha256: sha };
      return { id, file: file.info };
    });
    return { status: 200, body: { files } };
  }

  register(body: { name: string; size: number }): UploadFileInfo {
    const fileId = `f${this.next++}`;
    const plan = planUpload(body.size);
    const parts = new Map<number, Uint8Array>();
    for (const p of this.held[body.name] ?? []) parts.set(p, new Uint8Array(0));
    const info: UploadFileInfo = {
      id: fileId,
      name: body.name,
      size: body.size,
      type: '',
      lastModified: null,
      sha256: null,
      partSize: plan.partSize,
      partCount: plan.partCount,
      status: this.complete.has(body.name) ? 'complete' : 'uploading',
      receivedParts: [...parts.keys()],
    };
    this.files.set(fileId, { info, parts });
    return info;
  }
}

/**
 * A cheap order-sensitive checksum for multi-part files (the real SHA-256 of tens of MiB in plain JS is
 * slow under coverage): proves every byte was fed, in order. sha256.test.ts covers the real hash.
 */
function orderSum(bytes: Uint8Array): string {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 4096) sum = (sum * 31 + bytes[i]! + i) % 1_000_000_007;
  return `${bytes.length}:${sum}`;
}
function orderHasher() {
  const chunks: Uint8Array[] = [];
  return {
    update: (data: Uint8Array) => void chunks.push(data),
    digest: () => {
      const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      return orderSum(all);
    },
  };
}

function clientFor(server: FakeServer, extra: Partial<ConstructorParameters<typeof UploadClient>[0]> = {}) {
  const waits: number[] = [];
  const client = new UploadClient({
    transport: server.transport,
    random: () => 0,
    sleep: async (ms) => {
      waits.push(ms);
    },
    retry: { retries: 3, baseMs: 100, maxMs: 1_000 },
    createHasher: orderHasher,
    ...extra,
  });
  return { client, waits };
}

const info = (over: Partial<UploadFileInfo>): UploadFileInfo => ({
  id: 'f',
  name: 'a',
  size: PART * 3 - 5,
  type: '',
  lastModified: null,
  sha256: null,
  partSize: PART,
  partCount: 3,
  status: 'uploading',
  ...over,
});

describe('resumeDecision', () => {
  it.each([
    ['nothing held', [], [1, 2, 3]],
    ['parts 1 and 3 held', [3, 1], [2]],
    ['duplicates and strays ignored', [2, 2, 9, 0, 1.5], [1, 3]],
    ['everything held', [1, 2, 3], []],
  ])('%s', (_name, received, missing) => {
    const decision = resumeDecision(info({ receivedParts: received }));
    expect(decision.action === 'send' && decision.missing).toEqual(missing);
  });

  it('does nothing for a complete file, and refuses a plan that differs from the shared rule', () => {
    expect(resumeDecision(info({ status: 'complete' }))).toEqual({ action: 'done' });
    expect(() => resumeDecision(info({ partSize: 5 * 1024 * 1024 }))).toThrow(UploadError);
    expect(resumeDecision(info({ receivedParts: undefined, size: 0, partCount: 0 }))).toMatchObject({
      missing: [],
    });
  });

  it('counts the bytes of held parts, the short last part included', () => {
    const plan = planUpload(PART * 2 + 10);
    expect(bytesOfParts(plan, [1, 3])).toBe(PART + 10);
  });
});

describe('UploadClient', () => {
  it('sends every part, at most 4 at once, then completes with the sha-256 of the whole file', async () => {
    const server = new FakeServer();
    const { client } = clientFor(server);
    const file = source(PART * 9 + 123);
    const upload = client.file('sub-1', file);
    const seen: number[] = [];
    upload.onChange((u) => seen.push(u.progress().percent));
    upload.start();
    const outcome = await upload.settled();
    expect(outcome.state).toBe('complete');
    expect(server.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.maxInFlight).toBeGreaterThan(1);
    const stored = server.files.get('f1')!;
    expect([...stored.parts.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(stored.info.sha256).toBe(orderSum(file.bytes));
    expect(seen.at(-1)).toBe(100);
    expect(upload.progress()).toMatchObject({ sentBytes: file.size, percent: 100, secondsLeft: 0 });
  });

  it('sends only the parts the server lacks when resuming, still hashing the whole file', async () => {
    const server = new FakeServer();
    server.held['clip.mov'] = [1, 3];
    const { client } = clientFor(server);
    const file = source(PART * 3 + 1);
    const upload = client.file('sub-1', file);
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(server.log.filter((l) => l.includes('/parts/')).map((l) => l.split('/').at(-1))).toEqual(
      expect.arrayContaining(['2', '4']),
    );
    expect(server.log.filter((l) => l.includes('/parts/'))).toHaveLength(2);
    expect(server.files.get('f1')!.info.sha256).toBe(orderSum(file.bytes));
  });

  it('sends the real sha-256 by default', async () => {
    const server = new FakeServer();
    const client = new UploadClient({ transport: server.transport });
    const file = source(5000);
    const upload = client.file('sub-1', file);
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(server.files.get('f1')!.info.sha256).toBe(sha(file.bytes));
  });

  it('skips the parts already held without reading them when no checksum is wanted', async () => {
    const server = new FakeServer();
    server.held['clip.mov'] = [1];
    const { client } = clientFor(server, { createHasher: null });
    const file = source(PART + 1);
    const upload = client.file('sub-1', file);
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(file.reads).toBe(1);
    expect(server.files.get('f1')!.info.sha256).toBeNull();
  });

  it('registers a file with the facts read on this side, and without any when none were read', async () => {
    const bodies: unknown[] = [];
    const server = new FakeServer();
    server.faults.push((req) => {
      if (req.path.endsWith('/files')) bodies.push(req.json);
      return undefined;
    });
    const { client } = clientFor(server);
    const facts = {
      kind: 'video' as const,
      container: 'MP4',
      videoCodec: 'H.264',
      width: 1280,
      height: 720,
      fps: 25,
      durationSeconds: 2,
      audio: null,
      sizeBytes: 10,
    };
    for (const file of [
      { ...source(10, 'a.mp4'), facts },
      { ...source(10, 'b.mp4'), facts: null },
      source(10),
    ]) {
      const upload = client.file('sub-1', file);
      upload.start();
      expect((await upload.settled()).state).toBe('complete');
    }
    expect(bodies).toEqual([
      expect.objectContaining({ name: 'a.mp4', facts }),
      expect.objectContaining({ name: 'b.mp4', facts: null }),
      expect.not.objectContaining({ facts: expect.anything() }),
    ]);
    expect(bodies[2]).not.toHaveProperty('facts');
  });

  it('treats a file the server already has complete as done', async () => {
    const server = new FakeServer();
    server.complete.add('clip.mov');
    const { client } = clientFor(server);
    const upload = client.file('sub-1', source(10));
    upload.start();
    expect(await upload.settled()).toMatchObject({ state: 'complete' });
    expect(server.log.some((l) => l.includes('/parts/'))).toBe(false);
  });

  it.each([
    ['a network error', (): TransportResponse | 'network' => 'network'],
    ['a 503', (): TransportResponse => ({ status: 503, body: undefined })],
    [
      'a 500 with an error body',
      (): TransportResponse => ({ status: 500, body: { error: { code: 'internal', message: 'x' } } }),
    ],
    [
      'a 409 part_in_progress (an earlier send of it still being stored)',
      (): TransportResponse => ({ status: 409, body: { error: { code: 'part_in_progress', message: 'x' } } }),
    ],
    [
      'a 400 part_aborted this client did not cause (a server fault mid-part read as a cut-off body)',
      (): TransportResponse => ({
        status: 400,
        body: { error: { code: 'part_aborted', message: 'Part 1 was cut off before its end.' } },
      }),
    ],
  ])('retries a part after %s, with growing waits', async (_name, answer) => {
    const server = new FakeServer();
    let failures = 2;
    server.faults.push((req) => (req.method === 'PUT' && failures-- > 0 ? answer() : undefined));
    const { client, waits } = clientFor(server, { partConcurrency: 1 });
    const upload = client.file('sub-1', source(100));
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(waits).toEqual([50, 100]);
  });

  it('says while a part is being retried: which attempt comes next, of how many, and when', async () => {
    const server = new FakeServer();
    let failures = 2;
    server.faults.push((req) => (req.method === 'PUT' && failures-- > 0 ? 'network' : undefined));
    let clock = 1_000;
    const { client } = clientFor(server, {
      partConcurrency: 1,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    const upload = client.file('sub-1', source(100));
    const notices: RetryNotice[] = [];
    upload.onChange(() => {
      if (upload.retrying && upload.retrying !== notices.at(-1)) notices.push(upload.retrying);
    });
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    // Four attempts in all (retries: 3); the first retry waits 50 ms, the second 100 ms.
    const network = expect.objectContaining({ status: 0, code: 'network' });
    const part = { what: 'part', reason: 'unreachable' };
    expect(notices).toEqual([
      { attempt: 2, attempts: 4, nextAt: 1_050, error: network, ...part },
      { attempt: 3, attempts: 4, nextAt: 1_150, error: network, ...part },
    ]);
    // Gone once a part gets through.
    expect(upload.retrying).toBeNull();
  });

  it('clears the retry notice when the retries run out and the file fails', async () => {
    const server = new FakeServer();
    server.faults.push((req) => (req.method === 'PUT' ? { status: 503, body: undefined } : undefined));
    const { client } = clientFor(server, { partConcurrency: 1 });
    const upload = client.file('sub-1', source(100));
    let noticed = 0;
    upload.onChange(() => {
      if (upload.retrying) noticed++;
    });
    upload.start();
    expect((await upload.settled()).state).toBe('failed');
    expect(noticed).toBeGreaterThan(0);
    expect(upload.retrying).toBeNull();
  });

  it("fails with SPEC §8's chunk-failure text once a part's retries run out", async () => {
    const server = new FakeServer();
    server.faults.push((req) => (req.method === 'PUT' ? 'network' : undefined));
    const { client, waits } = clientFor(server, { partConcurrency: 1 });
    const upload = client.file('sub-1', source(PART * 2));
    upload.start();
    const outcome = await upload.settled();
    expect(outcome).toMatchObject({ state: 'failed' });
    expect(upload.error).toMatchObject({ code: 'part_failed', message: UPLOAD_CHUNK_FAILED, status: 0 });
    expect(waits.slice(0, 3)).toEqual([50, 100, 200]);
  });

  it('lets shouldRetry hand a part over at its first failure: no wait, no notice, the same failure', async () => {
    const server = new FakeServer();
    server.faults.push((req) => (req.method === 'PUT' ? 'network' : undefined));
    const asked: RetryNotice[] = [];
    const heard: RetryNotice[] = [];
    const { client, waits } = clientFor(server, {
      partConcurrency: 1,
      shouldRetry: (n) => (asked.push(n), n.reason !== 'unreachable'),
      onRetry: (n) => heard.push(n),
    });
    const upload = client.file('sub-1', source(PART * 2));
    upload.start();
    expect(await upload.settled()).toMatchObject({ state: 'failed' });
    expect(upload.error).toMatchObject({ code: 'part_failed', message: UPLOAD_CHUNK_FAILED, status: 0 });
    expect(asked.map((n) => [n.what, n.reason, n.attempt])).toEqual([['part', 'unreachable', 2]]);
    expect(waits).toEqual([]);
    expect(heard).toEqual([]);
  });

  it.each([
    [400, 'bad_part_size'],
    [401, 'not_signed_in'],
    [403, 'forbidden'],
  ])('does not retry a %i on a part, and keeps its code for the caller', async (status, code) => {
    const server = new FakeServer();
    server.faults.push((req) =>
      req.method === 'PUT' ? { status, body: { error: { code, message: 'no' } } } : undefined,
    );
    const { client, waits } = clientFor(server);
    const upload = client.file('sub-1', source(10));
    upload.start();
    await upload.settled();
    expect(waits).toEqual([]);
    expect(upload.error).toMatchObject({ status, code });
  });

  it('reports a failed registration with the server code, and a body-less error with a generic text', async () => {
    const server = new FakeServer();
    server.faults.push((req) =>
      req.path.endsWith('/files')
        ? { status: 413, body: { error: { code: 'too_large', message: 'big' } } }
        : undefined,
    );
    const { client } = clientFor(server);
    const upload = client.file('sub-1', source(10));
    upload.start();
    await upload.settled();
    expect(upload.error).toMatchObject({ status: 413, code: 'too_large', message: 'big' });

    const plain = new FakeServer();
    plain.faults.push(() => ({ status: 409, body: undefined }));
    await expect(clientFor(plain).client.submit('sub-1', [])).rejects.toMatchObject({
      code: 'http_error',
      message: 'The server answered 409.',
    });
  });

  it('fails when the file changes under it (a short read), and when the reader throws', async () => {
    const server = new FakeServer();
    const { client } = clientFor(server);
    const file = source(100);
    file.read = async () => new Uint8Array(3);
    const upload = client.file('sub-1', file);
    upload.start();
    await upload.settled();
    expect(upload.error).toMatchObject({ code: 'file_changed' });

    const broken = source(100);
    broken.read = async () => {
      throw new Error('disk gone');
    };
    const other = client.file('sub-1', broken);
    other.start();
    await other.settled();
    expect(other.error).toMatchObject({ code: 'read_failed', message: 'disk gone' });
    const thrower = client.file('sub-1', { ...broken, read: () => Promise.reject('plain') });
    thrower.start();
    await thrower.settled();
    expect(thrower.error?.message).toBe('plain');
  });

  it('pauses (aborting parts in flight) and resumes from what the server holds', async () => {
    const server = new FakeServer();
    const { client } = clientFor(server, { partConcurrency: 2 });
    const queue = client.queue('sub-1');
    const upload = queue.add(source(PART * 6));
    let paused = false;
    await new Promise<void>((resolve) =>
      upload.onChange((u) => {
        if (!paused && u.progress().sentBytes >= PART) {
          paused = true;
          u.pause();
          resolve();
        }
      }),
    );
    expect(upload.state).toBe('paused');
    expect(upload.progress().bytesPerSecond).toBe(0);
    const before = server.log.length;
    upload.resume();
    const [outcome] = await queue.settled();
    expect(outcome?.state).toBe('complete');
    expect(server.log[before]).toBe('GET /api/uploads/files/f1');
    expect(server.files.get('f1')!.info.sha256).toBe(orderSum(source(PART * 6).bytes));
  });

  it('hands each round a hasher made for its source, and disposes of the hashers of rounds given up', async () => {
    const server = new FakeServer();
    const made: { source: UploadSource; disposed: number; digested: number }[] = [];
    const { client } = clientFor(server, {
      partConcurrency: 1,
      createHasher: (src) => {
        const inner = orderHasher();
        const entry = { source: src, disposed: 0, digested: 0 };
        made.push(entry);
        return {
          update: inner.update,
          digest: () => {
            entry.digested++;
            return inner.digest();
          },
          dispose: () => void entry.disposed++,
        };
      },
    });
    const file = source(PART * 3);
    const upload = client.file('sub-1', file);
    await new Promise<void>((resolve) => {
      const stop = upload.onChange((u) => {
        if (u.state === 'uploading' && u.progress().sentBytes >= PART) {
          stop();
          u.pause();
          resolve();
        }
      });
      upload.start();
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(made).toHaveLength(1);
    expect(made[0]!.source).toBe(file);
    expect(made[0]).toMatchObject({ disposed: 1, digested: 0 });
    upload.resume();
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(made).toHaveLength(2);
    expect(made[1]!.source).toBe(file);
    expect(made[1]).toMatchObject({ disposed: 0, digested: 1 });
    expect(server.files.get('f1')!.info.sha256).toBe(orderSum(file.bytes));
  });

  it('lets a listener pause the file as it starts, sending nothing until resumed', async () => {
    const server = new FakeServer();
    const { client } = clientFor(server);
    const upload = client.file('sub-1', source(PART * 2));
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stopOnStart = upload.onChange((u) => {
        if (u.state === 'uploading') u.pause();
      });
      upload.start();
      expect(upload.state).toBe('paused');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(server.log).toEqual([]);
      expect(unhandled).toEqual([]);
      stopOnStart();
      upload.start();
      expect((await upload.settled()).state).toBe('complete');
      expect(server.files.get('f1')!.info.sha256).toBe(orderSum(source(PART * 2).bytes));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('removes a file, on the server too, and a failed file resumes into a new round', async () => {
    const server = new FakeServer();
    let failing = true;
    server.faults.push((req) =>
      failing && req.method === 'PUT' ? { status: 400, body: undefined } : undefined,
    );
    const { client } = clientFor(server);
    const queue = client.queue('sub-1', { onChange: () => undefined });
    const a = queue.add(source(10, 'a.mov'));
    const b = queue.add(source(20, 'b.mov'));
    expect(b.state).toBe('waiting');
    expect((await a.settled()).state).toBe('failed');
    expect((await b.settled()).state).toBe('failed');
    failing = false;
    a.resume();
    expect((await a.settled()).state).toBe('complete');
    await b.remove();
    await b.remove();
    expect(await b.settled()).toEqual({ state: 'removed' });
    expect(server.log).toContain('DELETE /api/uploads/files/f2');
    expect(queue.progress()).toMatchObject({ totalBytes: 10, sentBytes: 10, percent: 100 });
    a.start();
    a.pause();
    expect(a.state).toBe('complete');
  });

  it('makes the submission calls and gives up a JSON call after its retries', async () => {
    const server = new FakeServer();
    const { client } = clientFor(server, { basePath: '/api/uploads/' });
    expect(
      await client.createSubmission({ form_type: 'sponsor', event_name: 'E', sponsor_company: 'S' }),
    ).toMatchObject({
      id: 'sub-1',
    });
    expect(await client.getSubmission('sub-1')).toEqual({ id: 'sub-1' });
    expect(await client.submit('sub-1', ['f1'])).toMatchObject({
      status: 'submitted',
      files: { files: ['f1'] },
    });
    server.faults.push(() => 'network');
    await expect(client.getSubmission('sub-1')).rejects.toMatchObject({ code: 'network', status: 0 });
  });

  it('stops waiting as soon as its signal aborts', async () => {
    const controller = new AbortController();
    const waiting = abortableSleep(10_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('aborted');
    await expect(abortableSleep(1, controller.signal)).rejects.toThrow('aborted');
    await expect(abortableSleep(1)).resolves.toBeUndefined();
    const server = new FakeServer();
    const { client } = clientFor(server);
    await expect(
      client.call({ method: 'GET', path: '/api/uploads/files/x', signal: controller.signal }),
    ).rejects.toThrow('aborted');
  });
});

describe('retry notices of every call', () => {
  const busy = {
    status: 409,
    body: { error: { code: 'completion_in_progress', message: 'Being completed.' } },
  };
  const down = { status: 503, body: { error: { code: 'unavailable', message: 'Database restarting.' } } };

  it('announces retries of registration and completion on the file, and clears them once answered', async () => {
    const server = new FakeServer();
    const failures = { register: 1, complete: 1 };
    server.faults.push((req) => {
      if (req.path.endsWith('/files') && failures.register-- > 0) return 'network';
      if (req.path.endsWith('/complete') && failures.complete-- > 0) return busy;
      return undefined;
    });
    const everything: RetryNotice[] = [];
    const { client } = clientFor(server, { onRetry: (n) => everything.push(n) });
    const upload = client.file('sub-1', source(100));
    const seen: RetryNotice[] = [];
    const cleared: string[] = [];
    upload.onChange((u) => {
      if (u.retrying && u.retrying !== seen.at(-1)) seen.push(u.retrying);
      if (!u.retrying && seen.length > cleared.length) cleared.push(seen.at(-1)!.what);
    });
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(seen.map((n) => [n.what, n.reason, n.status, n.message])).toEqual([
      ['register', 'unreachable', undefined, undefined],
      ['complete', 'busy', 409, 'Being completed.'],
    ]);
    expect(cleared).toEqual(['register', 'complete']);
    // The client-wide listener hears the same ones.
    expect(everything).toEqual(seen);
  });

  it('tells the client-wide listener of retries of submission creation, parts, sending and other calls', async () => {
    const server = new FakeServer();
    const failing = new Set(['POST /api/uploads/submissions', 'PUT', 'submit', 'GET']);
    server.faults.push((req) => {
      for (const key of failing) {
        if (`${req.method} ${req.path}`.startsWith(key) || req.path.endsWith(`/${key}`)) {
          failing.delete(key);
          return key === 'PUT' ? { status: 429, body: undefined } : down;
        }
      }
      return undefined;
    });
    const everything: RetryNotice[] = [];
    const perCall: RetryNotice[] = [];
    const { client } = clientFor(server, { onRetry: (n) => everything.push(n) });
    const submission = await client.createSubmission(
      { form_type: 'sponsor', event_name: 'E', sponsor_company: 'S' },
      (n) => perCall.push(n),
    );
    const upload = client.file(submission.id, source(100));
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    await client.submit(submission.id, [upload.fileId!], (n) => perCall.push(n));
    await client.getSubmission(submission.id);
    expect(everything.map((n) => [n.what, n.reason, n.status])).toEqual([
      ['register', 'server-error', 503],
      ['part', 'busy', 429],
      ['submit', 'server-error', 503],
      ['other', 'server-error', 503],
    ]);
    expect(perCall.map((n) => n.what)).toEqual(['register', 'submit']);
    expect(everything[0]).toMatchObject({ message: 'Database restarting.', attempt: 2, attempts: 4 });
  });

  it('words a failure that is not an Error', async () => {
    const { client } = clientFor(new FakeServer(), {
      transport: () => Promise.reject('socket closed'),
      retry: { retries: 0 },
    });
    await expect(client.getSubmission('s')).rejects.toMatchObject({
      code: 'network',
      message: 'socket closed',
    });
  });

  it('keeps the old form of call(): the failure to throw, and a listener as third argument', async () => {
    const server = new FakeServer();
    server.faults.push(() => down);
    const heard: RetryNotice[] = [];
    const { client } = clientFor(server);
    await expect(
      client.call({ method: 'GET', path: '/x' }, { code: 'gone', message: 'Gone.' }, (n) => heard.push(n)),
    ).rejects.toMatchObject({ status: 503, code: 'gone', message: 'Gone.' });
    expect(heard.map((n) => n.what)).toEqual(['other', 'other', 'other']);
  });
});

/** A transport that never answers until aborted; it reports progress as a fetch with upload events would. */
function stallingTransport(
  server: FakeServer,
  stall: (req: TransportRequest) => 'silent' | 'after-progress' | undefined,
) {
  let stalled = 0;
  const transport = (req: TransportRequest): Promise<TransportResponse> => {
    const how = stall(req);
    if (how === undefined) {
      req.onProgress?.(0);
      req.onProgress?.(req.body?.length ?? 0);
      return server.transport(req);
    }
    stalled++;
    return new Promise((_resolve, reject) => {
      if (how === 'after-progress') {
        req.onProgress?.(0);
        req.onProgress?.(1024);
      }
      req.signal?.addEventListener('abort', () => {
        // Progress heard after the client gave up changes nothing.
        req.onProgress?.(2048);
        reject(new Error('The operation was aborted.'));
      });
    });
  };
  return { transport, stalled: () => stalled };
}

describe('timeouts', () => {
  it('aborts a part that stops moving and sends it again from its start', async () => {
    const server = new FakeServer();
    let stalls = 1;
    const { transport, stalled } = stallingTransport(server, (req) =>
      req.method === 'PUT' && req.path.endsWith('/parts/2') && stalls-- > 0 ? 'after-progress' : undefined,
    );
    const { client } = clientFor(server, { transport, partStallTimeoutMs: 20, partConcurrency: 1 });
    const file = source(PART * 2 + 7);
    const upload = client.file('sub-1', file);
    const notices: RetryNotice[] = [];
    upload.onChange((u) => {
      if (u.retrying && u.retrying !== notices.at(-1)) notices.push(u.retrying);
    });
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(stalled()).toBe(1);
    expect(notices).toEqual([
      expect.objectContaining({
        what: 'part',
        reason: 'unreachable',
        error: expect.objectContaining({ code: 'stalled', message: 'Nothing got through for 0.02 s.' }),
      }),
    ]);
    expect(orderSum(server.files.get('f1')!.parts.get(2)!)).toBe(
      orderSum(file.bytes.subarray(PART, PART * 2)),
    );
    expect(server.files.get('f1')!.info.sha256).toBe(orderSum(file.bytes));
  });

  it('leaves a part alone while its transport reports no progress (its own timeouts apply)', async () => {
    const server = new FakeServer();
    let release: (() => void) | undefined;
    const transport = async (req: TransportRequest): Promise<TransportResponse> => {
      if (req.method === 'PUT') await new Promise<void>((resolve) => (release = resolve));
      return server.transport(req);
    };
    const heard: RetryNotice[] = [];
    const { client } = clientFor(server, { transport, partStallTimeoutMs: 1, onRetry: (n) => heard.push(n) });
    const upload = client.file('sub-1', source(100));
    upload.start();
    // A slow part well past the stall timeout, then its answer.
    await new Promise((resolve) => setTimeout(resolve, 30));
    release!();
    expect((await upload.settled()).state).toBe('complete');
    expect(heard).toEqual([]);
  });

  it('gives up a JSON call that gets no answer in time, says so and tries again', async () => {
    const server = new FakeServer();
    let silent = 1;
    const { transport } = stallingTransport(server, (req) =>
      req.path.endsWith('/files') && silent-- > 0 ? 'silent' : undefined,
    );
    const heard: RetryNotice[] = [];
    const { client } = clientFor(server, { transport, requestTimeoutMs: 20, onRetry: (n) => heard.push(n) });
    const upload = client.file('sub-1', source(100));
    upload.start();
    expect((await upload.settled()).state).toBe('complete');
    expect(heard).toEqual([
      expect.objectContaining({
        what: 'register',
        reason: 'unreachable',
        error: expect.objectContaining({
          status: 0,
          code: 'timeout',
          message: 'No answer from the server within 0.02 s.',
        }),
      }),
    ]);
  });

  it('does not wait for a transport that ignores its signal, and fails once the retries run out', async () => {
    const server = new FakeServer();
    const transport = () => new Promise<TransportResponse>(() => undefined);
    const { client } = clientFor(server, { transport, requestTimeoutMs: 5, completeTimeoutMs: 5 });
    await expect(client.getSubmission('sub-1')).rejects.toMatchObject({ code: 'timeout' });
    await expect(client.completeFile('f1', undefined)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('stops at once when the caller aborts during a timed attempt', async () => {
    const server = new FakeServer();
    const { transport } = stallingTransport(server, () => 'silent');
    const { client } = clientFor(server, { transport, requestTimeoutMs: 60_000 });
    const controller = new AbortController();
    const call = client.fileStatus('f1', controller.signal);
    controller.abort();
    await expect(call).rejects.toThrow('aborted');
  });

  it('has defaults, and 0 turns a timeout off', async () => {
    const { client } = clientFor(new FakeServer());
    expect([client.requestTimeoutMs, client.completeTimeoutMs, client.partStallTimeoutMs]).toEqual([
      30_000, 300_000, 30_000,
    ]);
    const server = new FakeServer();
    const plain = clientFor(server, { requestTimeoutMs: 0 }).client;
    expect(await plain.getSubmission('sub-1')).toEqual({ id: 'sub-1' });
  });
});

describe('many small files (issue #34)', () => {
  const names = (n: number, size = 100) =>
    Array.from({ length: n }, (_, i) => source(size + i, `still-${i}.jpg`));
  const count = (server: FakeServer, pattern: RegExp) => server.log.filter((l) => pattern.test(l)).length;

  it("registers a queue's first few files alone, answered at once, and the many behind them a hundred to a call, one call at a time", async () => {
    const server = new FakeServer();
    server.modern = true;
    const sizes: number[] = [];
    server.faults.push((req) => {
      if (req.path.endsWith('/files/batch')) sizes.push((req.json as { files: unknown[] }).files.length);
      return undefined;
    });
    // Each call answered a little later, and the most on their way at once counted.
    let calls = 0;
    let most = 0;
    const { client } = clientFor(server, {
      transport: async (req) => {
        if (!req.path.endsWith('/files/batch')) return server.transport(req);
        most = Math.max(most, ++calls);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return server.transport(req).finally(() => calls--);
      },
    });
    const queue = client.queue('sub-1');
    const files = names(PREPARE_FIRST_FILES + 2 * PREPARE_BATCH_FILES + 40);
    for (const file of files) queue.add(file);
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(files.map(() => 'complete'));
    expect(sizes).toEqual([PREPARE_FIRST_FILES, PREPARE_BATCH_FILES, PREPARE_BATCH_FILES, 40]);
    // One at a time: between two calls the server's turn goes to the parts of files already made.
    expect(most).toBe(1);
    expect(count(server, /submissions\/sub-1\/files$/)).toBe(0);
  });

  it('registers the files added together in one call and completes each with its part', async () => {
    const server = new FakeServer();
    server.modern = true;
    const { client } = clientFor(server);
    const queue = client.queue('sub-1');
    const files = names(10);
    for (const file of files) queue.add(file);
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(files.map(() => 'complete'));
    outcomes.forEach((o, i) =>
      expect(o.state === 'complete' && o.file.sha256).toBe(orderSum(files[i]!.bytes)),
    );
    expect(count(server, /files\/batch$/)).toBe(1);
    expect(count(server, /submissions\/sub-1\/files$/)).toBe(0);
    expect(count(server, /\/parts\/1$/)).toBe(10);
    expect(count(server, /\/complete$/)).toBe(0);
  });

  it('keeps at most partConcurrency parts in flight across files, and more than one file under way', async () => {
    const server = new FakeServer();
    server.modern = true;
    const { client } = clientFor(server, { partConcurrency: 3 });
    const queue = client.queue('sub-1');
    // Small files, each completed with its part, and one of three parts, completed with its last part.
    const files = [...names(8), source(PART * 2 + 7, 'clip.mov'), ...names(8, 300)];
    for (const file of files) queue.add(file);
    const outcomes = await queue.settled();
    expect(outcomes.every((o) => o.state === 'complete')).toBe(true);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBeGreaterThan(1);
    expect(server.files.get('f9')!.info).toMatchObject({
      status: 'complete',
      sha256: orderSum(files[8]!.bytes),
    });
    expect(count(server, /\/complete$/)).toBe(0);
  });

  it('sends a larger file’s last part with its sha-256 once the others are answered, and no completion call', async () => {
    const server = new FakeServer();
    server.modern = true;
    const events: string[] = [];
    const { client } = clientFor(server, {
      partConcurrency: 4,
      transport: async (req) => {
        const what = `${req.method} ${req.path.replace(/\?.*$/, '').replace(/^.*\/parts\//, 'part ')}`;
        events.push(`asked ${what}`);
        const answer = await server.transport(req);
        events.push(`answered ${what}`);
        return answer;
      },
    });
    const file = source(PART * 3 + 11);
    const upload = client.file('sub-1', file);
    upload.start();
    const outcome = await upload.settled();
    expect(outcome).toMatchObject({
      state: 'complete',
      file: { status: 'complete', sha256: orderSum(file.bytes) },
    });
    expect(count(server, /\/complete$/)).toBe(0);
    // Only the last part names the checksum, and it is asked for after every other part was answered.
    expect(server.partChecksums).toEqual([`sha256=${encodeURIComponent(orderSum(file.bytes))}`]);
    const last = events.indexOf('asked PUT part 4');
    expect(last).toBeGreaterThan(-1);
    for (const n of [1, 2, 3]) expect(events.indexOf(`answered PUT part ${n}`)).toBeLessThan(last);
    // The first three went together.
    expect(events.indexOf('asked PUT part 3')).toBeLessThan(events.indexOf('answered PUT part 1'));

    // A server that ignores the checksum (an older one): the file is completed with its own call.
    const older = new FakeServer();
    const plain = clientFor(older).client.file('sub-1', source(PART * 2 + 3));
    plain.start();
    expect(await plain.settled()).toMatchObject({ state: 'complete' });
    expect(count(older, /\/complete$/)).toBe(1);
  });

  it('registers alone a file the batch refused, and every file alone on a server without batches', async () => {
    const modern = new FakeServer();
    modern.modern = true;
    modern.refuse.add('still-2.jpg');
    const queue = clientFor(modern).client.queue('sub-1');
    for (const file of names(4)) queue.add(file);
    expect((await queue.settled()).every((o) => o.state === 'complete')).toBe(true);
    expect(count(modern, /files\/batch$/)).toBe(1);
    expect(count(modern, /submissions\/sub-1\/files$/)).toBe(1);
    // Refused for the quota while the others were unfinished: registered alone once their parts are in
    // (all three: they were to go in one bundle with it, which this server answers 404, and go alone).
    const alone = modern.log.findIndex((l) => /submissions\/sub-1\/files$/.test(l));
    expect(modern.log.slice(0, alone).filter((l) => l.includes('/parts/'))).toHaveLength(3);

    // An older server: no batch route (404), a part's checksum ignored: one registration and one
    // completion per file, as before, and the batch is not asked for again.
    const older = new FakeServer();
    const { client } = clientFor(older);
    const first = client.queue('sub-1');
    for (const file of names(3)) first.add(file);
    expect((await first.settled()).every((o) => o.state === 'complete')).toBe(true);
    const second = client.queue('sub-1');
    for (const file of names(2, 500)) second.add(file);
    expect((await second.settled()).every((o) => o.state === 'complete')).toBe(true);
    expect(count(older, /files\/batch$/)).toBe(1);
    expect(count(older, /submissions\/sub-1\/files$/)).toBe(5);
    expect(count(older, /\/complete$/)).toBe(5);
    expect([...older.files.values()].map((f) => f.info.status)).toEqual(Array(5).fill('complete'));
  });

  it('falls back to one registration per file when the batch call fails, and removes a file removed meanwhile', async () => {
    const server = new FakeServer();
    server.modern = true;
    let down = true;
    server.faults.push((req) =>
      down && req.path.endsWith('/files/batch') ? { status: 400, body: undefined } : undefined,
    );
    const { client } = clientFor(server);
    const queue = client.queue('sub-1');
    for (const file of names(3)) queue.add(file);
    expect((await queue.settled()).every((o) => o.state === 'complete')).toBe(true);
    expect(count(server, /submissions\/sub-1\/files$/)).toBe(3);

    down = false;
    let open: () => void = () => undefined;
    server.batchGate = new Promise((resolve) => (open = resolve));
    const later = client.queue('sub-1', { fileConcurrency: 1 });
    const files = names(3, 700);
    const uploads = files.map((f) => later.add(f));
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Its registration is on its way (held by the gate), waited for by its first round or its bundle.
    expect(uploads[2]!.registeredAhead || uploads[2]!.inBundle).toBe(true);
    expect(uploads[2]!.fileId).toBeNull();
    await uploads[2]!.remove();
    open();
    expect(await uploads[2]!.settled()).toEqual({ state: 'removed' });
    const outcomes = await later.settled();
    expect(outcomes.map((o) => o.state)).toEqual(['complete', 'complete', 'removed']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(server.log.filter((l) => l.startsWith('DELETE'))).toHaveLength(1);
  });
});

describe('bundles of small files (issue #34)', () => {
  const names = (n: number, size = 100) =>
    Array.from({ length: n }, (_, i) => source(size + i, `still-${i}.jpg`));
  const count = (server: FakeServer, pattern: RegExp) => server.log.filter((l) => pattern.test(l)).length;
  const bundleServer = () => {
    const server = new FakeServer();
    server.modern = true;
    server.bundles = true;
    return server;
  };
  const stored = (server: FakeServer, id: string) => server.files.get(id)!.parts.get(1);
  // toEqual walks a typed array element by element (about a second per 2 MiB under load): compare the bytes
  // natively and report where they first differ.
  const expectSameBytes = (got: Uint8Array | undefined, want: Uint8Array) => {
    expect(got, 'stored bytes').toBeDefined();
    const a = Buffer.from(got!.buffer, got!.byteOffset, got!.byteLength);
    const b = Buffer.from(want.buffer, want.byteOffset, want.byteLength);
    if (a.equals(b)) return;
    let at = 0;
    while (at < Math.min(a.length, b.length) && a[at] === b[at]) at++;
    expect({ length: a.length, firstDifference: at }).toEqual({ length: b.length, firstDifference: -1 });
  };

  it('sends small files several to a request, each complete with its own bytes and checksum', async () => {
    const server = bundleServer();
    const { client } = clientFor(server);
    const queue = client.queue('sub-1');
    const files = names(10);
    const uploads = files.map((f) => queue.add(f));
    const outcomes = await queue.settled();
    expect(outcomes.map((o) => o.state)).toEqual(files.map(() => 'complete'));
    outcomes.forEach((o, i) => {
      expect(o.state === 'complete' && o.file.sha256).toBe(orderSum(files[i]!.bytes));
      expectSameBytes(stored(server, uploads[i]!.fileId!), files[i]!.bytes);
      expect(uploads[i]!.progress().sentBytes).toBe(files[i]!.size);
    });
    expect(count(server, /files\/batch$/)).toBe(1);
    expect(server.bundled).toHaveLength(1);
    expect(server.bundled[0]).toEqual(uploads.map((u) => u.fileId));
    expect(count(server, /\/parts\//)).toBe(0);
    expect(count(server, /\/complete$/)).toBe(0);
    expect(queue.progress().sentBytes).toBe(files.reduce((n, f) => n + f.size, 0));
  });

  it('keeps each bundle to its limits, the larger files alone, and the parts in flight to partConcurrency', async () => {
    const server = bundleServer();
    const { client } = clientFor(server, { partConcurrency: 2 });
    const queue = client.queue('sub-1');
    const many = names(UPLOAD_BUNDLE_MAX_FILES + 5);
    // Two of 2 MiB fit in a bundle's bytes beside small files, three alone; one over half of them goes
    // alone; the empty file goes alone too.
    const large = Array.from({ length: 4 }, (_, i) => source(2 * 1024 * 1024, `large-${i}.jpg`));
    const lone = source(BUNDLE_FILE_MAX_BYTES + 1, 'lone.jpg');
    const empty = source(0, 'empty.txt');
    const files = [...many, ...large, lone, empty];
    const uploads = files.map((f) => queue.add(f));
    expect((await queue.settled()).every((o) => o.state === 'complete')).toBe(true);
    const id = (f: UploadSource) => uploads[files.indexOf(f as (typeof files)[0])]!.fileId;
    expect(server.bundled).toEqual([
      many.slice(0, UPLOAD_BUNDLE_MAX_FILES).map(id),
      [...many.slice(UPLOAD_BUNDLE_MAX_FILES), ...large.slice(0, 2)].map(id),
      large.slice(2).map(id),
    ]);
    expect(server.log).toContain(`PUT /api/uploads/files/${id(lone)}/parts/1`);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    for (const f of files) if (f.size > 0) expectSameBytes(stored(server, id(f)!), f.bytes);
  });

  it('sends alone each file a bundle did not complete, and a bundle that failed is not tried again', async () => {
    const server = bundleServer();
    const { client, waits } = clientFor(server);
    let failing = true;
    server.faults.push((req) => (failing && req.path.endsWith('/bundles') ? 'network' : undefined));
    const first = client.queue('sub-1');
    for (const f of names(3)) first.add(f);
    expect((await first.settled()).map((o) => o.state)).toEqual(['complete', 'complete', 'complete']);
    // Tried once, at once each file alone with its part: no wait, no second try of the bundle.
    expect(count(server, /bundles$/)).toBe(1);
    expect(count(server, /\/parts\/1$/)).toBe(3);
    expect(waits).toEqual([]);

    // One file of the next bundle refused by the server (another write held it): it goes alone.
    failing = false;
    server.bundleRefused.add('still-1.jpg');
    const second = client.queue('sub-1');
    const files = names(3, 500);
    const uploads = files.map((f) => second.add(f));
    expect((await second.settled()).map((o) => o.state)).toEqual(['complete', 'complete', 'complete']);
    expect(count(server, /bundles$/)).toBe(2);
    expect(count(server, /\/parts\/1$/)).toBe(4);
    expect(server.log).toContain(`PUT /api/uploads/files/${uploads[1]!.fileId}/parts/1`);
    uploads.forEach((u, i) => expectSameBytes(stored(server, u.fileId!), files[i]!.bytes));
  });

  it('sends bundle after bundle, one at a time, each file with its own bytes', async () => {
    const server = bundleServer();
    const seen = new Set<ArrayBufferLike>();
    const original = server.transport;
    server.transport = async (req) => {
      if (req.path.startsWith('/api/uploads/bundles')) seen.add(req.body!.buffer);
      return original(req);
    };
    const { client } = clientFor(server, { partConcurrency: 1 });
    const queue = client.queue('sub-1');
    const files = Array.from({ length: 12 }, (_, i) => source(1024 * 1024 + i * 4096, `still-${i}.jpg`));
    files.forEach((f, i) => f.bytes.fill(i + 1, 0, 4096));
    const uploads = files.map((f) => queue.add(f));
    expect((await queue.settled()).every((o) => o.state === 'complete')).toBe(true);
    expect(server.bundled).toHaveLength(3);
    uploads.forEach((u, i) => expectSameBytes(stored(server, u.fileId!), files[i]!.bytes));
    // One body, kept and filled again for each bundle.
    expect(seen.size).toBe(1);
  });

  it('falls back to files alone on a server without bundles, and asks no more', async () => {
    const server = new FakeServer();
    server.modern = true;
    const { client } = clientFor(server);
    for (const round of [0, 1]) {
      const queue = client.queue('sub-1');
      for (const f of names(4, 100 + round * 50)) queue.add(f);
      expect((await queue.settled()).every((o) => o.state === 'complete')).toBe(true);
    }
    expect(count(server, /bundles$/)).toBe(1);
    expect(count(server, /\/parts\/1$/)).toBe(8);
    expect(client.bundling).toBe(false);
  });

  it('leaves a file paused while its bundle is on its way, and completes it on resume', async () => {
    const server = bundleServer();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = server.transport;
    server.transport = async (req) => {
      if (req.path.startsWith('/api/uploads/bundles')) await gate;
      return original(req);
    };
    const { client } = clientFor(server);
    const queue = client.queue('sub-1');
    const uploads = names(3).map((f) => queue.add(f));
    for (let i = 0; i < 20 && server.log.every((l) => !l.endsWith('/bundles')); i++) {
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(uploads.every((u) => u.inBundle)).toBe(true);
    uploads[1]!.pause();
    release();
    await Promise.all([uploads[0]!.settled(), uploads[2]!.settled()]);
    expect(uploads.map((u) => u.state)).toEqual(['complete', 'paused', 'complete']);
    uploads[1]!.resume();
    expect(await uploads[1]!.settled()).toMatchObject({ state: 'complete' });
    // The server had completed it with the bundle: its look at the file says so, nothing is sent again.
    expect(server.log.filter((l) => l.includes(uploads[1]!.fileId!))).toEqual([
      `GET /api/uploads/files/${uploads[1]!.fileId}`,
    ]);
  });
});
