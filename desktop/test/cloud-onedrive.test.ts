/**
 * OneDrive files in the engine's queue, against the real API (a child process) whose Graph source is the
 * API tests' provider stand-in. Graph ids of both kinds contain '!': a business drive id is `b!…` and a
 * personal item id `D4648F06C91D9D3D!54927` (Graph's own example), so the engine must send the drive and
 * the item as two fields (docs/api.md 'OneDrive ids'); one joined `drive!item` field cannot be split
 * again by the server. Both ways a file is picked are taken: a ref named on the command line
 * (`onedrive:ITEM_ID`) and an item of the browse panel relayed from the window (cloudItemsInput), inside
 * a folder whose own id contains '!'.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthClient } from '../src/engine/auth.js';
import { CloudAccounts, cloudSettings, MemoryAccountStore } from '../src/engine/cloud/index.js';
import { UploadEngine } from '../src/engine/engine.js';
import { MemoryStore } from '../src/engine/state.js';
import { cloudItemsInput } from '../src/engine-host/calls.js';
import { PASSWORD, registerClient, sha256File, startApi, storedPath } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { startAuthStandIn, visit } from './helpers/cloud-auth.js';
import type { AuthStandIn } from './helpers/cloud-auth.js';
import { sha256, startImportStandIns } from './helpers/import-standins.js';
import type { ProvidersStandIn } from './helpers/import-standins.js';

const MIB = 1024 * 1024;
/** A business drive id as Graph gives it: 'b!' and base64url. */
const BUSINESS_DRIVE = 'b!-RIj2DuyvEyV1T4NlOaMHk8XkS_I8MdFlUCq1BlcjgmhRfAj3-Z8RY2VpuvV_tpd';
const FOLDER = 'D4648F06C91D9D3D!100';
const KEYNOTE = 'D4648F06C91D9D3D!54927';
const RECAP = 'D4648F06C91D9D3D!54928';

let api: ApiProcess;
let auth: AuthStandIn;
let providers: ProvidersStandIn;
let token: string;
let accounts: CloudAccounts;
const cleanups: (() => Promise<void>)[] = [];
const fields = { form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' } as const;

beforeAll(async () => {
  auth = await startAuthStandIn();
  cleanups.push(() => auth.close());
  const standIns = await startImportStandIns(auth);
  cleanups.push(standIns.close);
  ({ providers } = standIns);
  api = await startApi(standIns.apiEnv);
  cleanups.push(() => api.close());
  await registerClient(api.url, 'onedrive@example.com');
  token = (await new AuthClient(api.url).login('onedrive@example.com', PASSWORD)).token;
  accounts = new CloudAccounts({
    store: new MemoryAccountStore(),
    cipher: {
      encrypt: (s) => `sealed:${Buffer.from(s).toString('base64')}`,
      decrypt: (s) => Buffer.from(s.slice(7), 'base64').toString(),
    },
    settings: cloudSettings(auth.env()),
    openBrowser: (url) => void visit(url),
  });
  // Connected last, so the providers stand-in accepts this account's token.
  await accounts.connect('onedrive');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('OneDrive ids', () => {
  it("sends a business drive id ('b!…') and a personal item id ('…!54927') apart: the server copies both files intact", async () => {
    auth.oneDriveId = BUSINESS_DRIVE;
    const keynote = randomBytes(3 * MIB);
    const recap = randomBytes(MIB + 17);
    auth.items.onedrive.push(
      { id: FOLDER, name: 'Events', parent: null, folder: true },
      { id: KEYNOTE, name: 'keynote.mov', parent: FOLDER, folder: false, size: keynote.length },
      { id: RECAP, name: 'recap.mov', parent: FOLDER, folder: false, size: recap.length },
    );
    providers.files.set('o-keynote', {
      id: KEYNOTE,
      driveId: BUSINESS_DRIVE,
      name: 'keynote.mov',
      data: keynote,
    });
    providers.files.set('o-recap', { id: RECAP, driveId: BUSINESS_DRIVE, name: 'recap.mov', data: recap });

    // Named on the command line by Graph's item id.
    const named = await accounts.resolve(`onedrive:${KEYNOTE}`);
    expect(named).toMatchObject({ id: KEYNOTE, driveId: BUSINESS_DRIVE, ref: `onedrive:${KEYNOTE}` });
    // Browsed into a folder whose id has a '!', then relayed from the window as the bridge does.
    const root = await accounts.browse('onedrive');
    expect(root.items.map((i) => [i.id, i.name])).toEqual([[FOLDER, 'Events']]);
    const inside = await accounts.browse('onedrive', FOLDER);
    const picked = cloudItemsInput(JSON.parse(JSON.stringify(inside.items.filter((i) => i.id === RECAP))));
    expect(picked).toEqual([expect.objectContaining({ id: RECAP, driveId: BUSINESS_DRIVE })]);

    const engine = new UploadEngine({
      baseUrl: api.url,
      store: new MemoryStore(),
      token: () => token,
      cloud: accounts,
      importPollMs: 100,
    });
    const job = await engine.add(fields, [], [named, ...picked]);
    await engine.start();
    await engine.whenIdle();
    const snap = engine.snapshot();
    // Nothing left in the queue (a refused file would stay there, with the server's words).
    expect(snap.jobs.flatMap((j) => j.files.map((f) => `${f.name}: ${f.error?.message ?? f.state}`))).toEqual(
      [],
    );
    const entry = snap.history.find((h) => h.jobId === job.id)!;
    expect(entry.files.map((f) => [f.name, f.sha256])).toEqual([
      ['keynote.mov', sha256(keynote)],
      ['recap.mov', sha256(recap)],
    ]);
    // What the server stored is the provider's file.
    const res = await fetch(`${api.url}/api/uploads/imports`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { imports } = (await res.json()) as { imports: { fileId: string; name: string }[] };
    for (const [name, data] of [
      ['keynote.mov', keynote],
      ['recap.mov', recap],
    ] as const) {
      const fileId = imports.find((i) => i.name === name)!.fileId;
      expect(await sha256File(storedPath(api.dataDir, entry.submissionId, fileId))).toBe(sha256(data));
    }
    await engine.stop();
  });
});
