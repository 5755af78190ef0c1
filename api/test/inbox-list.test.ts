import { randomUUID } from 'node:crypto';
import type { InboxPage } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/index.js';
import { startTestApp } from './helpers/app.js';
import { DIALECTS } from './helpers/env.js';
import { signedInStaff } from './helpers/staff.js';

/**
 * The staff inbox list (issue #31): grouped by event (free-text names by their text) then company, counted
 * per group over every matching file, searched and filtered and paged on the server. Rows are seeded
 * straight into the tables (the upload protocol has its own tests); the list is asked over HTTP. The last
 * test prints how long the list call takes over 10,000 files (a figure, not an assertion).
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function start(dialect: (typeof DIALECTS)[number]) {
  const t = await startTestApp({ dialect });
  cleanups.push(() => t.close());
  const { staff } = await signedInStaff(t);
  return { t, staff };
}

interface Seed {
  client: { email: string; first: string; last: string; company: string | null };
  formType: 'creative' | 'event' | 'sponsor';
  fields: Record<string, string>;
  submittedAt: string;
  files: Array<{ name: string; review?: 'new' | 'accepted' | 'needs_new_version'; verdict?: string | null }>;
}

async function seed(db: Database, seeds: Seed[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const users = new Map<string, number>();
  // Files of a submission are listed in the order they were made (created_at, then id): each gets a time of
  // its own, since two made in the same millisecond were ordered by their random ids.
  let made = Date.now();
  for (const s of seeds) {
    let userId = users.get(s.client.email);
    if (userId === undefined) {
      const user = await db.models.User.create({
        email: s.client.email,
        passwordHash: 'x',
        firstName: s.client.first,
        lastName: s.client.last,
        company: s.client.company,
      });
      userId = user.id;
      users.set(s.client.email, userId);
    }
    const submission = await db.models.Submission.create({
      userId,
      formType: s.formType,
      fields: s.fields,
      status: 'submitted',
      submittedAt: new Date(s.submittedAt),
    });
    for (const f of s.files) {
      const id = randomUUID();
      ids.set(f.name, id);
      await db.models.SubmissionFile.create({
        id,
        submissionId: submission.id,
        name: f.name,
        size: 1000,
        type: 'video/mp4',
        sha256: 'ab'.repeat(32),
        partSize: 1000,
        partCount: 1,
        storageKey: `submissions/${submission.id}/${id}`,
        status: 'complete',
        completedAt: new Date(s.submittedAt),
        createdAt: new Date(made++),
        reviewState: f.review ?? 'new',
        checkVerdict: (f.verdict ?? null) as 'ok' | null,
      });
    }
  }
  return ids;
}

const ACME = { email: 'ann@acme.test', first: 'Ann', last: 'Archer', company: 'Acme AV' };
const ZED = { email: 'zoe@zed.test', first: 'Zoe', last: 'Zeller', company: null };
const SEEDS: Seed[] = [
  {
    client: ACME,
    formType: 'sponsor',
    fields: { event_name: 'Expo 2027', sponsor_company: 'Acme AV' },
    submittedAt: '2027-01-10T10:00:00Z',
    files: [
      { name: 'acme-spot.mov', review: 'accepted', verdict: 'ok' },
      { name: 'acme-logo.png', review: 'needs_new_version', verdict: 'warn' },
    ],
  },
  {
    client: ZED,
    formType: 'sponsor',
    // The same event typed another way: grouped with it by its text.
    fields: { event_name: 'expo 2027', sponsor_company: 'Zed Media' },
    submittedAt: '2027-01-12T10:00:00Z',
    files: [{ name: 'zed-bumper.mp4', verdict: 'unreadable' }],
  },
  {
    client: ZED,
    formType: 'event',
    fields: { event_name: 'Gala 2027', speaker_name: 'Zoe Zeller', session_datetime: '2027-02-01T10:00' },
    submittedAt: '2027-01-20T10:00:00Z',
    files: [{ name: 'keynote.key' }],
  },
  {
    client: ACME,
    formType: 'creative',
    fields: { project_name: 'Brand refresh' },
    submittedAt: '2027-01-05T10:00:00Z',
    files: [{ name: 'brand-book.pdf', review: 'accepted' }],
  },
];

const names = (page: InboxPage) =>
  page.groups.flatMap((g) => g.companies.flatMap((c) => c.files.map((f) => f.name)));
const shape = (page: InboxPage) =>
  page.groups.map((g) => [g.event, g.companies.map((c) => [c.company, c.files.map((f) => f.name)])]);

describe.each(DIALECTS)('the inbox list (%s)', (dialect) => {
  it('groups by event then company with counts, and searches, filters and pages on the server', async () => {
    const { t, staff } = await start(dialect);
    await seed(t.db, SEEDS);
    const list = async (query = '') => {
      const res = await staff.get<InboxPage>(`/api/uploads/inbox${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };

    const all = await list();
    expect(shape(all)).toEqual([
      [
        'Expo 2027',
        [
          ['Acme AV', ['acme-spot.mov', 'acme-logo.png']],
          ['Zed Media', ['zed-bumper.mp4']],
        ],
      ],
      ['Gala 2027', [['Zoe Zeller', ['keynote.key']]]],
      ['', [['Acme AV', ['brand-book.pdf']]]],
    ]);
    expect(all.counts).toEqual({ files: 5, accepted: 2, needsNewVersion: 1, new: 2 });
    expect(all.groups[0]!.counts).toEqual({ files: 3, accepted: 1, needsNewVersion: 1, new: 1 });
    expect(all.groups[0]!.companies[0]!.counts).toEqual({
      files: 2,
      accepted: 1,
      needsNewVersion: 1,
      new: 0,
    });
    expect(all.events).toEqual(['Expo 2027', 'Gala 2027']);
    expect(all).toMatchObject({ total: 5, page: 1, pageCount: 1 });

    // Search: file name, client e-mail, company, event; case-insensitive; % is a character, not a wildcard.
    expect(names(await list('?q=BUMPER'))).toEqual(['zed-bumper.mp4']);
    expect(names(await list('?q=ann%40acme'))).toEqual(['acme-spot.mov', 'acme-logo.png', 'brand-book.pdf']);
    expect(names(await list('?q=zed%20media'))).toEqual(['zed-bumper.mp4']);
    expect(names(await list('?q=gala'))).toEqual(['keynote.key']);
    expect(names(await list('?q=%25'))).toEqual([]);

    // Filters.
    expect(names(await list('?formType=creative'))).toEqual(['brand-book.pdf']);
    expect(names(await list('?event=EXPO%202027'))).toEqual([
      'acme-spot.mov',
      'acme-logo.png',
      'zed-bumper.mp4',
    ]);
    expect(names(await list('?review=needs_new_version'))).toEqual(['acme-logo.png']);
    expect(names(await list('?spec=issues'))).toEqual(['acme-logo.png']);
    expect(names(await list('?spec=unreadable'))).toEqual(['zed-bumper.mp4']);
    expect(names(await list('?spec=unknown'))).toEqual(['keynote.key', 'brand-book.pdf']);
    expect(names(await list('?from=2027-01-10&to=2027-01-12'))).toEqual([
      'acme-spot.mov',
      'acme-logo.png',
      'zed-bumper.mp4',
    ]);
    const filtered = await list('?event=Expo%202027&review=new');
    expect(names(filtered)).toEqual(['zed-bumper.mp4']);
    expect(filtered.counts).toEqual({ files: 1, accepted: 0, needsNewVersion: 0, new: 1 });
    // The event list for the filter stays whole while one event is chosen (other filters narrow it).
    const gala = await list('?event=gala%202027');
    expect(gala.counts.files).toBe(1);
    expect(gala.events).toEqual(['Expo 2027', 'Gala 2027']);

    // Paging: two at a time, in the same order; a group split over pages keeps its whole counts.
    const pages = [
      await list('?pageSize=2'),
      await list('?pageSize=2&page=2'),
      await list('?pageSize=2&page=3'),
    ];
    expect(pages.map(names)).toEqual([
      ['acme-spot.mov', 'acme-logo.png'],
      ['zed-bumper.mp4', 'keynote.key'],
      ['brand-book.pdf'],
    ]);
    expect(pages[1]).toMatchObject({ total: 5, pageCount: 3, page: 2 });
    expect(pages[1]!.groups[0]!.counts.files).toBe(3);
    expect(names(await list('?pageSize=2&page=9'))).toEqual([]);

    // Empty parameters, as a form sends them, filter nothing.
    expect(names(await list('?q=&formType=&event=&review=&spec=&from=&to=&page=&pageSize='))).toEqual(
      names(all),
    );

    // One submission, as a staff notice links to it: only its files, whatever else was sent.
    const one = all.groups[0]!.companies[0]!.files[0]!.submission.id;
    const single = await list(`?submission=${one}`);
    expect(single.total).toBeGreaterThan(0);
    expect(
      single.groups.flatMap((g) => g.companies.flatMap((c) => c.files.map((f) => f.submission.id))),
    ).toEqual(Array(single.total).fill(one));
    expect(single.total).toBeLessThan(all.total);

    // Bad input is a 400 in words, never a 500.
    for (const bad of [
      '?page=0',
      '?pageSize=1000',
      '?review=maybe',
      '?spec=x',
      '?from=yesterday',
      '?submission=not-an-id',
    ]) {
      expect((await staff.get(`/api/uploads/inbox${bad}`)).status).toBe(400);
    }
  });

  it('lists only the latest version of a file, with the older ones beside it', async () => {
    const { t, staff } = await start(dialect);
    const ids = await seed(t.db, [SEEDS[0]!]);
    const v1 = ids.get('acme-logo.png')!;
    const old = (await t.db.models.SubmissionFile.findByPk(v1))!;
    const v2 = await t.db.models.SubmissionFile.create({
      submissionId: old.submissionId,
      name: 'acme-logo-v2.png',
      size: 10,
      type: 'image/png',
      partSize: 10,
      partCount: 1,
      storageKey: `${old.storageKey}-2`,
      status: 'complete',
      completedAt: new Date(),
      version: 2,
      replacesFileId: v1,
    });
    const page = (await staff.get<InboxPage>('/api/uploads/inbox')).body;
    expect(names(page)).toEqual(['acme-spot.mov', 'acme-logo-v2.png']);
    const latest = page.groups[0]!.companies[0]!.files[1]!;
    expect(latest).toMatchObject({ id: v2.id, version: 2, review: { state: 'new' } });
    expect(latest.previousVersions.map((v) => v.id)).toEqual([v1]);
    expect(page.counts).toEqual({ files: 2, accepted: 1, needsNewVersion: 0, new: 1 });
  });

  it('answers a page over 10,000 files (prints the time)', async () => {
    const { t, staff } = await start(dialect);
    const users = await t.db.models.User.bulkCreate(
      Array.from({ length: 50 }, (_, i) => ({
        email: `client${i}@bulk.test`,
        passwordHash: 'x',
        firstName: `Client${i}`,
        lastName: 'Bulk',
        company: `Company ${i % 25}`,
      })),
    );
    const submissions = await t.db.models.Submission.bulkCreate(
      Array.from({ length: 1000 }, (_, i) => ({
        id: randomUUID(),
        userId: users[i % 50]!.id,
        formType: 'sponsor' as const,
        fields: { event_name: `Show ${i % 10}`, sponsor_company: `Sponsor ${i % 40}` },
        status: 'submitted' as const,
        submittedAt: new Date(Date.UTC(2027, 0, 1 + (i % 28))),
      })),
    );
    const states = ['new', 'accepted', 'needs_new_version'] as const;
    for (let chunk = 0; chunk < 10; chunk += 1) {
      await t.db.models.SubmissionFile.bulkCreate(
        Array.from({ length: 1000 }, (_, j) => {
          const i = chunk * 1000 + j;
          const s = submissions[i % 1000]!;
          return {
            id: randomUUID(),
            submissionId: s.id,
            name: `file-${i}.mov`,
            size: 1_000_000 + i,
            type: 'video/quicktime',
            sha256: 'cd'.repeat(32),
            partSize: 1_000_000,
            partCount: 2,
            storageKey: `submissions/${s.id}/${i}`,
            status: 'complete' as const,
            completedAt: s.submittedAt,
            reviewState: states[i % 3]!,
          };
        }),
      );
    }
    const timed = async (query: string) => {
      const started = performance.now();
      const res = await staff.get<InboxPage>(`/api/uploads/inbox${query}`);
      const ms = performance.now() - started;
      expect(res.status).toBe(200);
      return { page: res.body, ms };
    };
    await timed('?pageSize=50'); // warm the connection and the statement cache
    const first = await timed('?pageSize=50');
    const deep = await timed('?pageSize=50&page=150');
    const search = await timed('?pageSize=50&q=file-99');
    const filtered = await timed('?pageSize=50&event=Show%203&review=accepted');
    expect(first.page.total).toBe(10_000);
    expect(first.page.groups.flatMap((g) => g.companies.flatMap((c) => c.files))).toHaveLength(50);
    expect(deep.page.page).toBe(150);
    expect(search.page.total).toBe(111); // file-99, file-990…999, file-9900…9999
    console.log(
      `[inbox-list ${dialect}] 10,000 files: first page ${first.ms.toFixed(0)} ms, page 150 ${deep.ms.toFixed(0)} ms, ` +
        `search ${search.ms.toFixed(0)} ms, event+state filter ${filtered.ms.toFixed(0)} ms (${filtered.page.total} files)`,
    );
  });
});
