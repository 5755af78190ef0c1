import { randomBytes } from 'node:crypto';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startDriveStandIn } from './helpers/cloud-standins/drive.js';
import { DIALECTS } from './helpers/env.js';
import { sha256, startImportHarness } from './helpers/imports.js';
import { IMPORT_GAVE_UP, MAX_ATTEMPTS } from '../src/modules/imports/worker.js';

/**
 * Issue 28 'No stall without a timeout': a provider that sends a byte range's 206 headers and 1 MiB, then
 * keeps the socket open and says nothing more. The import must give that part up after
 * IMPORT_IDLE_TIMEOUT_SECONDS, free its slot, and ask for the part again from its start.
 */

const MIB = 1024 * 1024;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

// The import's own state: the file completes first, the import settles once the server's media facts are read
// (or MEDIA_PROBE_NOTICE_WAIT_SECONDS pass).
const isComplete = (f: UploadFileInfo) => f.status === 'complete' && f.import?.status === 'complete';

describe.each(DIALECTS)('a cloud provider that stalls mid-part (%s)', (dialect) => {
  it('the stalled part is asked for again from its start, the slot freed, and both imports complete', async () => {
    const d = await startDriveStandIn();
    cleanups.push(() => d.close());
    const h = await startImportHarness({
      dialect,
      // One import at a time: the second can only run if the stalled one gives its slot up.
      env: { GOOGLE_API_URL: d.url, IMPORT_IDLE_TIMEOUT_SECONDS: '1', IMPORT_CONCURRENCY: '1' },
    });
    cleanups.push(() => h.close());
    const stalling = randomBytes(UPLOAD_PART_SIZE + 4321);
    const other = randomBytes(3 * MIB);
    d.files.set('f-stall', { name: 'stall.mov', mimeType: 'video/quicktime', data: stalling });
    d.files.set('f-other', { name: 'other.mov', mimeType: 'video/quicktime', data: other });
    d.stallNextAfter = MIB;

    const first = await h.start({
      provider: 'google-drive',
      fileId: 'f-stall',
      name: 'stall.mov',
      accessToken: 't',
    });
    expect(first.status).toBe(201);
    const second = await h.start({
      provider: 'google-drive',
      fileId: 'f-other',
      name: 'other.mov',
      accessToken: 't',
    });
    expect(second.status).toBe(201);

    const doneStalled = await h.waitFor(first.file.id, isComplete, 30_000);
    const doneOther = await h.waitFor(second.file.id, isComplete, 30_000);

    expect(d.stalled).toBe(1);
    expect(doneStalled.sha256).toBe(sha256(stalling));
    expect(doneOther.sha256).toBe(sha256(other));
    expect(sha256(await h.stored(first.file.id))).toBe(sha256(stalling));
    // The silent range was asked for again, whole: the 1 MiB that came before the silence is not kept.
    const ranges = d.mediaRequests.filter((r) => r.id === 'f-stall').map((r) => r.range);
    const stalledRange = `bytes=0-${UPLOAD_PART_SIZE - 1}`;
    expect(ranges.filter((r) => r === stalledRange).length, JSON.stringify(ranges)).toBe(2);
    const row = await h.t.db.models.FileImport.findByPk(first.file.id);
    expect(row?.status).toBe('complete');
    expect(row?.error ?? null).toBeNull();
  }, 60_000);

  it('a provider that stalls every time: the import fails after its attempts, with a message in words', async () => {
    const d = await startDriveStandIn();
    cleanups.push(() => d.close());
    const h = await startImportHarness({
      dialect,
      env: { GOOGLE_API_URL: d.url, IMPORT_IDLE_TIMEOUT_SECONDS: '1' },
      retryBaseMs: 5,
    });
    cleanups.push(() => h.close());
    d.files.set('f-dead', { name: 'dead.mov', mimeType: 'video/quicktime', data: randomBytes(2 * MIB) });
    d.stallNextAfter = 1024;
    d.stallEvery = true;
    const started = await h.start({
      provider: 'google-drive',
      fileId: 'f-dead',
      name: 'dead.mov',
      accessToken: 't',
    });
    const failed = await h.waitFor(started.file.id, (f) => f.import?.status === 'failed', 60_000);
    expect(failed.import?.error).toBe(IMPORT_GAVE_UP);
    expect(d.stalled).toBe(MAX_ATTEMPTS);
    const row = await h.t.db.models.FileImport.findByPk(started.file.id);
    expect(row?.attempts).toBe(MAX_ATTEMPTS);
    expect(row?.leaseToken ?? null).toBeNull();
  }, 90_000);
});
