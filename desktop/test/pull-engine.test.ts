/**
 * The show pull's engine module (engine/pull.ts) and the window's side of it (engine/pull-view.ts, the
 * DesktopService calls the window makes) against the real API: progress events from listing to
 * manifest.csv; a pull cancelled mid-file that a second pull finishes from the bytes on disk; a folder
 * that cannot be written, a full disk (/dev/full behind a file's .part), a server that does not answer and
 * a client account, each stopped with a sentence; the staff check that decides whether the window offers
 * "Pull this event to a folder…"; and a pull started from the service, its progress in the snapshot.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS, MemoryStore } from '../src/engine/index.js';
import { PullRefusedError, runPull, STAFF_ONLY } from '../src/engine/pull.js';
import type { PullEvent, PullOptions } from '../src/engine/pull.js';
import { pullEvents, pullFailureWords, PullTracker } from '../src/engine/pull-view.js';
import type { PullView } from '../src/engine/pull-view.js';
import { DesktopService } from '../src/main/service.js';
import type { TokenVault } from '../src/main/service.js';
import type { DesktopSnapshot } from '../src/main/api.js';
import { freePort, registerClient, sha256File, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { call, createStaff, login, send, sha } from './helpers/pull-show.js';

const STAFF = 'pull-staff@example.com';
const CLIENT = 'pull-engine-client@example.com';
/** Staff whose roles are Finance only: the pull route asks for Media. */
const FINANCE = 'pull-finance@example.com';
const EVENT = 'Gala 2028';

let api: ApiProcess;
let dir: string;
let staffToken: string;
let clientToken: string;
const cleanups: (() => Promise<void>)[] = [];

const big = randomBytes(1024 * 1024);
const spot = randomBytes(30_000);
const logo = randomBytes(4_000);

