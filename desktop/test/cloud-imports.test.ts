/**
 * Cloud files in the engine's queue, against the real API (a child process) whose import sources are aimed
 * at the API tests' provider stand-ins: the engine creates the submission, asks the server to import each
 * cloud file with a fresh token from the connected account, follows the server's progress, hands over a
 * new token when one is asked for, and continues after a restart without starting an import twice. The
 * server copies the bytes; the sha-256 of what it stored is checked against the source.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient } from '../src/engine/auth.js';
import { CloudAccounts, cloudSettings, MemoryAccountStore } from '../src/engine/cloud/index.js';
import { UploadEngine } from '../src/engine/engine.js';
import type { EngineSnapshot } from '../src/engine/engine.js';
import { MemoryStore } from '../src/engine/state.js';
import { PASSWORD, registerClient, sha256File, startApi, storedPath, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { startAuthStandIn, visit } from './helpers/cloud-auth.js';
import type { AuthStandIn } from './helpers/cloud-auth.js';
import { sha256, startImportStandIns } from './helpers/import-standins.js';
import type { DriveStandIn, ProvidersStandIn } from './helpers/import-standins.js';

const MIB = 1024 * 1024;
let api: ApiProcess;
let auth: AuthStandIn;
let drive: DriveStandIn;
let providers: ProvidersStandIn;
let dir: string;
let token: string;
let accounts: CloudAccounts;
const cleanups: (() => Promise<void>)[] = [];
const fields = { form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' } as const;

function driveFile(id: string, size: number): Buffer {
  const data = randomBytes(size);
  drive.files.set(id, { name: `${id}.mov`, mimeType: 'video/quicktime', data });
  auth.items['google-drive'].push({ id, name: `${id}.mov`, parent: null, folder: false, size });
  return data;
}

function engineOn(store: MemoryStore): UploadEngine {
  return new UploadEngine({
    baseUrl: api.url,
    store,
    token: () => token,
    cloud: accounts,
    importPollMs: 100,
  });
}

async function storedSha(submissionId: string, fileId: string): Promise<string> {
  return sha256File(storedPath(api.dataDir, submissionId, fileId));
}

beforeAll(async () => {
  auth = await startAuthStandIn();
  cleanups.push(() => auth.close());
  const standIns = await startImportStandIns(auth);
  cleanups.push(standIns.close);
  ({ drive, providers } = standIns);
  api = await startApi(standIns.apiEnv);
  cleanups.push(() => api.close());
  const work = await tempDir('avp-cloud-imports-');
  cleanups.push(work.remove);
  dir = work.dir;
  await registerClient(api.url, 'imports@example.com');
  token = (await new AuthClient(api.url).login('imports@example.com', PASSWORD)).token;
  accounts = new CloudAccounts({
    store: new MemoryAccountStore(),
    cipher: {
      encrypt: (s) => `sealed:${Buffer.from(s).toString('base64')}`,
      decrypt: (s) => Buffer.from(s.slice(7), 'base64').toString(),
    },
    settings: cloudSettings(auth.env()),
    openBrowser: (url) => void visit(url),
  });
  await accounts.connect('dropbox');
  await accounts.connect('google-drive');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('cloud imports in the engine', () => {
  it('sends a Dropbox path, a Drive id and a local file in one submission; the server copies the cloud files intact', async () => {
    const dropboxData = randomBytes(7 * MIB);
    providers.files.set('id:dkeynote', { id: 'id:dkeynote', name: 'keynote.mov', data: dropboxData });
    auth.items.dropbox.push(
      { id: 'id:events', name: 'Events', parent: null, folder: true },
      {
        id: 'id:dkeynote',
        name: 'keynote.mov',
        parent: 'id:events',
        folder: false,
        size: dropboxData.length,
      },
    );
    // More parts than the server's lanes, each answered late, so the server's progress stays between
    // 0 and the whole file for several of the engine's polls (it records progress once a second).
    const driveData = driveFile('gclip', 20 * MIB);
    drive.delayMs = 400;
    const local = path.join(dir, 'local.mov');
    await writeFile(local, randomBytes(2 * MIB));

    const engine = engineOn(new MemoryStore());
    const seen: EngineSnapshot[] = [];
    engine.on((e) => e.type === 'change' && seen.push(engine.snapshot()));
    const picked = [
      await accounts.resolve('dropbox:/Events/keynote.mov'),
      await accounts.resolve('drive:gclip'),
    ];
    const job = await engine.add(fields, [local], picked);
    expect(job.files.map((f) => [f.name, f.path, f.cloud?.provider ?? null])).toEqual([
      ['local.mov', local, null],
      ['keynote.mov', 'dropbox:/Events/keynote.mov', 'dropbox'],
      ['gclip.mov', 'drive:gclip', 'google-drive'],
    ]);
    await engine.start();
    await engine.whenIdle();
    drive.delayMs = 0;
    const snap = engine.snapshot();
    expect(snap.jobs).toEqual([]);
    const entry = snap.history[0]!;
    expect(entry.jobId).toBe(job.id);
    expect(entry.files.map((f) => [f.name, f.sha256])).toEqual([
      ['local.mov', await sha256File(local)],
      ['keynote.mov', sha256(dropboxData)],
      ['gclip.mov', sha256(driveData)],
    ]);
    // The server's progress was shown like a local file's.
    const running = seen
      .flatMap((s) => s.jobs.flatMap((j) => j.files))
      .filter((f) => f.cloud?.status === 'running');
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((f) => f.progress.sentBytes > 0 && f.progress.sentBytes < f.size)).toBe(true);
    // What the server stored is the provider's file.
    const info = (await (
      await fetch(`${api.url}/api/uploads/imports`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { imports: { fileId: string; name: string; import: { status: string } }[] };
    const byName = new Map(info.imports.map((i) => [i.name, i]));
    expect(byName.get('gclip.mov')!.import.status).toBe('complete');
    expect(await storedSha(entry.submissionId, byName.get('keynote.mov')!.fileId)).toBe(sha256(dropboxData));
    expect(await storedSha(entry.submissionId, byName.get('gclip.mov')!.fileId)).toBe(sha256(driveData));
  });

  it('hands the server a new token when an import needs one (the access token ran out mid-copy)', async () => {
    const data = driveFile('gexpiring', 13 * MIB);
    const refreshes = auth.refreshes['google-drive'];
    drive.expireTokenAfter = 1;
    const engine = engineOn(new MemoryStore());
    const states: (string | null)[] = [];
    engine.on(() => {
      const f = engine.snapshot().jobs[0]?.files[0];
      if (f?.cloud && states.at(-1) !== f.cloud.status) states.push(f.cloud.status);
    });
    await engine.add(fields, [], [await accounts.resolve('drive:gexpiring')]);
    await engine.start();
    await engine.whenIdle();
    expect(auth.refreshes['google-drive']).toBeGreaterThan(refreshes);
    expect(states).toContain('needs_auth');
    expect(engine.snapshot().history[0]!.files[0]!.sha256).toBe(sha256(data));
  });

  it('continues after a restart without starting an import twice', async () => {
    const data = driveFile('gslow', 13 * MIB);
    drive.delayMs = 1_000;
    const store = new MemoryStore();
    const first = engineOn(store);
    await first.add(fields, [], [await accounts.resolve('drive:gslow')]);
    await first.start();
    await new Promise<void>((resolve) => {
      const off = first.on(() => {
        // The server has the import (and copies it whatever the app does next).
        const f = first.snapshot().jobs[0]?.files[0];
        if (f?.cloud?.status === 'running' || f?.cloud?.status === 'queued') {
          off();
          resolve();
        }
      });
    });
    await first.stop();
    drive.delayMs = 0;
    expect(store.load()!.jobs[0]!.files[0]!.fileId).toBeTruthy();
    const second = engineOn(store);
    expect(second.snapshot().jobs[0]!.files[0]!.cloud).toBeTruthy();
    await second.start();
    await second.whenIdle();
    expect(second.snapshot().history[0]!.files[0]!.sha256).toBe(sha256(data));
    const info = (await (
      await fetch(`${api.url}/api/uploads/imports`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { imports: { name: string }[] };
    expect(info.imports.filter((i) => i.name === 'gslow.mov')).toHaveLength(1);
  });
});
