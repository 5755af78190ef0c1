import type { MediaCheck, MediaFacts, StaffUploadEventResponse, UploadEventsResponse } from '@avp/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookieName } from '../src/modules/accounts/index.js';
import { createSession } from '../src/modules/accounts/sessions.js';
import { upsertStaffAccount } from '../src/modules/accounts/staff-accounts.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { registration, TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';

/**
 * Upload events (issue #30) through the API, as staff and a client use them: create, list, change,
 * archive and restore with validation and an audit row each; the open list the forms read; a submission
 * for an event whose deadline passed refused in words; a file's reported facts checked against the
 * event's spec at registration (a block refused with its issues, a warning recorded).
 */

type Err = { error: { code: string; message: string; fields?: Record<string, string>; issues?: string[] } };

const FULL_HD_BLOCK = {
  containers: ['MP4', 'MOV'],
  videoCodecs: ['H.264'],
  resolutions: [{ width: 1920, height: 1080 }],
  frameRates: [],
  minDurationSeconds: null,
  maxDurationSeconds: 30,
  audio: null,
  maxSizeBytes: null,
  onMismatch: 'block',
};
const HD_CLIP: MediaFacts = {
  kind: 'video',
  container: 'MP4',
  videoCodec: 'H.264',
  width: 1280,
  height: 720,
  fps: 25,
  durationSeconds: 5,
  audio: { codec: 'AAC', channels: 2, sampleRate: 48000 },
  sizeBytes: 5,
};
const FULL_HD_CLIP: MediaFacts = { ...HD_CLIP, width: 1920, height: 1080 };

function event(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Expo 2099',
    startsOn: '2099-03-03',
    endsOn: '2099-03-05',
    timeZone: 'America/New_York',
    deadline: '2099-03-01T17:00',
    specs: { creative: null, event: null, sponsor: FULL_HD_BLOCK },
    ...overrides,
  };
}

