import { createHash } from 'node:crypto';
import { REVIEW_MESSAGE_REQUIRED, REVIEW_MESSAGE_TOO_LONG } from '@avp/shared';
import type { InboxFile, InboxPage, MineResponse, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION_ACCEPTED, VERSION_SUPERSEDED } from '../src/modules/uploads/versions.js';
import { REVIEW_SUPERSEDED } from '../src/modules/uploads/reviews.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';

/**
 * Review states and new versions (issue #31) through the HTTP API: staff move a file between New,
 * Accepted and Needs a new version (audited, a message required for the last); clients and strangers
 * cannot; the owner alone sends a new version of a file that is not accepted, the older one kept, staff
 * told; /api/uploads/mine shows the caller's own; one client e-mail per review round.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

const WHY = 'The spot runs 45 s; the slot is 30 s.';

async function start(dialect: (typeof DIALECTS)[number], env: Record<string, string> = {}) {
  const t = await startTestApp({ dialect, env: { REVIEW_MAIL_DELAY_SECONDS: '3600', ...env } });
  cleanups.push(() => t.close());
  const { staff, staffId } = await signedInStaff(t);
  const a = await registeredClient(t);
  const b = await registeredClient(t, { email: 'bob@example.com', firstname: 'Bob' });
  return { t, staff, a, b, staffId };
}

/** Registers, sends (one part) and completes a small file over the protocol; answers the registration. */
async function sendFile(
  t: TestApp,
  who: TestBrowser,
  submissionId: string,
  name: string,
  extra: Record<string, unknown> = {},
) {
  const bytes = Buffer.from(`${name} ${JSON.stringify(extra)} bytes`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const reg = await who.post<{ file: UploadFileInfo; error?: { code: string; message: string } }>(
    `/api/uploads/submissions/${submissionId}/files`,
    { name, size: bytes.length, type: 'video/mp4', lastModified: 1_700_000_000_000, sha256, ...extra },
  );
  if (reg.status !== 201) return reg;
  const put = await fetch(`${t.url}/api/uploads/files/${reg.body.file.id}/parts/1`, {
    method: 'PUT',
    headers: { cookie: who.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  expect(put.status).toBe(200);
  expect((await who.post(`/api/uploads/files/${reg.body.file.id}/complete`, { sha256 })).status).toBe(200);
  return reg;
}

/** A sent sponsor submission of `who` with these files; answers its id and the files' ids. */
async function submission(t: TestApp, who: TestBrowser, names: string[]) {
  const made = await who.post<{ submission: { id: string } }>('/api/uploads/submissions', {
    form_type: 'sponsor',
    event_name: 'Expo 2027',
    sponsor_company: 'Acme AV',
  });
  expect(made.status).toBe(201);
  const id = made.body.submission.id;
  const ids: string[] = [];
  for (const name of names) ids.push((await sendFile(t, who, id, name)).body.file.id);
  expect((await who.post(`/api/uploads/submissions/${id}/submit`, { files: ids })).status).toBe(200);
  return { id, ids };
}

const review = (who: TestBrowser, fileId: string, body: unknown) =>
  who.put<{ file: InboxFile; error?: { code: string; message: string } }>(
    `/api/uploads/inbox/files/${fileId}/review`,
    body,
  );

function inboxFiles(page: InboxPage): InboxFile[] {
  return page.groups.flatMap((g) => g.companies.flatMap((c) => c.files));
}

describe.each(DIALECTS)('file reviews (%s)', (dialect) => {
  it('staff move a file between states, audited; a client, another client and a stranger cannot', async () => {
    const { t, staff, a, b } = await start(dialect);
    const { ids } = await submission(t, a, ['spot.mov', 'logo.png']);
    const [spot, logo] = ids as [string, string];

    expect((await review(new TestBrowser(t.url), spot, { state: 'accepted' })).status).toBe(401);
    expect((await review(a, spot, { state: 'accepted' })).status).toBe(403);
    expect((await review(b, spot, { state: 'accepted' })).status).toBe(403);

    const bare = await review(staff, spot, { state: 'needs_new_version' });
    expect(bare.status).toBe(400);
    expect(JSON.stringify(bare.body)).toContain(REVIEW_MESSAGE_REQUIRED);
    const long = await review(staff, spot, { state: 'needs_new_version', message: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain(REVIEW_MESSAGE_TOO_LONG);
    expect((await review(staff, spot, { state: 'approved' })).status).toBe(400);
    expect((await review(staff, '00000000-0000-4000-8000-000000000000', { state: 'accepted' })).status).toBe(
      404,
    );

    const needs = await review(staff, spot, { state: 'needs_new_version', message: WHY });
    expect(needs.status).toBe(200);
    expect(needs.body.file.review).toMatchObject({ state: 'needs_new_version', message: WHY });
    const ok = await review(staff, logo, { state: 'accepted', message: 'Looks great.' });
    expect(ok.body.file.review.state).toBe('accepted');

    const audit = await t.db.models.AuditLog.findAll({
      where: { action: 'upload_file_review' },
      order: [['id', 'ASC']],
    });
    expect(audit.map((r) => (r.before as { sentence: string }).sentence)).toEqual([
      `Review of "spot.mov": New → Needs a new version ("${WHY}").`,
      'Review of "logo.png": New → Accepted ("Looks great.").',
    ]);

    // Nothing changed for the files by the refused calls: the inbox shows the two states.
    const page = (await staff.get<InboxPage>('/api/uploads/inbox')).body;
    expect(inboxFiles(page).map((f) => [f.name, f.review.state])).toEqual([
      ['spot.mov', 'needs_new_version'],
      ['logo.png', 'accepted'],
    ]);
    expect(page.counts).toEqual({ files: 2, accepted: 1, needsNewVersion: 1, new: 0 });
  });

  it('the owner alone sends a new version of a file not accepted; the old one is kept; staff are told', async () => {
    const { t, staff, a, b } = await start(dialect);
    const { id, ids } = await submission(t, a, ['spot.mov', 'logo.png']);
    const [spot, logo] = ids as [string, string];
    await review(staff, spot, { state: 'needs_new_version', message: WHY });
    await review(staff, logo, { state: 'accepted' });

    // Another client: the submission and the file are theirs to not know of.
    const stranger = await b.post(`/api/uploads/submissions/${id}/files`, {
      name: 'spot-30s.mov',
      size: 10,
      lastModified: 1,
      replaces: spot,
    });
    expect(stranger.status).toBe(404);
    const accepted = await sendFile(t, a, id, 'logo-2.png', { replaces: logo });
    expect(accepted.status).toBe(409);
    expect(accepted.body.error?.message).toBe(VERSION_ACCEPTED);

    const v2 = await sendFile(t, a, id, 'spot-30s.mov', { replaces: spot });
    expect(v2.status).toBe(201);
    const again = await sendFile(t, a, id, 'spot-other.mov', { replaces: spot });
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(VERSION_SUPERSEDED);

    const files = inboxFiles((await staff.get<InboxPage>('/api/uploads/inbox')).body);
    const latest = files.find((f) => f.name === 'spot-30s.mov')!;
    expect(latest).toMatchObject({
      version: 2,
      replacesFileId: spot,
      review: { state: 'new', message: null },
    });
    expect(latest.previousVersions.map((v) => [v.id, v.version])).toEqual([[spot, 1]]);
    expect(files.map((f) => f.name).sort()).toEqual(['logo.png', 'spot-30s.mov']);
    // The older version is kept and still downloads; it can no longer be reviewed.
    expect((await staff.get(`/api/uploads/inbox/files/${spot}/download`)).status).toBe(200);
    const old = await review(staff, spot, { state: 'accepted' });
    expect(old.status).toBe(409);
    expect(old.body.error?.message).toBe(REVIEW_SUPERSEDED);

    const notice = await t.db.models.MailOutbox.findOne({
      where: { toAddress: t.config.STAFF_EMAIL },
      order: [['id', 'DESC']],
    });
    expect(notice!.subject).toBe('New version: spot-30s.mov (v2) from Ada Lovelace (Analytical Engines Ltd)');
  });

  it('/api/uploads/mine: the caller’s own submissions with states and messages', async () => {
    const { t, staff, a, b } = await start(dialect);
    const { id, ids } = await submission(t, a, ['spot.mov']);
    await review(staff, ids[0]!, { state: 'needs_new_version', message: WHY });

    expect((await new TestBrowser(t.url).get('/api/uploads/mine')).status).toBe(401);
    expect((await b.get<MineResponse>('/api/uploads/mine')).body.submissions).toEqual([]);
    const mine = (await a.get<MineResponse>('/api/uploads/mine')).body.submissions;
    expect(mine).toHaveLength(1);
    expect(mine[0]!.id).toBe(id);
    expect(mine[0]!.files).toEqual([
      expect.objectContaining({
        name: 'spot.mov',
        version: 1,
        canReplace: true,
        review: expect.objectContaining({ state: 'needs_new_version', message: WHY }),
      }),
    ]);
  });

  it('one client e-mail per review round: changes while it waits join it; a round already sent is not rewritten', async () => {
    const { t, staff, a } = await start(dialect);
    const { ids } = await submission(t, a, ['spot.mov', 'logo.png']);
    const toClient = () =>
      t.db.models.MailOutbox.findAll({ where: { toAddress: 'ada@example.com' }, order: [['id', 'ASC']] });
    const before = (await toClient()).length; // the receipt
    // Two staff members at once: still one round.
    await Promise.all([
      review(staff, ids[0]!, { state: 'accepted' }),
      review(staff, ids[1]!, { state: 'accepted' }),
    ]);
    await review(staff, ids[0]!, { state: 'needs_new_version', message: WHY });
    let mails = (await toClient()).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('A file needs a new version');
    expect(mails[0]!.textBody).toContain(`- spot.mov: Needs a new version\n  ${WHY}`);
    expect(mails[0]!.textBody).toContain('- logo.png: Accepted');
    expect(mails[0]!.textBody).toContain(`${t.config.PUBLIC_URL}/client`);
    // Due after the delay (3600 s here), not now.
    expect(mails[0]!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);

    // The worker took it: the next change is a new round.
    await mails[0]!.update({ status: 'sent', sentAt: new Date() });
    await review(staff, ids[0]!, { state: 'accepted' });
    mails = (await toClient()).slice(before);
    expect(mails).toHaveLength(2);
    expect(mails[0]!.textBody).toContain('Needs a new version');
    expect(mails[1]!.subject).toBe('We reviewed your files');
    expect(mails[1]!.textBody).toContain('- spot.mov: Accepted');
  });
});
