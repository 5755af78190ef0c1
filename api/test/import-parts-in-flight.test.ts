import { randomBytes } from 'node:crypto';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { HELD_BUDGET_BYTES, RunningHashes } from '../src/modules/uploads/running-hash.js';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import type { DriveStandIn } from './helpers/cloud-standins/drive.js';
import { startS3FaultProxy } from './helpers/fault-proxy.js';
import type { S3FaultProxy } from './helpers/fault-proxy.js';
import { sha256, startImportHarness } from './helpers/imports.js';
import { s3StandInEnv, startS3StandIn } from './helpers/s3-stand-in.js';

/**
 * A cloud import keeps two parts in flight, and both bodies flow at once (#34, bench:import): the part
 * ahead of the running sha-256 is held by it until the part before is in. On S3, a part the hash could not
 * hold means reading the whole file back from S3 at completion, so when the hash has no room for a part
 * its body waits, unread, for the part before to be stored. Seen at the network boundary: the S3 stand-in
 * (behind a relay that notes each request) and a Drive stand-in whose first part is slower than the second.
 */

const PART = UPLOAD_PART_SIZE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function setUp(hashes: RunningHashes): Promise<{
  d: DriveStandIn;
  s3: S3FaultProxy;
  data: Buffer;
  importFile(): Promise<{ file: UploadFileInfo; stored: Buffer }>;
}> {
  const d = await startDriveStandIn();
  cleanups.push(() => d.close());
  const standIn = await startS3StandIn();
  cleanups.push(() => standIn.close());
  const s3 = await startS3FaultProxy({ target: standIn.endpoint });
  cleanups.push(() => s3.close());
  const h = await startImportHarness({
    env: { GOOGLE_API_URL: d.url, ...s3StandInEnv(s3.url) },
    hashes,
  });
  cleanups.push(() => h.close());
  const data = randomBytes(2 * PART + 70_001);
  d.files.set('show-reel', { name: 'show-reel.mov', mimeType: 'video/quicktime', data });
  // The first part's answer stops half-way for a moment: the second part's bytes arrive meanwhile.
  d.pauseMidBody = { start: 0, ms: 600 };
  return {
    d,
    s3,
    data,
    async importFile() {
      const started = await h.start({ provider: 'google-drive', fileId: 'show-reel', name: 'show-reel.mov' });
      expect(started.status).toBe(201);
      const file = await h.waitFor(started.file.id, (f) => f.status === 'complete');
      return { file, stored: await h.stored(started.file.id) };
    },
  };
}

/** Whole-object reads from S3 (no Range): what a completion whose running hash broke does. */
const wholeReads = (s3: S3FaultProxy) =>
  s3.requests.filter((r) => r.method === 'GET' && !r.url.includes('uploadId') && r.range === undefined);

/** The most the hashes held at once while `work` ran, looked at every few milliseconds. */
async function mostHeld<T>(hashes: RunningHashes, work: Promise<T>): Promise<{ result: T; most: number }> {
  let most = 0;
  const look = setInterval(() => {
    most = Math.max(most, hashes.heldBytes);
  }, 2);
  try {
    return { result: await work, most };
  } finally {
    clearInterval(look);
  }
}

describe('a cloud import’s two parts in flight (S3 storage)', () => {
  it('both bodies flow at once: the part ahead is held for the hash, and nothing is read back from S3', async () => {
    const hashes = new RunningHashes();
    const { s3, data, importFile } = await setUp(hashes);
    const { result, most } = await mostHeld(hashes, importFile());
    expect(result.file.sha256).toBe(sha256(data));
    expect(sha256(result.stored)).toBe(sha256(data));
    // The later parts' bytes came while the first stood still, and were held for the hash, within its budget.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(HELD_BUDGET_BYTES);
    expect(hashes.heldBytes).toBe(0);
    // The running hash covered the file: the completion read nothing back but what h.stored read after it.
    expect(wholeReads(s3)).toHaveLength(1);
  });

  it('a hash with no room for the part ahead: its body waits its turn, and still nothing is read back', async () => {
    const hashes = new RunningHashes(1);
    const { d, s3, data, importFile } = await setUp(hashes);
    const { result, most } = await mostHeld(hashes, importFile());
    expect(result.file.sha256).toBe(sha256(data));
    expect(sha256(result.stored)).toBe(sha256(data));
    expect(most).toBe(0);
    // Each part asked for once: the waits cost no request again.
    expect(d.mediaRequests.filter((r) => r.id === 'show-reel')).toHaveLength(3);
    expect(wholeReads(s3)).toHaveLength(1);
  });
});