describe.each(DIALECTS)('upload events (%s)', (dialect) => {
  let t: TestApp;
  let staff: TestBrowser;
  let client: TestBrowser;

  beforeAll(async () => {
    t = await startTestApp({ dialect });
    const { user } = await upsertStaffAccount(t.db, {
      email: 'grace@example.com',
      password: 'Staff passphrase 9',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const { token } = await createSession(t.db, t.config, user.id, {
      ip: null,
      userAgent: null,
      via: 'cookie',
    });
    staff = new TestBrowser(t.url);
    staff.cookies.set(sessionCookieName(t.config), token);
    client = new TestBrowser(t.url);
    expect((await client.post('/api/auth/register', registration())).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: unknown) =>
    staff.post<StaffUploadEventResponse & Err>('/api/staff/upload-events', body);

  it('staff create an event; its deadline reads in its own zone; the audit log has it', async () => {
    const res = await create(event());
    expect(res.status).toBe(201);
    expect(res.body.event).toMatchObject({
      name: 'Expo 2099',
      timeZone: 'America/New_York',
      deadline: '2099-03-01T22:00:00.000Z',
      deadlineText: 'Mar 1, 2099, 5:00 PM EST',
      deadlineLocal: '2099-03-01T17:00',
      open: true,
      archivedAt: null,
      specs: { creative: null, event: null, sponsor: { resolutions: [{ width: 1920, height: 1080 }] } },
    });
    const audit = await staff.get<{ entries: Array<{ action: string; entityId: string }> }>(
      '/api/staff/audit',
    );
    expect(audit.body.entries[0]).toMatchObject({
      action: 'upload_event_create',
      entityId: res.body.event.id,
    });
  });

  it('refuses bad input field by field, and a name an open event has (case and spaces aside)', async () => {
    const bad = await create({
      name: '  ',
      startsOn: '2099-03-05',
      endsOn: '2099-03-03',
      timeZone: 'Mars/Olympus',
      deadline: 'tomorrow',
      specs: { sponsor: { ...FULL_HD_BLOCK, resolutions: [{ width: 0, height: 1080 }] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({
      name: 'Please enter the event name.',
      endsOn: 'The last day cannot be before the first day.',
      timeZone: 'This is not a time zone we know (e.g. America/New_York).',
      deadline: 'Please enter the deadline as a date and a time.',
    });
    expect(Object.keys(bad.body.error.fields!).some((k) => k.startsWith('specs.sponsor.resolutions'))).toBe(
      true,
    );
    const long = await create(event({ name: 'x'.repeat(121) }));
    expect(long.body.error.fields?.name).toBe('Please use at most 120 characters.');
    // 2:30 AM on the day New York's clocks spring forward does not exist.
    const skipped = await create(event({ name: 'Gap', deadline: '2099-03-08T02:30' }));
    expect(skipped.status).toBe(400);
    expect(skipped.body.error.fields?.deadline).toMatch(/does not exist/);
    const taken = await create(event({ name: '  expo   2099 ' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe('Another event that is not archived already has this name.');
  });

  it('lists open events to signed-in accounts only; archive hides one, restore brings it back', async () => {
    const other = (await create(event({ name: 'Summit 2099', deadline: '2099-02-01T09:00' }))).body.event;
    expect((await new TestBrowser(t.url).get('/api/upload-events')).status).toBe(401);
    const names = async () =>
      (await client.get<UploadEventsResponse>('/api/upload-events')).body.events.map((e) => e.name);
    expect(await names()).toEqual(['Summit 2099', 'Expo 2099']);
    const archived = await staff.post<StaffUploadEventResponse>(
      `/api/staff/upload-events/${other.id}/archive`,
      {},
    );
    expect(archived.body.event).toMatchObject({ open: false, archivedAt: expect.any(String) });
    expect(await names()).toEqual(['Expo 2099']);
    // Its name is free again while it is archived: a new event takes it, and the old one cannot come back.
    const again = await create(event({ name: 'summit 2099' }));
    expect(again.status).toBe(201);
    const restore = await staff.post<Err>(`/api/staff/upload-events/${other.id}/restore`, {});
    expect(restore.status).toBe(409);
    await staff.post(`/api/staff/upload-events/${again.body.event.id}/archive`, {});
    const restored = await staff.post<StaffUploadEventResponse>(
      `/api/staff/upload-events/${other.id}/restore`,
      {},
    );
    expect(restored.body.event).toMatchObject({ open: true, archivedAt: null });
    const all = await staff.get<{ events: Array<{ name: string; archivedAt: string | null }> }>(
      '/api/staff/upload-events',
    );
    expect(all.body.events.map((e) => [e.name, e.archivedAt === null])).toEqual(
      expect.arrayContaining([
        ['Summit 2099', true],
        ['summit 2099', false],
      ]),
    );
    const actions = (
      await staff.get<{ entries: Array<{ action: string }> }>('/api/staff/audit')
    ).body.entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['upload_event_archive', 'upload_event_restore']));
  });

  it('PATCH changes only the fields it names; an unknown id is 404; clients cannot change events', async () => {
    const made = (await create(event({ name: 'Patch Me' }))).body.event;
    const res = await staff.call<StaffUploadEventResponse>('PATCH', `/api/staff/upload-events/${made.id}`, {
      deadline: '2099-02-28T09:30',
      specs: { creative: { ...FULL_HD_BLOCK, onMismatch: 'warn' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({
      name: 'Patch Me',
      deadlineText: 'Feb 28, 2099, 9:30 AM EST',
      specs: { creative: { onMismatch: 'warn' }, sponsor: { onMismatch: 'block' } },
    });
    const missing = await staff.call(
      'PATCH',
      '/api/staff/upload-events/8a3c1c7e-0000-4000-8000-000000000000',
      {},
    );
    expect(missing.status).toBe(404);
    expect((await client.post('/api/staff/upload-events', event({ name: 'Mine' }))).status).toBe(403);
    expect((await client.call('PATCH', `/api/staff/upload-events/${made.id}`, { name: 'Mine' })).status).toBe(
      403,
    );
  });

  it("refuses a submission for an event whose deadline has passed, naming it in the event's zone", async () => {
    const closed = await create(
      event({
        name: 'Gala 2020',
        startsOn: '2020-03-10',
        endsOn: '2020-03-10',
        deadline: '2020-03-03T17:00',
      }),
    );
    expect(closed.body.event.open).toBe(false);
    const res = await client.post<Err>('/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: ' gala 2020 ',
      sponsor_company: 'Acme AV',
    });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('Uploads for Gala 2020 closed on Mar 3, 2020, 5:00 PM EST.');
    // Free text is allowed and carries no spec.
    const free = await client.post('/api/uploads/submissions', {
      form_type: 'sponsor',
      event_name: 'Gala 2020 afterparty',
      sponsor_company: 'Acme AV',
    });
    expect(free.status).toBe(201);
  });

  async function submissionFor(eventName: string, formType = 'sponsor'): Promise<string> {
    const res = await client.post<{ submission: { id: string } }>('/api/uploads/submissions', {
      form_type: formType,
      event_name: eventName,
      sponsor_company: 'Acme AV',
    });
    expect(res.status).toBe(201);
    return res.body.submission.id;
  }
  const register = (submissionId: string, name: string, facts: MediaFacts | null | undefined) =>
    client.post<{ file: { id: string; check?: MediaCheck } } & Err & { check?: MediaCheck }>(
      `/api/uploads/submissions/${submissionId}/files`,
      { name, size: 5, lastModified: 1, ...(facts === undefined ? {} : { facts }) },
    );

  it('registration: a blocking spec refuses a wrong file with its issues; a matching one passes', async () => {
    const submissionId = await submissionFor('EXPO 2099');
    const refused = await register(submissionId, 'spot.mp4', HD_CLIP);
    expect(refused.status).toBe(422);
    expect(refused.body.error.issues).toEqual(['The screens need 1920×1080; this file is 1280×720.']);
    expect(refused.body.check).toEqual({
      verdict: 'block',
      issues: ['The screens need 1920×1080; this file is 1280×720.'],
    });
    expect(await t.db.models.SubmissionFile.count({ where: { submissionId } })).toBe(0);
    const ok = await register(submissionId, 'spot-hd.mp4', FULL_HD_CLIP);
    expect(ok.status).toBe(201);
    expect(ok.body.file.check).toEqual({ verdict: 'ok', issues: [] });
    // A file the client could not read is never blocked for that alone.
    const unreadable = await register(submissionId, 'odd.bin', null);
    expect(unreadable.status).toBe(201);
    expect(unreadable.body.file.check).toEqual({ verdict: 'unreadable', issues: [] });
  });

  it('after the deadline a submission takes no new file; one registered before it resumes', async () => {
    const made = await create(event({ name: 'Closing Soon', specs: {} }));
    const submissionId = await submissionFor('Closing Soon');
    const before = await register(submissionId, 'early.mov', undefined);
    expect(before.status).toBe(201);
    await t.db.models.UploadEvent.update(
      { deadline: new Date(Date.now() - 60_000) },
      { where: { id: made.body.event.id } },
    );
    const late = await register(submissionId, 'late.mov', undefined);
    expect(late.status).toBe(422);
    expect(late.body.error.message).toMatch(
      /^Uploads for Closing Soon closed on [A-Z][a-z]{2} \d{1,2}, \d{4}, /,
    );
    const resumed = await register(submissionId, 'early.mov', undefined);
    expect(resumed.status).toBe(200);
    expect(resumed.body.file.id).toBe(before.body.file.id);
  });

  it('registration: a warning spec records the issues with the file; free text has no check', async () => {
    const warnEvent = await create(
      event({ name: 'Warn Fest', specs: { sponsor: { ...FULL_HD_BLOCK, onMismatch: 'warn' } } }),
    );
    expect(warnEvent.status).toBe(201);
    const submissionId = await submissionFor('Warn Fest');
    const warned = await register(submissionId, 'spot.mp4', HD_CLIP);
    expect(warned.status).toBe(201);
    expect(warned.body.file.check).toEqual({
      verdict: 'warn',
      issues: ['The screens need 1920×1080; this file is 1280×720.'],
    });
    const row = await t.db.models.SubmissionFile.findByPk(warned.body.file.id);
    expect(row?.checkVerdict).toBe('warn');
    const facts = await t.db.models.MediaFacts.findOne({
      where: { fileId: warned.body.file.id, source: 'client' },
    });
    expect(facts).toMatchObject({ width: 1280, height: 720, videoCodec: 'H.264', verdict: 'warn' });
    const free = await submissionFor('A show nobody defined');
    const anything = await register(free, 'spot.mp4', HD_CLIP);
    expect(anything.status).toBe(201);
    expect(anything.body.file.check).toEqual({ verdict: 'ok', issues: [] });
  });
});
