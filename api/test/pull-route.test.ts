import { createHash } from 'node:crypto';
import type { PullResponse, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';

/**
 * The show pull's list (issue #31): GET /api/uploads/pull?event=&acceptedOnly=1[&format=csv] answers staff
 * every complete file of one event with its company, client, sha-256, facts and review state; a client is
 * refused in words.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function start(dialect: (typeof DIALECTS)[number]) {
  const t = await startTestApp({ dialect, env: { REVIEW_MAIL_DELAY_SECONDS: '3600' } });
  cleanups.push(() => t.close());
  const { staff } = await signedInStaff(t);
  const a = await registeredClient(t);
  return { t, staff, a };
}

async function sendFile(t: TestApp, who: TestBrowser, submissionId: string, name: string, complete = true) {
  const bytes = Buffer.from(`${name} bytes`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const reg = await who.post<{ file: UploadFileInfo }>(`/api/uploads/submissions/${submissionId}/files`, {
    name,
    size: bytes.length,
    type: 'video/mp4',
    lastModified: 1_700_000_000_000,
    sha256,
  });
  expect(reg.status).toBe(201);
  if (complete) {
    const put = await fetch(`${t.url}/api/uploads/files/${reg.body.file.id}/parts/1`, {
      method: 'PUT',
      headers: { cookie: who.cookieHeader()!, origin: t.url, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(200);
    expect((await who.post(`/api/uploads/files/${reg.body.file.id}/complete`, { sha256 })).status).toBe(200);
  }
  return { id: reg.body.file.id, sha256 };
}

async function submission(
  t: TestApp,
  who: TestBrowser,
  fields: Record<string, string>,
  names: string[],
  incomplete: string[] = [],
) {
  const made = await who.post<{ submission: { id: string } }>('/api/uploads/submissions', {
    form_type: 'sponsor',
    ...fields,
  });
  expect(made.status).toBe(201);
  const id = made.body.submission.id;
  const files: { id: string; sha256: string }[] = [];
  for (const name of names) files.push(await sendFile(t, who, id, name));
  for (const name of incomplete) await sendFile(t, who, id, name, false);
  expect(
    (await who.post(`/api/uploads/submissions/${id}/submit`, { files: files.map((f) => f.id) })).status,
  ).toBe(200);
  return files;
}

describe.each(DIALECTS)('the show pull list (%s)', (dialect) => {
  it('answers staff the event’s complete files, accepted only on request, and as CSV', async () => {
    const { t, staff, a } = await start(dialect);
    const [spot, logo] = await submission(
      t,
      a,
      { event_name: 'Expo 2027', sponsor_company: 'Acme AV' },
      ['spot.mov', '=cmd.png'],
      ['half.mov'],
    );
    await submission(t, a, { event_name: 'Other Show', sponsor_company: 'Acme AV' }, ['other.mov']);
    expect(
      (await staff.put(`/api/uploads/inbox/files/${logo!.id}/review`, { state: 'accepted' })).status,
    ).toBe(200);

    // The event's text matches case and runs of spaces aside, as the inbox's filter does.
    const all = await staff.get<PullResponse>('/api/uploads/pull?event=expo%20%202027');
    expect(all.status).toBe(200);
    expect(all.body.files.map((f) => f.name).sort()).toEqual(['=cmd.png', 'spot.mov']);
    const row = all.body.files.find((f) => f.name === 'spot.mov')!;
    expect(row).toMatchObject({
      id: spot!.id,
      company: 'Acme AV',
      client: 'Ada Lovelace',
      size: Buffer.byteLength('spot.mov bytes'),
      sha256: spot!.sha256,
      reviewState: 'new',
      downloadUrl: `/api/uploads/inbox/files/${spot!.id}/download`,
    });
    expect(Date.parse(row.receivedAt)).not.toBeNaN();

    const accepted = await staff.get<PullResponse>('/api/uploads/pull?event=Expo%202027&acceptedOnly=1');
    expect(accepted.body.files.map((f) => f.name)).toEqual(['=cmd.png']);

    const csv = await fetch(`${t.url}/api/uploads/pull?event=Expo%202027&format=csv`, {
      headers: { cookie: staff.cookieHeader()! },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('manifest-expo-2027.csv');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe('company,client,file,size,sha-256,facts,review state,received');
    expect(lines).toContainEqual(
      expect.stringMatching(/^Acme AV,Ada Lovelace,'=cmd\.png,\d+,[0-9a-f]{64},[^,]*,Accepted,/),
    );

    const none = await staff.get<PullResponse>('/api/uploads/pull?event=No%20such%20show');
    expect(none.body.files).toEqual([]);
    const bare = await staff.get<{ error: { message: string } }>('/api/uploads/pull');
    expect(bare.status).toBe(400);
    expect(bare.body.error.message).toBe('Name the event to pull (event=).');
  });

  it('refuses a client in words and a stranger with 401', async () => {
    const { t, a } = await start(dialect);
    await submission(t, a, { event_name: 'Expo 2027', sponsor_company: 'Acme AV' }, ['spot.mov']);
    const refused = await a.get<{ error: { code: string; message: string } }>(
      '/api/uploads/pull?event=Expo%202027',
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/\w+ \w+/);
    expect(JSON.stringify(refused.body)).not.toContain('spot.mov');
    expect((await new TestBrowser(t.url).get('/api/uploads/pull?event=Expo%202027')).status).toBe(401);
  });
});
