import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { isStorageFull, PartSizeError, releaseChunk } from './types.js';
import type { UploadStorage } from './types.js';
import type { DiskWrites } from './disk-writes.js';
import type { WriteSlots } from './write-slots.js';
import { WRITE_BATCH_BYTES } from './write-batch.js';
import { FolderCreates } from './folder-creates.js';

/**
 * Proves a folder can take new files: creates it if needed, then writes and deletes a probe file. A full
 * disk, a read-only mount or a path blocked by a regular file all fail here rather than mid-upload.
 */
export async function assertWritable(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const probe = path.join(dir, `.write-probe-${randomUUID()}`);
  await writeFile(probe, 'ok');
  await unlink(probe);
}

/**
 * Passes bytes through while counting them; fails as soon as more than `size` arrive, so an oversized
 * body is cut off before it is stored, and at the end when fewer arrived. `observe` sees each chunk that
 * passes (the uploads module's write claim and running checksum), without a copy; when it returns a
 * promise the chunk waits for it, and when that rejects (or observe throws) the chunk is not passed on.
 */
export function exactSize(size: number, observe?: (chunk: Buffer) => void | Promise<void>): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > size) {
        callback(new PartSizeError(size, seen));
        return;
      }
      let pending: void | Promise<void>;
      try {
        pending = observe?.(chunk);
      } catch (error) {
        callback(error as Error);
        return;
      }
      if (pending === undefined) {
        callback(null, chunk);
        return;
      }
      pending.then(
        () => callback(null, chunk),
        (error: unknown) => callback(error as Error),
      );
    },
    flush(callback) {
      callback(seen === size ? null : new PartSizeError(size, seen));
    },
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('The body ended before its last byte'), {
    code: 'ERR_STREAM_PREMATURE_CLOSE',
  });
}

interface LocalPartWrite {
  key: string;
  offset: number;
  size: number;
  body: Readable;
  observe?: (chunk: Buffer) => void | Promise<void>;
  release?: boolean;
}

/**
 * The body of one part, written at its offset: the last stage of its pipe, with no stream between the
 * request and the disk. Chunks queue in the Writable's own buffer while a write is in flight and reach
 * _writev together, so each system call takes up to about WRITE_BATCH_BYTES (write-batch.ts). Before a
 * batch is stored its chunks are counted (more than `size` fails it, nothing of it written, so a part
 * never spills into the next one) and handed to `observe` in order, whose promise holds them back and
 * whose rejection fails the write. With `release`, a batch's chunks are given back once written
 * (releaseChunk: those the running hash still holds, when it is done with them too).
 */
class PartSink extends Writable {
  private seen = 0;
  private position: number;

