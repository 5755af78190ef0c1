/**
 * Cloud accounts through each provider's desktop OAuth flow against stand-in authorization servers and
 * APIs (helpers/cloud-auth.ts): the app opens the sign-in address, the test visits it as the system
 * browser would and the loopback redirect completes; then browse, search, refs, refresh and disconnect.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CloudAccountError,
  CloudAccounts,
  cloudSettings,
  fileKeyCipher,
  JsonFileAccountStore,
  parseRef,
} from '../src/engine/cloud/index.js';
import type { CloudProvider } from '../src/engine/cloud/index.js';
import { startAuthStandIn, visit } from './helpers/cloud-auth.js';
import type { AuthStandIn } from './helpers/cloud-auth.js';
import { tempDir } from './helpers/api.js';

let stand: AuthStandIn;
let dir: string;
const cleanups: (() => Promise<void>)[] = [];

function accounts(
  options: {
    clock?: () => number;
    timeoutMs?: number;
    browser?: (url: string) => void;
    env?: Record<string, string>;
  } = {},
) {
  const opened: string[] = [];
  const store = new JsonFileAccountStore(path.join(dir, 'accounts.json'));
  const cloud = new CloudAccounts({
    store,
    cipher: fileKeyCipher(path.join(dir, 'accounts.key')),
    settings: cloudSettings(options.env ?? stand.env()),
    openBrowser: (url) => {
      opened.push(url);
      // The system browser: follows the provider's redirect back to the loopback.
      (options.browser ?? ((u: string) => void visit(u)))(url);
    },
    timeoutMs: options.timeoutMs ?? 10_000,
    clock: options.clock,
  });
  return { cloud, opened, store };
}

beforeAll(async () => {
  stand = await startAuthStandIn();
  cleanups.push(() => stand.close());
  const work = await tempDir('avp-cloud-accounts-');
  cleanups.push(work.remove);
  dir = work.dir;
  const tree = (prefix: string, folderId: string, fileIds: [string, string]) => [
    { id: folderId, name: 'Events', parent: null, folder: true },
    { id: fileIds[0], name: 'keynote.mov', parent: folderId, folder: false, size: 5_000_000 },
    { id: fileIds[1], name: `${prefix}-notes.txt`, parent: null, folder: false, size: 12 },
  ];
  stand.items['google-drive'] = tree('drive', 'gfolder1', ['gfile1', 'gfile2']);
  stand.items.dropbox = tree('dropbox', 'id:dfolder', ['id:dkeynote', 'id:dnotes']);
  stand.items.box = tree('box', '11', ['21', '22']);
  stand.items.onedrive = tree('onedrive', 'ofolder', ['ofile1', 'ofile2']);
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const CASES: {
  provider: CloudProvider;
  email: string;
  folderId: string;
  fileRef: string;
  fileId: string;
  revoked: boolean;
}[] = [
  {
    provider: 'google-drive',
    email: 'ada@gmail.example',
    folderId: 'gfolder1',
    fileRef: 'drive:gfile1',
    fileId: 'gfile1',
    revoked: true,
  },
  {
    provider: 'dropbox',
    email: 'ada@dropbox.example',
    folderId: 'id:dfolder',
    fileRef: 'dropbox:/Events/keynote.mov',
    fileId: 'id:dkeynote',
    revoked: true,
  },
  {
    provider: 'box',
    email: 'ada@box.example',
    folderId: '11',
    fileRef: 'box:21',
    fileId: '21',
    revoked: true,
  },
  {
    provider: 'onedrive',
    email: 'ada@outlook.example',
    folderId: 'ofolder',
    fileRef: 'onedrive:ofile1',
    fileId: 'ofile1',
    revoked: false,
  },
];

describe('cloud accounts', () => {
  for (const c of CASES) {
    it(`${c.provider}: connects through the browser and the loopback (PKCE S256, state), browses, searches, resolves, disconnects`, async () => {
      const { cloud, opened } = accounts();
      const account = await cloud.connect(c.provider);
      expect(account).toMatchObject({ provider: c.provider, email: c.email });
      expect(opened).toHaveLength(1);
      const asked = stand.authorizeRequests.at(-1)!;
      expect(asked.provider).toBe(c.provider);
      expect(asked.query).toMatchObject({
        code_challenge_method: 'S256',
        redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      });
      expect(asked.query.state!.length).toBeGreaterThan(20);
      expect(cloud.list().map((a) => a.provider)).toContain(c.provider);
      expect(cloud.providers().find((p) => p.provider === c.provider)).toMatchObject({
        configured: true,
        account: { email: c.email },
      });

      const root = await cloud.browse(c.provider);
      expect(root.items.map((i) => [i.name, i.folder])).toEqual([
        ['Events', true],
        [expect.stringMatching(/-notes\.txt$/), false],
      ]);
      const events = await cloud.browse(c.provider, root.items[0]!.id);
      expect(events.items).toEqual([
        expect.objectContaining({
          name: 'keynote.mov',
          folder: false,
          size: 5_000_000,
          modifiedAt: '2027-01-15T10:00:00Z',
        }),
      ]);
      expect(root.items[0]!.id).toBe(c.folderId);
      expect((await cloud.search(c.provider, 'keynote')).map((i) => i.name)).toEqual(['keynote.mov']);
      const file = await cloud.resolve(c.fileRef);
      expect(file).toMatchObject({
        provider: c.provider,
        id: c.fileId,
        name: 'keynote.mov',
        size: 5_000_000,
        folder: false,
      });
      if (c.provider === 'onedrive') {
        // The drive travels beside the item id; a ref in the older joined form still names the file.
        expect(file.driveId).toBe('drive-ada');
        expect(await cloud.resolve('onedrive:drive-ada!ofile1')).toMatchObject({ id: 'ofile1' });
      }

      // Kept sealed: neither token appears in the file, which only its owner may read.
      const saved = await readFile(path.join(dir, 'accounts.json'), 'utf8');
      const token = await cloud.accessToken(c.provider);
      expect(saved).not.toContain(token);
      expect(saved).not.toMatch(/refresh-/);
      expect((await stat(path.join(dir, 'accounts.json'))).mode & 0o777).toBe(0o600);

      const revokedBefore = stand.revoked.length;
      const gone = await cloud.disconnect(c.provider);
      expect(gone.revoked).toBe(c.revoked);
      expect(stand.revoked.length > revokedBefore).toBe(c.revoked);
      if (!c.revoked) expect(gone.message).toMatch(/no way to revoke/);
      expect(cloud.list().map((a) => a.provider)).not.toContain(c.provider);
      await expect(cloud.accessToken(c.provider)).rejects.toMatchObject({ code: 'not_connected' });
    });
  }

  it('a denied consent ends the flow with a clear error and connects nothing', async () => {
    const { cloud } = accounts();
    stand.deny = true;
    const error = await cloud.connect('dropbox').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CloudAccountError);
    expect(error).toMatchObject({
      code: 'denied',
      message: 'Dropbox access was not granted, so nothing was connected.',
    });
    expect(cloud.list()).toEqual([]);
  });

  it('an answer with another state is refused', async () => {
    const { cloud } = accounts();
    stand.wrongState = true;
    await expect(cloud.connect('box')).rejects.toMatchObject({ code: 'state_mismatch' });
    expect(cloud.list()).toEqual([]);
  });

  it('a sign-in left unanswered times out', async () => {
    const { cloud } = accounts({ timeoutMs: 300, browser: () => undefined });
    await expect(cloud.connect('google-drive')).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringMatching(/No answer from the browser/),
    });
  });

  it('a provider without a client id is reported as not configured', async () => {
    const env = stand.env();
    delete env.AV_BOX_CLIENT_SECRET;
    delete env.AV_ONEDRIVE_CLIENT_ID;
    const { cloud } = accounts({ env });
    const status = Object.fromEntries(cloud.providers().map((p) => [p.provider, p]));
    expect(status.onedrive).toMatchObject({
      configured: false,
      message: 'OneDrive is not configured: set AV_ONEDRIVE_CLIENT_ID.',
    });
    expect(status.box!.configured).toBe(false);
    expect(status.dropbox!.configured).toBe(true);
    await expect(cloud.connect('onedrive')).rejects.toMatchObject({ code: 'not_configured' });
  });

  it('an expired access token is refreshed: by its expiry time, and when the provider refuses it', async () => {
    let now = Date.now();
    const { cloud } = accounts({ clock: () => now });
    for (const provider of ['dropbox', 'box', 'onedrive', 'google-drive'] as const) {
      await cloud.connect(provider);
      const first = await cloud.accessToken(provider);
      const refreshes = stand.refreshes[provider];
      now += 2 * 3600_000;
      const second = await cloud.accessToken(provider);
      expect(second).not.toBe(first);
      expect(stand.refreshes[provider]).toBe(refreshes + 1);
      // Refused before its time (revoked, rotated): the browse refreshes once and goes on.
      stand.expire(provider);
      expect((await cloud.browse(provider)).items.length).toBe(2);
      expect(stand.refreshes[provider]).toBe(refreshes + 2);
    }
    // Box's refresh tokens are single use: two refreshes at once share one.
    const before = stand.refreshes.box;
    const [a, b] = await Promise.all([
      cloud.accessToken('box', { forceRefresh: true }),
      cloud.accessToken('box', { forceRefresh: true }),
    ]);
    expect(a).toBe(b);
    expect(stand.refreshes.box).toBe(before + 1);
    // The user removed the app's access: a clear 'connect again'.
    stand.revokeAll('dropbox');
    await expect(cloud.accessToken('dropbox', { forceRefresh: true })).rejects.toMatchObject({
      code: 'reconnect',
    });
  });

  it('reads refs: provider prefixes, Dropbox paths, and refuses what is not one', () => {
    expect(parseRef('dropbox:/Events/keynote.mov')).toEqual({
      provider: 'dropbox',
      target: '/Events/keynote.mov',
    });
    expect(parseRef('dropbox:Events/a.mov')).toEqual({ provider: 'dropbox', target: '/Events/a.mov' });
    expect(parseRef('drive:1AbC')).toEqual({ provider: 'google-drive', target: '1AbC' });
    expect(parseRef('onedrive:d!1')).toEqual({ provider: 'onedrive', target: 'd!1' });
    expect(() => parseRef('ftp:/x')).toThrow(/Not a cloud file/);
    expect(() => parseRef('box:')).toThrow(CloudAccountError);
  });
});
