import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage, S3Storage } from '../src/adapters/storage/index.js';
import type { UploadStorage } from '../src/adapters/storage/index.js';
import { openStoredRanges } from '../src/modules/uploads/stored-ranges.js';
import { tempDir } from './helpers/env.js';
import { S3_STAND_IN_BUCKET, startS3StandIn } from './helpers/s3-stand-in.js';

/**
 * stored-ranges.ts, which the media probe and the poster read stored files through, on both drivers: the
 * ranges asked for, cut at the file's size. (The S3 probe's requests themselves, ranged GETs only, are
 * recorded in media-probe.test.ts.)
 */

const CONTENT = 'The quick brown fox jumps over the lazy dog';
const KEY = 'submissions/s1/f1';
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function store(storage: UploadStorage, body: string): Promise<void> {
  const bytes = Buffer.from(body);
  const uploadId = await storage.begin(KEY, bytes.length, 'text/plain');
  const etag = await storage.writePart({
    key: KEY,
    uploadId,
    partNumber: 1,
    offset: 0,
    size: bytes.length,
    body: Readable.from([bytes]),
  });
  await storage.finish({ key: KEY, uploadId, parts: [{ partNumber: 1, etag }], size: bytes.length });
}

const cleanups: Array<() => Promise<void>> = [];
const drivers: Record<'local' | 's3', UploadStorage> = {} as never;

beforeAll(async () => {
  const dir = await tempDir('avp-ranges-');
  cleanups.push(dir.remove);
  drivers.local = new LocalStorage(dir.dir);
  const s3 = await startS3StandIn();
  cleanups.push(s3.close);
  drivers.s3 = new S3Storage({
    S3_BUCKET: S3_STAND_IN_BUCKET,
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: true,
  });
  await Promise.all(Object.values(drivers).map((storage) => store(storage, CONTENT)));
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(['local', 's3'] as const)('a stored file on %s', (driver) => {
  it('reads the ranges asked for, cut at the end of the file, and counts what it read', async () => {
    const ranges = await openStoredRanges(drivers[driver], KEY, CONTENT.length);
    try {
      expect(decode(await ranges.read(4, 5))).toBe('quick');
      expect(decode(await ranges.read(0, 3))).toBe('The');
      // Past the end: what there is, then nothing (and no request for it).
      expect(decode(await ranges.read(CONTENT.length - 3, 100))).toBe('dog');
      expect(await ranges.read(CONTENT.length, 10)).toHaveLength(0);
      expect(await ranges.read(CONTENT.length + 5, 10)).toHaveLength(0);
      expect(ranges.bytesRead()).toBe(5 + 3 + 3);
    } finally {
      await ranges.close();
    }
  });

  it('streams a range, and refuses one with no bytes of the file in it', async () => {
    const ranges = await openStoredRanges(drivers[driver], KEY, CONTENT.length);
    try {
      expect(await text(await ranges.stream(10, 9))).toBe('brown fox');
      expect(await text(await ranges.stream(0, 1024 * 1024))).toBe(CONTENT);
      // Both drivers would read an inverted range (end before start) as the whole rest of the file.
      await expect(ranges.stream(CONTENT.length, 10)).rejects.toThrow(RangeError);
      await expect(ranges.stream(0, 0)).rejects.toThrow(RangeError);
    } finally {
      await ranges.close();
    }
  });

  it('a stored file shorter than its recorded size gives what there is', async () => {
    const ranges = await openStoredRanges(drivers[driver], KEY, CONTENT.length + 10);
    try {
      expect(decode(await ranges.read(CONTENT.length - 3, 100))).toBe('dog');
    } finally {
      await ranges.close();
    }
  });
});

it('a local file that is not there fails when opened, not at the first read', async () => {
  await expect(openStoredRanges(drivers.local, 'submissions/s1/gone', 10)).rejects.toMatchObject({
    code: 'ENOENT',
  });
});
