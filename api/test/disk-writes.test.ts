import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createUploadStorage,
  defaultDiskWrites,
  DiskWrites,
  diskWritesFor,
} from '../src/adapters/storage/index.js';
import type { UploadStorage } from '../src/adapters/storage/index.js';
import { loadConfig } from '../src/config.js';
import { TEST_SECRET } from './helpers/env.js';

/**
 * UPLOAD_DISK_WRITES: local storage's file writes in libuv's thread pool at once, per process. Parts of
 * several files written together, on a real disk, each land intact while no more writes than the limit
 * are ever in the pool together.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'avp-disk-writes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PART = 3 * 1024 * 1024;

/** `bytes` in 64 KiB chunks, as a socket delivers them. */
function body(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
  return Readable.from(chunks);
}

/** Six files of two parts, all twelve parts written at once; each file read back whole. */
async function writeTogether(storage: UploadStorage, name: string): Promise<void> {
  const files = await Promise.all(
    Array.from({ length: 6 }, async (_, i) => {
      const key = `submissions/${name}/file-${i}`;
      const bytes = randomBytes(2 * PART - 1000 * i);
      await storage.begin(key, bytes.length, 'application/octet-stream');
      return { key, bytes };
    }),
  );
  await Promise.all(
    files.flatMap(({ key, bytes }) =>
      [0, PART].map((offset, index) => {
        const slice = bytes.subarray(offset, offset + PART);
        return storage.writePart({
          key,
          uploadId: null,
          partNumber: index + 1,
          offset,
          size: slice.length,
          body: body(slice),
        });
      }),
    ),
  );
  for (const { key, bytes } of files) {
    expect((await readFile(path.join(dir, 'uploads', ...key.split('/')))).equals(bytes)).toBe(true);
  }
}

describe('UPLOAD_DISK_WRITES', () => {
  it('unset, 1 where each write carries 1 MiB and 2 with smaller writes; takes a value; refuses 0 with a line naming it', () => {
    const unset = loadConfig({ SESSION_SECRET: TEST_SECRET });
    expect(unset.UPLOAD_DISK_WRITES).toBeUndefined();
    expect(diskWritesFor(unset).limit).toBe(defaultDiskWrites());
    expect(defaultDiskWrites(1024 * 1024)).toBe(1);
    expect(defaultDiskWrites(512 * 1024)).toBe(2);
    expect(defaultDiskWrites(256 * 1024)).toBe(2);
    expect(diskWritesFor(loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_DISK_WRITES: '3' })).limit).toBe(3);
    expect(loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_DISK_WRITES: '1' }).UPLOAD_DISK_WRITES).toBe(1);
    expect(() => loadConfig({ SESSION_SECRET: TEST_SECRET, UPLOAD_DISK_WRITES: '0' })).toThrow(
      /UPLOAD_DISK_WRITES: must be an integer between 1 and \d+ \(got "0"\)/,
    );
  });

  it.each([1, 2])('at %i, twelve parts written together keep to it, every byte in place', async (limit) => {
    const config = loadConfig({
      SESSION_SECRET: TEST_SECRET,
      DATA_DIR: dir,
      STORAGE_DRIVER: 'local',
      UPLOAD_DISK_WRITES: String(limit),
    });
    await writeTogether(createUploadStorage(config), `limit-${limit}`);
    const turns = diskWritesFor(config)!;
    // Twelve parts of 3 MiB go down in writes of about 256 KiB: enough to fill any limit.
    expect(turns.counts).toEqual({ active: 0, waiting: 0, most: limit });
  });
});

describe('DiskWrites', () => {
  // Shared's Turns, whose order and hand-over shared/src/turns.test.ts proves.
  it('needs at least one turn', () => {
    expect(() => new DiskWrites(0)).toThrow(/DiskWrites needs at least one turn/);
  });
});
