import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isStorageFull, PartSizeError } from './types.js';
import type { UploadStorage } from './types.js';
import type { WriteSlots } from './write-slots.js';

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
}

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
  ) {}

  pathOf(key: string): string {
    // Keys come from server ids; refuse anything else rather than trust it.
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split('/'));
  }

  async begin(key: string, size: number): Promise<null> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const handle = await open(file, 'w');
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
    // 'r+': the file must exist (begin made it); a part for a file already cleaned up fails here.
    // A 1 MiB buffer lets chunks queue up behind a write in progress and go down in one writev.
    const out = createWriteStream(this.pathOf(args.key), {
      flags: 'r+',
      start: args.offset,
      highWaterMark: 1024 * 1024,
    });
    // The body is piped, not handed to pipeline(), which would destroy it (and with it the client's
    // connection) on any failure: when the disk is full the request must stay open to be answered 507.
    const counted = exactSize(args.size, args.observe);
    const cutOff = () => {
      if (!args.body.readableEnded) counted.destroy(prematureClose());
    };
    const failed = (error: Error) => counted.destroy(error);
    args.body.once('close', cutOff);
    args.body.once('error', failed);
    args.body.pipe(counted);
    try {
      await pipeline(counted, out);
    } catch (error) {
      args.body.unpipe(counted);
      if (!isStorageFull(error)) args.body.destroy();
      throw error;
    } finally {
      args.body.off('close', cutOff);
      args.body.off('error', failed);
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
