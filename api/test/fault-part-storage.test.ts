import { rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localUploadsDir } from '../src/adapters/storage/index.js';
import { startTestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * A part that local storage cannot write (its folder replaced by a file, a read-only mount, a bad disk)
 * is the server's failure: answered 5xx, for the client to try again later, never the 400 'part_aborted'
 * that blames the client for cutting the body short (the body is destroyed on the way in both cases).
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** A server on `dialect`, a signed-in client, and a file of one part registered: `put` sends its part. */
async function fileOfOnePart(dialect: (typeof DIALECTS)[number]) {
  const t = await startTestApp({ dialect });
  cleanups.push(() => t.close());
  const ada = new TestBrowser(t.url);
  expect((await ada.post('/api/auth/register', registration())).status).toBe(201);
  const submission = await ada.post<{ submission: { id: string } }>('/api/uploads/submissions', sponsorForm);
  const submissionId = submission.body.submission.id;
  const registered = await ada.post<{ file: { id: string } }>(
    `/api/uploads/submissions/${submissionId}/files`,
    { name: 'clip.mov', size: 1000 },
  );
  const fileId = registered.body.file.id;
  const put = () =>
    fetch(`${t.url}/api/uploads/files/${fileId}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
      body: Buffer.alloc(1000, 7),
    });
  return { t, ada, submissionId, fileId, put };
}

describe.each(DIALECTS)('a part local storage cannot write, on %s', (dialect) => {
  it('is answered 500, not 400 part_aborted, and the part goes through once storage is back', async () => {
    const { t, put } = await fileOfOnePart(dialect);

    const uploads = localUploadsDir(t.config);
    // The folder moved away (an unmounted volume, say) and a file in its place: nothing can be written.
    await rename(uploads, `${uploads}.away`);
    await writeFile(uploads, 'not a folder');
    const refused = await put();
    expect(refused.status).toBe(500);
    expect(((await refused.json()) as { error: { code: string } }).error.code).not.toBe('part_aborted');

    await rm(uploads);
    await rename(`${uploads}.away`, uploads);
    const again = await put();
    expect(again.status).toBe(200);
  });

  it('whose file is being removed (its bytes gone, its rows not yet) is answered 404; bytes missing for good, 500', async () => {
    const { t, ada, submissionId, fileId, put } = await fileOfOnePart(dialect);
    // A removal's first step (removal.ts): the stored bytes go, then the rows.
    await unlink(path.join(localUploadsDir(t.config), 'submissions', submissionId, fileId));

    // Nothing removes the rows: the bytes are missing for good, storage's fault.
    const missing = await put();
    expect(missing.status).toBe(500);

    // The removal ends while the part is being answered: there is no file to write, as a look would say.
    const answer = put();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await ada.call('DELETE', `/api/uploads/files/${fileId}`)).status).toBe(204);
    const gone = await answer;
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('file_not_found');
  });
});
