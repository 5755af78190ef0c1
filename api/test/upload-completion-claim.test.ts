import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { createUploadStorage } from '../src/adapters/storage/index.js';
import { claimWrite, COMPLETION } from '../src/modules/uploads/claims.js';
import { verifyAndComplete } from '../src/modules/uploads/completion.js';
import { RunningHashes } from '../src/modules/uploads/running-hash.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * A completion records its file only while its COMPLETION claim is still its own (#34: the claim is tested
 * in the same statement that records the file). One whose claim another completion took over (its lease
 * ran out while it worked) records nothing and answers completion_in_progress; the file stays uploading
 * for the completion that holds the claim.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A one-part file registered and its part stored, not completed: its id and sha-256. */
async function storedFile(app: TestApp, browser: TestBrowser, submissionId: string) {
  const data = randomBytes(4096);
  const registered = await browser.post<{ file: UploadFileInfo }>(
    `/api/uploads/submissions/${submissionId}/files`,
    {
      name: `${randomUUID()}.mov`,
      size: data.length,
      type: 'video/quicktime',
      lastModified: 1_700_000_000_000,
    },
  );
  expect(registered.status).toBe(201);
  const fileId = registered.body.file.id;
  const put = await fetch(`${app.url}/api/uploads/files/${fileId}/parts/1`, {
    method: 'PUT',
    headers: { cookie: browser.cookieHeader()!, origin: app.url, 'content-type': 'application/octet-stream' },
    body: data,
  });
  expect(put.status).toBe(200);
  return { fileId, sha256: createHash('sha256').update(data).digest('hex') };
}

describe.each(DIALECTS)('a completion and its claim (%s)', (dialect) => {
  it('records the file only while the claim is its own', async () => {
    t = await startTestApp({ dialect });
    const browser = new TestBrowser(t.url);
    expect((await browser.post('/api/auth/register', registration())).status).toBe(201);
    const created = await browser.post<{ submission: { id: string } }>(
      '/api/uploads/submissions',
      sponsorForm,
    );
    const submissionId = created.body.submission.id;
    const deps = {
      config: t.config,
      db: t.db,
      logger: t.logger,
      storage: createUploadStorage(t.config),
      hashes: new RunningHashes(),
    };
    const { SubmissionFile } = t.db.models;

    const taken = await storedFile(t, browser, submissionId);
    const lost = (await claimWrite(t.db, taken.fileId, COMPLETION))!;
    // Another completion takes the claim over, as once this one's lease has run out.
    await t.db.sequelize.query('UPDATE upload_claims SET token = :token WHERE file_id = :fileId', {
      replacements: { token: randomUUID(), fileId: taken.fileId },
    });
    const file = (await SubmissionFile.findByPk(taken.fileId))!;
    await expect(verifyAndComplete(deps, file, lost, taken.sha256)).rejects.toMatchObject({
      status: 409,
      code: 'completion_in_progress',
    });
    expect(await SubmissionFile.findByPk(taken.fileId)).toMatchObject({
      status: 'uploading',
      completedAt: null,
    });

    const held = await storedFile(t, browser, submissionId);
    const claim = (await claimWrite(t.db, held.fileId, COMPLETION))!;
    const mine = (await SubmissionFile.findByPk(held.fileId))!;
    await verifyAndComplete(deps, mine, claim, held.sha256);
    await claim.release();
    expect(mine).toMatchObject({ status: 'complete', sha256: held.sha256, storageUploadId: null });
    expect(await SubmissionFile.findByPk(held.fileId)).toMatchObject({
      status: 'complete',
      sha256: held.sha256,
      storageUploadId: null,
      completedAt: expect.any(Date),
    });

    // A file's only part stored under the completion's claim (a part PUT with ?sha256=) is recorded with
    // the completion, and neither is once the claim has passed to another.
    const partRows = async (fileId: string) =>
      t!.db.sequelize.query<{ write_id: string | null }>(
        'SELECT write_id FROM file_parts WHERE file_id = :fileId',
        {
          replacements: { fileId },
          type: QueryTypes.SELECT,
        },
      );
    const unrecorded = async () => {
      const stored = await storedFile(t!, browser, submissionId);
      await t!.db.sequelize.query('DELETE FROM file_parts WHERE file_id = :fileId', {
        replacements: { fileId: stored.fileId },
      });
      return stored;
    };
    const onlyLost = await unrecorded();
    const lostOnly = (await claimWrite(t.db, onlyLost.fileId, COMPLETION))!;
    await t.db.sequelize.query('UPDATE upload_claims SET token = :token WHERE file_id = :fileId', {
      replacements: { token: randomUUID(), fileId: onlyLost.fileId },
    });
    const lostFile = (await SubmissionFile.findByPk(onlyLost.fileId))!;
    await expect(
      verifyAndComplete(
        deps,
        lostFile,
        lostOnly,
        onlyLost.sha256,
        undefined,
        [{ partNumber: 1, etag: null, writeId: lostOnly.token }],
        { size: 4096, etag: null },
      ),
    ).rejects.toMatchObject({ status: 409, code: 'completion_in_progress' });
    expect(await partRows(onlyLost.fileId)).toEqual([]);
    expect(await SubmissionFile.findByPk(onlyLost.fileId)).toMatchObject({ status: 'uploading' });

    const onlyHeld = await unrecorded();
    const heldOnly = (await claimWrite(t.db, onlyHeld.fileId, COMPLETION))!;
    const heldFile = (await SubmissionFile.findByPk(onlyHeld.fileId))!;
    await verifyAndComplete(
      deps,
      heldFile,
      heldOnly,
      onlyHeld.sha256,
      undefined,
      [{ partNumber: 1, etag: null, writeId: heldOnly.token }],
      { size: 4096, etag: null },
    );
    await heldOnly.release();
    expect(await partRows(onlyHeld.fileId)).toEqual([{ write_id: heldOnly.token }]);
    expect(await SubmissionFile.findByPk(onlyHeld.fileId)).toMatchObject({ status: 'complete' });
    expect(
      await t.db.sequelize.query('SELECT 1 FROM upload_claims WHERE file_id = :fileId', {
        replacements: { fileId: onlyHeld.fileId },
        type: QueryTypes.SELECT,
      }),
    ).toEqual([]);
  });
});
