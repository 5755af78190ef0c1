import { randomBytes } from 'node:crypto';
import { UPLOAD_PART_SIZE } from '@avp/shared';
import type { SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * UPLOAD_QUOTA_BYTES: what one client may hold in files registered but not yet complete, across all
 * their submissions. Over it a registration answers 413 with the limit in human units; completing or
 * removing files frees it.
 */

const PART = UPLOAD_PART_SIZE;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function signedUp(app: TestApp, email = 'ada@example.com'): Promise<TestBrowser> {
  const browser = new TestBrowser(app.url);
  expect((await browser.post('/api/auth/register', registration({ email }))).status).toBe(201);
  return browser;
}

async function newSubmission(browser: TestBrowser): Promise<string> {
  const created = await browser.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', sponsorForm);
  expect(created.status).toBe(201);
  return created.body.submission.id;
}

function register(browser: TestBrowser, submissionId: string, name: string, size: number, lastModified = 1) {
  return browser.post<{ file: UploadFileInfo; error: { code: string; message: string } }>(
    `/api/uploads/submissions/${submissionId}/files`,
    { name, size, type: 'video/quicktime', lastModified },
  );
}

describe.each(DIALECTS)('upload quota on %s', (dialect) => {
  it('refuses a file that would take the unfinished uploads past the limit, with a 413 naming it', async () => {
    t = await startTestApp({ dialect, env: { UPLOAD_QUOTA_BYTES: String(PART * 3) } });
    const ada = await signedUp(t);
    const first = await newSubmission(ada);
    const second = await newSubmission(ada);
    expect((await register(ada, first, 'keynote.mov', PART * 2)).status).toBe(201);
    // Every submission of the client counts; up to the limit exactly is allowed.
    expect((await register(ada, second, 'promo.mov', PART)).status).toBe(201);

    const over = await register(ada, second, 'logo.png', 1);
    expect(over.status).toBe(413);
    expect(over.body.error).toEqual({
      code: 'upload_quota_exceeded',
      message:
        'Your unfinished uploads would exceed the 18 MB limit (18 MB already in progress, and this file ' +
        'is 1 B). Finish or remove some before adding more.',
    });
    // Choosing a file already registered resumes it: it is not counted twice.
    const resumed = await register(ada, first, 'keynote.mov', PART * 2);
    expect(resumed.status).toBe(200);

    // Quotas are per client.
    const eve = await signedUp(t, 'eve@example.com');
    expect((await register(eve, await newSubmission(eve), 'a.mov', PART * 3)).status).toBe(201);
    const max = await signedUp(t, 'max@example.com');
    const huge = await register(max, await newSubmission(max), 'huge.mov', PART * 4);
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toBe(
      'This file (24 MB) is larger than the 18 MB limit for unfinished uploads.',
    );
  });

  it('frees quota as files complete or are removed', async () => {
    t = await startTestApp({ dialect, env: { UPLOAD_QUOTA_BYTES: String(PART * 2) } });
    const ada = await signedUp(t);
    const submission = await newSubmission(ada);
    const small = await register(ada, submission, 'logo.png', 1_000);
    const big = await register(ada, submission, 'keynote.mov', PART * 2 - 1_000);
    expect([small.status, big.status]).toEqual([201, 201]);
    expect((await register(ada, submission, 'extra.png', 1_000)).status).toBe(413);

    const put = await fetch(`${t.url}/api/uploads/files/${small.body.file.id}/parts/1`, {
      method: 'PUT',
      headers: { cookie: ada.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
      body: randomBytes(1_000),
    });
    expect(put.status).toBe(200);
    expect((await ada.post(`/api/uploads/files/${small.body.file.id}/complete`, {})).status).toBe(200);
    expect((await register(ada, submission, 'extra.png', 1_000)).status).toBe(201);
    expect((await register(ada, submission, 'more.png', 1)).status).toBe(413);

    const removed = await ada.call('DELETE', `/api/uploads/files/${big.body.file.id}`);
    expect(removed.status).toBe(204);
    expect((await register(ada, submission, 'more.mov', PART * 2 - 1_000)).status).toBe(201);
  });

  it('counts concurrent registrations one after the other: together they stop at the limit', async () => {
    t = await startTestApp({ dialect, env: { UPLOAD_QUOTA_BYTES: String(PART * 3) } });
    const ada = await signedUp(t);
    const submissions = await Promise.all([newSubmission(ada), newSubmission(ada)]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => register(ada, submissions[i % 2]!, `clip-${i}.mov`, PART)),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413, 413, 413]);
  });
});