  constructor(
    private readonly handle: FileHandle,
    offset: number,
    private readonly size: number,
    private readonly observe?: (chunk: Buffer) => void | Promise<void>,
    private readonly release = false,
    private readonly turns?: DiskWrites,
  ) {
    super({ highWaterMark: WRITE_BATCH_BYTES });
    this.position = offset;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.store([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.store(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    callback(this.seen === this.size ? null : new PartSizeError(this.size, this.seen));
  }

  private async store(buffers: Buffer[]): Promise<void> {
    let bytes = 0;
    for (const buffer of buffers) bytes += buffer.length;
    this.seen += bytes;
    if (this.seen > this.size) throw new PartSizeError(this.size, this.seen);
    if (this.observe) {
      for (const buffer of buffers) {
        const pending = this.observe(buffer);
        if (pending !== undefined) await pending;
      }
      // Cut off while a chunk waited (the client left, the part was refused): store nothing more.
      if (this.destroyed) return;
    }
    // A write may store fewer bytes than asked (a disk filling up: the next one then fails with ENOSPC).
    for (let at = 0; at < bytes;) {
      const rest = at === 0 ? buffers : remainder(buffers, at);
      const position = this.position + at;
      const { bytesWritten } = this.turns
        ? await this.turns.run(() => this.handle.writev(rest, position))
        : await this.handle.writev(rest, position);
      at += bytesWritten;
    }
    this.position += bytes;
    if (this.release) for (const buffer of buffers) releaseChunk(buffer);
  }
}

/** The bytes of `buffers` from `skip` on, without copying them. */
function remainder(buffers: Buffer[], skip: number): Buffer[] {
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (skip >= buffer.length) {
      skip -= buffer.length;
      continue;
    }
    rest.push(skip > 0 ? buffer.subarray(skip) : buffer);
    skip = 0;
  }
  return rest;
}

/** Pipes one part's body into `handle` at its offset; settles once the last byte is stored. */
async function receivePart(handle: FileHandle, args: LocalPartWrite, turns?: DiskWrites): Promise<void> {
  const sink = new PartSink(handle, args.offset, args.size, args.observe, args.release, turns);
  // The body is piped, not handed to pipeline(), which would destroy it (and with it the client's
  // connection) on any failure: when the disk is full the request must stay open to be answered 507.
  const cutOff = () => {
    if (!args.body.readableEnded) sink.destroy(prematureClose());
  };
  const failed = (error: Error) => sink.destroy(error);
  args.body.once('close', cutOff);
  args.body.once('error', failed);
  args.body.pipe(sink);
  try {
    await finished(sink);
  } catch (error) {
    args.body.unpipe(sink);
    throw error;
  } finally {
    args.body.off('close', cutOff);
    args.body.off('error', failed);
  }
}

/** The process's creates, whichever storage asks (the kernel's lock is the folder's, not the storage's). */
const creates = new FolderCreates();

const SAFE_KEY = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

/**
 * The local driver: each file is one file under DATA_DIR/uploads/<key>, created at its full length on
 * begin; each part is streamed straight into place at its offset, so parts may come in any order and
 * from any process sharing the disk, and no part or file is ever held in memory.
 */
export class LocalStorage implements UploadStorage {
  readonly kind = 'local' as const;

  constructor(
    readonly root: string,
    /** The process's limit on part writes at once (write-slots.ts); none: unlimited. */
    private readonly slots?: WriteSlots,
    /** The process's limit on file writes in the thread pool at once (disk-writes.ts); none: unlimited. */
    private readonly turns?: DiskWrites,
  ) {}

  pathOf(key: string): string {
    // Keys come from server ids; refuse anything else rather than trust it.
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async begin(key: string, size: number): Promise<null> {
    const file = this.pathOf(key);
    // Its folder is made only when missing: a submission's files share one, and a mkdir for each of a
    // thousand files was a thread-pool round trip each on registration's path (#34).
    const handle = await creates.run(file, () =>
      open(file, 'w').catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await mkdir(path.dirname(file), { recursive: true });
        return open(file, 'w');
      }),
    );
    try {
      await handle.truncate(size);
    } finally {
      await handle.close();
    }
    return null;
  }

  writePart(args: LocalPartWrite): Promise<null> {
    return this.slots ? this.slots.run(args.body, () => this.store(args)) : this.store(args);
  }

  private async store(args: LocalPartWrite): Promise<null> {
    // 'r+': the file must exist (begin made it); a part for a file already cleaned up fails here, its
    // body unread (the route answers with the connection closed).
    const handle = await open(this.pathOf(args.key), 'r+');
    try {
      await receivePart(handle, args, this.turns);
    } catch (error) {
      // The client's connection stays open when the disk is full: the request must be answered 507.
      if (!isStorageFull(error)) args.body.destroy();
      throw error;
    } finally {
      // Waits for a write still in flight (a part cut off mid-write) before the descriptor goes.
      await handle.close();
    }
    return null;
  }

  async check(): Promise<void> {
    await assertWritable(this.root);
  }

  async finish(): Promise<void> {
    // The parts are already in place.
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), {
      highWaterMark: 1024 * 1024,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async size(key: string): Promise<number> {
    return (await stat(this.pathOf(key))).size;
  }

  async remove(key: string): Promise<void> {
    const file = this.pathOf(key);
    await rm(file, { force: true });
    // The submission's folder goes with its last file.
    await rmdir(path.dirname(file)).catch(() => undefined);
  }
}
