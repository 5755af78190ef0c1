import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { LocalStorage } from '../../adapters/storage/index.js';
import type { UploadStorage } from '../../adapters/storage/index.js';

/**
 * Byte ranges of a stored file, read where it is stored and never more of it than asked: on local disk
 * by positional reads of one open handle, on S3 by one ranged GET per range (never a GET without Range).
 * The media probe reads the ranges MediaInfoLib asks for; the poster copies the file's start to ffmpeg.
 * Ranges are cut at the file's size, so a reader asking past the end costs nothing.
 */
export interface StoredRanges {
  /** Bytes [offset, offset + length) of the file; fewer only when the stored file is shorter than said. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The same bytes as a stream, for copying a large range without holding it; at least one byte. */
  stream(offset: number, length: number): Promise<Readable>;
  /** The bytes read() has returned so far. */
  bytesRead(): number;
  /** Closes the local file handle; nothing to do on S3. */
  close(): Promise<void>;
}

/**
 * Opens the stored file `key` of `size` bytes for range reads. On local disk the file is opened here, so
 * a missing file fails now rather than at the first read.
 */
export async function openStoredRanges(
  storage: UploadStorage,
  key: string,
  size: number,
): Promise<StoredRanges> {
  let bytes = 0;
  const within = (offset: number, length: number) =>
    Math.max(0, Math.min(length, size - Math.max(0, offset)));
  const handle: FileHandle | null =
    storage instanceof LocalStorage ? await open(storage.pathOf(key), 'r') : null;

  const stream = async (offset: number, length: number): Promise<Readable> => {
    const want = within(offset, length);
    // Either driver reads an inverted range as the file's whole rest: refuse it instead.
    if (want === 0)
      throw new RangeError(`No bytes of the file at ${offset} (${length} asked, ${size} in all)`);
    const range = { start: offset, end: offset + want - 1 };
    // 1 MiB at a time, as the local driver's own read() streams.
    return handle
      ? handle.createReadStream({ ...range, autoClose: false, highWaterMark: 1024 * 1024 })
      : storage.read(key, range);
  };

  return {
    async read(offset, length) {
      const want = within(offset, length);
      if (want === 0) return new Uint8Array(0);
      let out: Uint8Array;
      if (handle) {
        const buffer = new Uint8Array(want);
        let got = 0;
        while (got < want) {
          const { bytesRead } = await handle.read(buffer, got, want - got, offset + got);
          if (bytesRead === 0) break;
          got += bytesRead;
        }
        out = got === want ? buffer : buffer.subarray(0, got);
      } else {
        const chunks: Buffer[] = [];
        for await (const chunk of await stream(offset, want)) chunks.push(chunk as Buffer);
        const buffer = Buffer.concat(chunks);
        out = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
      }
      bytes += out.length;
      return out;
    },
    stream,
    bytesRead: () => bytes,
    close: async () => {
      await handle?.close();
    },
  };
}
