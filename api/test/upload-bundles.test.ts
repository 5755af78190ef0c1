import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { ClientRequest } from 'node:http';
import { UPLOAD_BUNDLE_MAX_BYTES, UPLOAD_BUNDLE_MAX_FILES } from '@avp/shared';
import type { BatchRegistrationItem, BundleItem, SubmissionInfo, UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { probesSettled } from '../src/modules/uploads/media-probe.js';
import { postersSettled } from '../src/modules/uploads/posters.js';
import { startPeerApp, startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import type { TestBrowser } from './helpers/browser.js';
import { DIALECTS } from './helpers/env.js';
import { registeredClient, signedInStaff } from './helpers/staff.js';
import { sponsorForm } from './helpers/uploads.js';

/**
 * Bundles (issue #34): many small files, whole, in one request (POST /api/uploads/bundles?files=…), each
 * stored and completed as its own part PUT with ?sha256= would be, one refused file not refusing the rest.
 */

type Err = { error: { code: string; message: string } };
type BundleAnswer = { files: BundleItem[] } & Err;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function registered(browser: TestBrowser, sizes: number[]) {
  const created = await browser.post<{ submission: SubmissionInfo }>('/api/uploads/submissions', sponsorForm);
  expect(created.status).toBe(201);
  const submissionId = created.body.submission.id;
  const answer = await browser.post<{ files: BatchRegistrationItem[] }>(
    `/api/uploads/submissions/${submissionId}/files/batch`,
    {
      files: sizes.map((size, i) => ({ name: `still-${i}.jpg`, size, type: 'image/jpeg', lastModified: i })),
    },
  );
  expect(answer.status).toBe(200);
  const files = answer.body.files.map((item) => {
    if (!('file' in item)) throw new Error(JSON.stringify(item));
    return { ...item.file, bytes: randomBytes(item.file.size) };
  });
  return { submissionId, files };
}

type Entry = { id: string; size: number; sha: string };
const entry = (f: { id: string; bytes: Buffer }, sha = sha256(f.bytes)): Entry => ({
  id: f.id,
  size: f.bytes.length,
  sha,
});
const list = (entries: Entry[]) => entries.map((e) => `${e.id}:${e.size}:${e.sha}`).join(',');

/** A bundle over node:http: its status, its answer, and whether the server kept the connection. */
function sendBundle(
  app: TestApp,
  browser: TestBrowser,
  files: string,
  body: Buffer,
  headers: Record<string, string | number> = {},
  /** How the body goes out: all at once unless told otherwise. */
  send: (req: ClientRequest, body: Buffer) => void = (req, all) => req.end(all),
): Promise<{ status: number; body: BundleAnswer; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}/api/uploads/bundles?files=${encodeURIComponent(files)}`, {
      method: 'POST',
      headers: {
        cookie: browser.cookieHeader()!,
        origin: app.url,
        'content-type': 'application/octet-stream',
        'content-length': body.length,
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: JSON.parse(Buffer.concat(parts).toString('utf8')) as BundleAnswer,
          connection: res.headers.connection,
        }),
      );
    });
    send(req, body);
  });
}

async function fileStatus(browser: TestBrowser, id: string) {
  const res = await browser.get<{ file: UploadFileInfo } & Err>(`/api/uploads/files/${id}`);
  return res.status === 200 ? res.body.file : res.body.error.code;
}

describe.each(DIALECTS)('upload bundles on %s', (dialect) => {
  it('stores and completes every file of a bundle, its bytes intact, on a connection kept open', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const { submissionId, files } = await registered(ada, [1, 70_000, 1_048_576, 5_000, 300_001]);
    const answer = await sendBundle(
      t,
      ada,
      list(files.map((f) => entry(f))),
      Buffer.concat(files.map((f) => f.bytes)),
    );
    expect(answer.status).toBe(200);
    expect(answer.connection).not.toBe('close');
    expect(answer.body.files.map((i) => [i.id, i.file?.status, i.file?.sha256, i.error])).toEqual(
      files.map((f) => [f.id, 'complete', sha256(f.bytes), undefined]),
    );

    // The files were claimed together and are given back together: no claim is left behind.
    const [claims] = await t.db.sequelize.query('SELECT file_id FROM upload_claims');
    expect(claims).toEqual([]);

    // Staff download exactly what was sent.
    expect((await ada.post(`/api/uploads/submissions/${submissionId}/submit`, {})).status).toBe(200);
    const { staff } = await signedInStaff(t);
    for (const f of files) {
      const res = await fetch(`${t.url}/api/uploads/inbox/files/${f.id}/download`, {
        headers: { cookie: staff.cookieHeader()! },
      });
      expect(res.status).toBe(200);
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(f.bytes));
    }
  });

  it('answers each file on its own: refused files are skipped, the others complete', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const bob = await registeredClient(t, { email: 'bob@example.com' });
    const mine = await registered(ada, [4_000, 5_000, 6_000, 7_000, 8_000]);
    const theirs = await registered(bob, [3_000]);
    const [a, b, c, d, e] = mine.files as [
      (typeof mine.files)[0],
      (typeof mine.files)[0],
      (typeof mine.files)[0],
      (typeof mine.files)[0],
      (typeof mine.files)[0],
    ];
    const bobs = theirs.files[0]!;

    // d is complete already (sent alone): named again with its checksum, it answers as the first time.
    const first = await sendBundle(t, ada, list([entry(d)]), d.bytes);
    expect(first.body.files[0]!.file?.status).toBe('complete');

    const wrongSize = { ...entry(e), size: e.bytes.length - 1 };
    const entries = [
      entry(a),
      entry(bobs),
      entry(b, sha256(Buffer.from('not these bytes'))),
      entry(d),
      wrongSize,
      entry(c),
    ];
    const body = Buffer.concat([a.bytes, bobs.bytes, b.bytes, d.bytes, e.bytes.subarray(1), c.bytes]);
    const answer = await sendBundle(t, ada, list(entries), body);
    expect(answer.status).toBe(200);
    expect(answer.body.files.map((i) => [i.id, i.file?.status ?? i.error?.code])).toEqual([
      [a.id, 'complete'],
      [bobs.id, 'file_not_found'],
      [b.id, 'checksum_mismatch'],
      [d.id, 'complete'],
      [e.id, 'bad_part_size'],
      [c.id, 'complete'],
    ]);
    expect(answer.body.files[2]!.error).toMatchObject({ status: 422 });

    // Bob's file is untouched; b starts over; e was never written; a, c and d hold their own bytes.
    expect(await fileStatus(bob, bobs.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    expect(await fileStatus(ada, b.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    expect(await fileStatus(ada, e.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    for (const f of [a, c, d]) {
      expect(await fileStatus(ada, f.id)).toMatchObject({ status: 'complete', sha256: sha256(f.bytes) });
    }
    // Bob cannot complete Ada's files through a bundle either.
    const stolen = await sendBundle(t, bob, list([entry(e)]), e.bytes);
    expect(stolen.body.files[0]!.error?.code).toBe('file_not_found');
    expect(await fileStatus(ada, e.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
  });

  it('refuses a bad list before reading a byte', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const { files } = await registered(ada, [10, 20]);
    const [a, b] = files as [(typeof files)[0], (typeof files)[0]];
    const both = Buffer.concat([a.bytes, b.bytes]);
    const refused = async (files: string, body: Buffer, headers?: Record<string, string>) => {
      const answer = await sendBundle(t!, ada, files, body, headers);
      return [answer.status, answer.body.error?.code];
    };
    expect(await refused('', both)).toEqual([400, 'bad_bundle']);
    expect(await refused(`${a.id}:10`, a.bytes)).toEqual([400, 'bad_bundle']);
    expect(await refused(list([entry(a), entry(a)]), Buffer.concat([a.bytes, a.bytes]))).toEqual([
      400,
      'bad_bundle',
    ]);
    expect(await refused(list([entry(a), entry(b)]), both.subarray(1))).toEqual([400, 'bad_bundle']);
    expect(await refused(`not-an-id:10:${sha256(a.bytes)}`, a.bytes)).toEqual([400, 'bad_bundle']);
    expect(await refused(`${a.id}:10:XYZ`, a.bytes)).toEqual([400, 'validation_failed']);
    expect(await refused(`${a.id}:0:${sha256(a.bytes)}`, Buffer.alloc(0))).toEqual([400, 'bad_bundle']);
    const many = Array.from({ length: UPLOAD_BUNDLE_MAX_FILES + 1 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      size: 1,
      sha: sha256(a.bytes),
    }));
    expect(await refused(list(many), Buffer.alloc(many.length))).toEqual([400, 'bad_bundle']);
    const huge = `${a.id}:${UPLOAD_BUNDLE_MAX_BYTES + 1}:${sha256(a.bytes)}`;
    expect(await refused(huge, Buffer.alloc(UPLOAD_BUNDLE_MAX_BYTES + 1))).toEqual([400, 'bad_bundle']);
    expect(await refused(list([entry(a)]), a.bytes, { 'content-type': 'text/plain' })).toEqual([
      415,
      'unsupported_media_type',
    ]);
    // None of it stored anything.
    for (const f of [a, b]) {
      expect(await fileStatus(ada, f.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    }
    const anonymous = await fetch(`${t.url}/api/uploads/bundles?files=${list([entry(a)])}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: a.bytes,
    });
    expect(anonymous.status).toBe(401);
  });

  it('keeps the files before a cut, and frees the one cut for its next try', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const { files } = await registered(ada, [200_000, 900_000, 300_000]);
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const body = Buffer.concat([a.bytes, b.bytes, c.bytes]);
    // The client goes away half-way through b.
    await new Promise<void>((resolve) => {
      const req = request(`${t!.url}/api/uploads/bundles?files=${list([entry(a), entry(b), entry(c)])}`, {
        method: 'POST',
        headers: {
          cookie: ada.cookieHeader()!,
          origin: t!.url,
          'content-type': 'application/octet-stream',
          'content-length': body.length,
        },
      });
      req.on('error', () => resolve());
      req.write(body.subarray(0, a.bytes.length + 400_000), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 300);
      });
    });
    // The server notices the cut when the socket closes: a is already complete by then.
    for (let i = 0; i < 100; i++) {
      const now = await fileStatus(ada, a.id);
      if (typeof now !== 'string' && now.status === 'complete') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await fileStatus(ada, a.id)).toMatchObject({ status: 'complete', sha256: sha256(a.bytes) });
    expect(await fileStatus(ada, b.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    expect(await fileStatus(ada, c.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
    for (let i = 0; i < 100; i++) {
      const [left] = await t.db.sequelize.query('SELECT file_id FROM upload_claims');
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const [left] = await t.db.sequelize.query('SELECT file_id FROM upload_claims');
    expect(left).toEqual([]);

    // b and c come again, at once: nothing of the cut write holds them.
    const again = await sendBundle(t, ada, list([entry(b), entry(c)]), Buffer.concat([b.bytes, c.bytes]));
    expect(again.body.files.map((i) => i.file?.status ?? i.error?.code)).toEqual(['complete', 'complete']);
  });

  it('looks at its files once, together, and answers a file its owner removed mid-bundle as gone', async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const { files } = await registered(ada, [300_000, 200_000, 100_000]);
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    let looks = 0;
    t.db.sequelize.addHook('afterQuery', (_options, query) => {
      if (/only_part_writing/.test((query as { sql?: string }).sql ?? '')) looks++;
    });
    let removedStatus = 0;
    const answer = sendBundle(
      t,
      ada,
      list([entry(a), entry(b), entry(c)]),
      Buffer.concat([a.bytes, b.bytes, c.bytes]),
      {},
      (req, body) =>
        // a whole, then nothing until b is removed.
        req.write(body.subarray(0, a.bytes.length), async () => {
          for (let i = 0; i < 100; i++) {
            const now = await fileStatus(ada, a.id);
            if (typeof now !== 'string' && now.status === 'complete') break;
            await new Promise((r) => setTimeout(r, 20));
          }
          removedStatus = (await ada.call('DELETE', `/api/uploads/files/${b.id}`)).status;
          req.end(body.subarray(a.bytes.length));
        }),
    );
    const { status, body: answered } = await answer;
    expect(removedStatus).toBe(204);
    expect(status).toBe(200);
    expect(answered.files.map((i) => i.file?.status ?? i.error?.code)).toEqual([
      'complete',
      'file_not_found',
      'complete',
    ]);
    expect(await fileStatus(ada, c.id)).toMatchObject({ status: 'complete', sha256: sha256(c.bytes) });
    // One look at the three files, taken with their claims held; none of its own per file.
    expect(looks).toBe(1);
  });

  it("records every file's facts and poster mark, a few files to a statement, a row another process stored kept", async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    // Random bytes: no reader knows them, so each file's reading is its head alone, handed over by its write.
    const { files } = await registered(
      ada,
      [70_000, 80_000, 90_000, 100_000, 110_000, 120_000, 130_000, 140_000],
    );
    const ids = files.map((f) => f.id);
    const statements: string[] = [];
    t.db.sequelize.addHook('afterQuery', (_options, query) => {
      const sql = (query as { sql?: string }).sql ?? '';
      if (/INSERT INTO media_facts/.test(sql)) statements.push('facts');
      if (/SET poster_state = 'none'/.test(sql)) statements.push('poster');
      if (/SET status = 'complete'/.test(sql)) statements.push('complete');
    });
    const serverRows = async (of: string[]) => {
      const [rows] = await t!.db.sequelize.query(
        `SELECT file_id, container, readable FROM media_facts WHERE source = 'server' AND file_id IN (:of)`,
        { replacements: { of } },
      );
      return new Map(
        (rows as { file_id: string; container: string | null; readable: unknown }[]).map((r) => [
          r.file_id,
          r,
        ]),
      );
    };
    const posterStates = async (of: string[]) => {
      const [marks] = await t!.db.sequelize.query(
        'SELECT id, poster_state FROM submission_files WHERE id IN (:of)',
        { replacements: { of } },
      );
      return (marks as { poster_state: string }[]).map((m) => m.poster_state);
    };
    const send = async (sent: typeof files) => {
      const answer = await sendBundle(
        t!,
        ada,
        list(sent.map((f) => entry(f))),
        Buffer.concat(sent.map((f) => f.bytes)),
      );
      expect(answer.body.files.map((i) => i.file?.status)).toEqual(sent.map(() => 'complete'));
      await probesSettled(
        sent.map((f) => f.id),
        30_000,
      );
      await postersSettled(sent.map((f) => f.id));
    };

    // Five files: their rows and marks begin together once the bundle is in, after the last file is
    // recorded complete, and take fewer statements than files (the first alone, the rest together).
    await send(files.slice(0, 5));
    expect(statements.lastIndexOf('complete')).toBeLessThan(statements.indexOf('facts'));
    // One statement a file on PostgreSQL; on SQLite, those that wait for one go together.
    expect(statements.filter((s) => s === 'complete').length).toBeGreaterThan(0);
    expect(statements.filter((s) => s === 'complete').length).toBeLessThanOrEqual(5);
    const first = ids.slice(0, 5);
    const rows = await serverRows(first);
    expect([...rows.keys()].sort()).toEqual([...first].sort());
    for (const row of rows.values()) expect(row).toMatchObject({ container: null });
    expect(await posterStates(first)).toEqual(first.map(() => 'none'));
    expect(statements.filter((s) => s === 'facts').length).toBeLessThan(first.length);
    expect(statements.filter((s) => s === 'poster').length).toBeLessThan(first.length);

    // Another process read the seventh file first: its row stands, the others of its group are stored.
    const now = new Date().toISOString().replace('T', ' ').replace('Z', ' +00:00');
    await t.db.sequelize.query(
      `INSERT INTO media_facts (file_id, source, readable, container, bytes_read, verdict, issues, created_at, updated_at)
       VALUES (:fileId, 'server', :readable, 'read elsewhere', 0, 'ok', '[]', :now, :now)`,
      { replacements: { fileId: ids[6], readable: true, now } },
    );
    await send(files.slice(5));
    const last = ids.slice(5);
    const more = await serverRows(last);
    expect([...more.keys()].sort()).toEqual([...last].sort());
    expect(more.get(ids[5]!)).toMatchObject({ container: null });
    expect(more.get(ids[6]!)).toMatchObject({ container: 'read elsewhere' });
    expect(more.get(ids[7]!)).toMatchObject({ container: null });
    expect(await posterStates(last)).toEqual(last.map(() => 'none'));
  });
  it("records its files' completions while the next files arrive, a group to a statement, each only under its own claim", async () => {
    t = await startTestApp({ dialect });
    const ada = await registeredClient(t);
    const { files } = await registered(ada, [90_000, 100_000, 110_000, 120_000, 130_000]);
    const peer = await startPeerApp(t);
    const original = t.db.sequelize.query;
    try {
      // The first record waits until released; meanwhile another process takes over the third file's claim.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const atFirst = new Promise<void>((resolve) => (reached = resolve));
      let held = false;
      const records: string[] = [];
      const sequelize = t.db.sequelize;
      // At the database's door: the statement is held before it goes in, whatever asked for it.
      const query = sequelize.query.bind(sequelize) as (sql: unknown, options?: unknown) => Promise<unknown>;
      sequelize.query = (async (sql: unknown, options?: unknown) => {
        if (typeof sql === 'string' && /INSERT INTO file_parts|SET status = 'complete'/.test(sql)) {
          records.push(sql);
          if (!held) {
            held = true;
            reached();
            await released;
          }
        }
        return query(sql, options);
      }) as typeof sequelize.query;
      const sending = sendBundle(
        t,
        ada,
        list(files.map((f) => entry(f))),
        Buffer.concat(files.map((f) => f.bytes)),
      );
      await atFirst;
      const third = files[2]!;
      const [, taken] = await peer.db.sequelize.query(
        "UPDATE upload_claims SET token = 'another-process' WHERE file_id = :id AND part_number = 0",
        { replacements: { id: third.id } },
      );
      expect(taken).toBeTruthy();
      // The other files' bytes are read while the first record waits (their completions queue behind it).
      await new Promise((resolve) => setTimeout(resolve, 400));
      release();
      const answer = await sending;
      expect(answer.status).toBe(200);
      const byId = new Map(answer.body.files.map((item) => [item.id, item]));
      for (const f of files.filter((f) => f !== third)) {
        expect(byId.get(f.id)?.file).toMatchObject({ status: 'complete', sha256: sha256(f.bytes) });
      }
      expect(byId.get(third.id)?.error?.code).toBe('completion_in_progress');
      if (dialect === 'sqlite') {
        // The first alone, the four that waited in one: the parts, then the files.
        expect(records.filter((sql) => sql.includes('INSERT INTO file_parts'))).toHaveLength(2);
        expect(records.filter((sql) => sql.includes("SET status = 'complete'"))).toHaveLength(2);
      }
      // Nothing of the file another process holds was recorded; it is sent again once its claim is gone.
      expect(await fileStatus(ada, third.id)).toMatchObject({ status: 'uploading', receivedParts: [] });
      await peer.db.sequelize.query('DELETE FROM upload_claims WHERE file_id = :id', {
        replacements: { id: third.id },
      });
      sequelize.query = original;
      const again = await sendBundle(t, ada, list([entry(third)]), third.bytes);
      expect(again.body.files[0]?.file).toMatchObject({ status: 'complete', sha256: sha256(third.bytes) });
    } finally {
      t.db.sequelize.query = original;
      await peer.close();
    }
  });
});