beforeAll(async () => {
  api = await startApi();
  cleanups.push(() => api.close());
  const work = await tempDir('pull-engine-');
  cleanups.push(work.remove);
  dir = work.dir;
  await registerClient(api.url, CLIENT);
  await createStaff(api, STAFF);
  staffToken = await login(api, STAFF);
  clientToken = await login(api, CLIENT);
  const acme = await send(api, clientToken, EVENT, 'Acme AV', [
    { name: 'spot.mov', bytes: spot },
    { name: 'logo.png', bytes: logo },
  ]);
  await send(api, clientToken, EVENT, 'Blue Sky', [{ name: 'reel.mp4', bytes: big }]);
  await call(api, staffToken, 'PUT', `/api/uploads/inbox/files/${acme.ids[1]}/review`, { state: 'accepted' });
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const options = (over: Partial<PullOptions> = {}): PullOptions => ({
  server: api.url,
  token: staffToken,
  event: EVENT,
  acceptedOnly: false,
  dir: path.join(dir, 'out'),
  parallel: 4,
  timeouts: DEFAULT_TIMEOUTS,
  ...over,
});

/** What a pull threw (it must throw). */
async function thrown(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('the pull did not stop');
}

describe('runPull', () => {
  it('reports its progress from the list to the manifest, and the window’s view follows it', async () => {
    const out = path.join(dir, 'events');
    const events: PullEvent[] = [];
    const tracker = new PullTracker({ event: EVENT, dir: out, acceptedOnly: false });
    const views: PullView[] = [];
    const summary = await runPull(options({ dir: out, parallel: 2 }), (e) => {
      events.push(e);
      tracker.apply(e);
      views.push(tracker.snapshot());
    });
    expect(events[0]).toEqual({
      type: 'listed',
      files: 3,
      totalBytes: big.length + spot.length + logo.length,
    });
    const done = events.filter((e) => e.type === 'file-done');
    expect(done.map((e) => e.path).sort()).toEqual([
      'Acme AV/logo.png',
      'Acme AV/spot.mov',
      'Blue Sky/reel.mp4',
    ]);
    expect(done.every((e) => e.result === 'fetched')).toBe(true);
    const received = events.reduce((sum, e) => sum + (e.type === 'bytes' ? e.bytes : 0), 0);
    expect(received).toBe(big.length + spot.length + logo.length);
    expect(summary).toMatchObject({ files: 3, fetched: 3, skipped: 0, failed: [], cancelled: false });
    expect(summary.manifest).toBe(path.join(out, 'manifest.csv'));
    expect((await readFile(summary.manifest!, 'utf8')).split('\r\n')[0]).toBe(
      'company,client,file,size,sha-256,facts,review state,received',
    );
    expect(await sha256File(path.join(out, 'Blue Sky', 'reel.mp4'))).toBe(sha(big));
    // The view: files under way while they are, the share rising to 100 %.
    expect(views.some((v) => v.current.includes('Blue Sky/reel.mp4'))).toBe(true);
    const percents = views.map((v) => v.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    tracker.finish(summary);
    expect(tracker.snapshot()).toMatchObject({
      state: 'done',
      done: 3,
      fetched: 3,
      percent: 100,
      current: [],
    });

    // Again: everything verified is skipped, and the view says so.
    const again = new PullTracker({ event: EVENT, dir: out, acceptedOnly: false });
    const second = await runPull(options({ dir: out }), (e) => again.apply(e));
    again.finish(second);
    expect(again.snapshot()).toMatchObject({ skipped: 3, fetched: 0, bytes: 0, percent: 100 });
  });

  it('takes only the accepted files when asked', async () => {
    const out = path.join(dir, 'accepted');
    const summary = await runPull(options({ dir: out, acceptedOnly: true }));
    expect(summary).toMatchObject({ files: 1, fetched: 1 });
    expect(existsSync(path.join(out, 'Acme AV', 'logo.png'))).toBe(true);
    expect(existsSync(path.join(out, 'Acme AV', 'spot.mov'))).toBe(false);
  });

  it('stops cleanly when cancelled, and the next pull goes on from the bytes on disk', async () => {
    const out = path.join(dir, 'cancelled');
    const part = path.join(out, 'Blue Sky', 'reel.mp4.part');
    const controller = new AbortController();
    let received = 0;
    const summary = await runPull(
      options({ dir: out, parallel: 1, bandwidth: 256 * 1024, signal: controller.signal }),
      (e) => {
        if (e.type === 'bytes' && e.id && (received += e.bytes) > 200_000) controller.abort();
      },
    );
    expect(summary).toMatchObject({ cancelled: true, manifest: null });
    expect(existsSync(path.join(out, 'manifest.csv'))).toBe(false);
    const kept = (await stat(part)).size;
    expect(kept).toBeGreaterThan(100_000);
    expect(kept).toBeLessThan(big.length);

    const events: PullEvent[] = [];
    const resumed = await runPull(options({ dir: out }), (e) => events.push(e));
    expect(resumed).toMatchObject({ cancelled: false, failed: [] });
    const reel = events.find((e) => e.type === 'file-done' && e.path === 'Blue Sky/reel.mp4');
    expect(reel).toMatchObject({ result: 'fetched', attempts: 1 });
    expect((reel as { resumedFrom: number }).resumedFrom).toBeGreaterThanOrEqual(kept);
    expect(await sha256File(path.join(out, 'Blue Sky', 'reel.mp4'))).toBe(sha(big));
    expect(existsSync(part)).toBe(false);
  });

  it('says in a sentence why it stopped: a folder it cannot write, a full disk, no server, a client', async () => {
    // /sys refuses new folders even to root: what a folder without write permission does.
    const locked = '/sys/av-upload-pull-test';
    const refused = await thrown(runPull(options({ dir: locked })));
    expect(pullFailureWords(refused, api.url, locked)).toBe(
      `The folder ${locked} cannot be written to (permission denied). Choose another folder.`,
    );

    // A disk that is full: the first file's .part is /dev/full, where every write fails with ENOSPC.
    const out = path.join(dir, 'full');
    await mkdir(path.join(out, 'Acme AV'), { recursive: true });
    await symlink('/dev/full', path.join(out, 'Acme AV', 'logo.png.part'));
    const full = await thrown(runPull(options({ dir: out, parallel: 1 })));
    expect((full as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(pullFailureWords(full, api.url, out)).toBe(
      `The disk is full: the pull stopped in ${out}. Free some space or choose another folder, then pull again; what arrived is kept and the pull goes on from there.`,
    );

    // A port nothing listens on (fetch refuses well-known ones such as 9 before trying).
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const offline = await thrown(runPull(options({ server: nowhere, dir: path.join(dir, 'offline') })));
    expect(pullFailureWords(offline, nowhere, '')).toBe(
      `The server could not be reached: Nothing answers at ${nowhere} (the connection was refused). Pull again when it answers; the pull goes on where it stopped.`,
    );
    expect(existsSync(path.join(dir, 'offline'))).toBe(false);

    const client = await thrown(runPull(options({ token: clientToken, dir: path.join(dir, 'client') })));
    expect(client).toBeInstanceOf(PullRefusedError);
    expect((client as PullRefusedError).status).toBe(403);
    expect(pullFailureWords(client, api.url, '')).toBe(STAFF_ONLY);
    expect(existsSync(path.join(dir, 'client'))).toBe(false);
  });
});

describe('the window’s pull (DesktopService)', () => {
  function vaultFor(email: string, token: string): TokenVault {
    let value: ReturnType<TokenVault['read']> = { server: api.url, email, expiresAt: '', token };
    return { read: () => value, write: (v) => void (value = v) };
  }

  it('offers the pull to staff with the Media role and the events the server knows, never to a client', async () => {
    expect(await pullEvents(api.url, clientToken, 10_000)).toEqual({ access: 'none' });
    // A staff member without the Media role: not offered, and refused by the server in its own words.
    await createStaff(api, FINANCE);
    const { members } = await call<{ members: { id: number; email: string }[] }>(
      api,
      staffToken,
      'GET',
      '/api/staff/members',
    );
    const finance = members.find((m) => m.email === FINANCE)!;
    await call(api, staffToken, 'PUT', `/api/staff/members/${finance.id}/roles`, { roles: ['finance'] });
    const financeToken = await login(api, FINANCE);
    expect(await pullEvents(api.url, financeToken, 10_000)).toEqual({ access: 'none' });
    const refused = await thrown(runPull(options({ token: financeToken, dir: path.join(dir, 'finance') })));
    expect(pullFailureWords(refused, api.url, '')).toBe(
      'The server refused the pull: Your role does not allow this.',
    );

    const staff = await pullEvents(api.url, staffToken, 10_000);
    expect(staff).toEqual({ access: 'staff', events: [EVENT] });
    const client = new DesktopService(vaultFor(CLIENT, clientToken), new MemoryStore(), api.url);
    try {
      expect(await client.pullEvents()).toEqual({ access: 'none' });
    } finally {
      await client.close();
    }
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    expect(await pullEvents(nowhere, staffToken, 10_000)).toEqual({
      access: 'unknown',
      error: `Nothing answers at ${nowhere} (the connection was refused).`,
    });
  });

  it('runs a pull started from the window, its progress and result in the snapshot', async () => {
    const service = new DesktopService(vaultFor(STAFF, staffToken), new MemoryStore(), api.url);
    const out = path.join(dir, 'window');
    const seen: DesktopSnapshot[] = [];
    service.onChange((snap) => seen.push(snap));
    try {
      expect(service.startPull(EVENT, false, 'relative/folder')).toMatchObject({
        ok: false,
        fields: { folder: 'Choose a folder to pull into.' },
      });
      expect(service.startPull(EVENT, false, out)).toEqual({ ok: true });
      expect(service.startPull(EVENT, false, out)).toMatchObject({ ok: false });
      for (let i = 0; i < 200 && !['done', 'failed'].includes(service.snapshot().pull?.state ?? ''); i += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const pull = service.snapshot().pull!;
      expect(pull).toMatchObject({ state: 'done', files: 3, done: 3, fetched: 3, percent: 100, error: null });
      expect(pull.manifest).toBe(path.join(out, 'manifest.csv'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.at(-1)?.pull?.state).toBe('done');
      expect(await sha256File(path.join(out, 'Acme AV', 'spot.mov'))).toBe(sha(spot));
    } finally {
      await service.close();
    }
  });
});
