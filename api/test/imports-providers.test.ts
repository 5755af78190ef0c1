import { randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_INVALID, UPLOAD_PART_SIZE } from '@avp/shared';
import type { UploadFileInfo } from '@avp/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { AMBIGUOUS_ONEDRIVE_ID, FOREIGN_LINK, isProviderUrl } from '../src/adapters/cloud/index.js';
import { loadConfig } from '../src/config.js';
import { pickFromLink } from '../src/modules/legacy/cloud.js';
import { startProvidersStandIn } from './helpers/cloud-standins/providers.js';
import type { ProvidersStandIn } from './helpers/cloud-standins/providers.js';
import { providersEnv } from './helpers/cloud-standins/providers.js';
import { LogCapture } from './helpers/env.js';
import { sha256, startImportHarness } from './helpers/imports.js';

/**
 * Dropbox, Box and OneDrive imports through the real API and worker, against stand-ins of their APIs
 * (helpers/cloud-standins/providers.ts): each file of several parts arrives intact, with each provider's
 * own ways: Dropbox's 4-hour links, Box's 202 and 302, Graph's pre-authenticated redirect.
 */

const PART = UPLOAD_PART_SIZE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

async function setup(env: Record<string, string> = {}, logs?: LogCapture) {
  const p = await startProvidersStandIn();
  cleanups.push(() => p.close());
  const h = await startImportHarness({ env: { ...providersEnv(p), ...env }, ...(logs ? { logs } : {}) });
  cleanups.push(() => h.close());
  return { p, h };
}

function file(p: ProvidersStandIn, id: string, name: string, size = 2 * PART + 999) {
  const data = randomBytes(size);
  p.files.set(id, { id, name, data });
  return data;
}

/** A OneDrive item in the Graph stand-in, found by its drive and item ids as Graph receives them. */
function graphFile(p: ProvidersStandIn, driveId: string, id: string, name: string, size: number) {
  const data = randomBytes(size);
  p.files.set(`${driveId}/${id}`, { id, driveId, name, data });
  return data;
}

const complete = (f: UploadFileInfo) => f.status === 'complete';

describe('cloud imports from Dropbox, Box and OneDrive', () => {
  it('Dropbox Chooser link: read with Range and no token; an expired link waits for a fresh pick', async () => {
    const { p, h } = await setup();
    const data = file(p, 'dbx-1', 'reel.mov', 6 * PART);
    p.expireLinksAfter = 1;
    const started = await h.start({
      provider: 'dropbox',
      link: `${p.url}/dropbox/direct/dbx-1/reel.mov?t=${Date.now()}`,
      name: 'reel.mov',
    });
    expect(started.status).toBe(201);
    // The size comes from the provider, not the client.
    expect(started.file).toMatchObject({ size: data.length, partCount: 6 });
    const waiting = await h.waitFor(started.file.id, (f) => f.import?.status === 'needs_auth');
    expect(waiting.import!.error).toMatch(/expired/);
    const renewed = await h.client.post(`/api/uploads/imports/${started.file.id}/token`, {
      link: `${p.url}/dropbox/direct/dbx-1/reel.mov?t=${Date.now() + 5}`,
    });
    expect(renewed.status).toBe(200);
    const done = await h.waitFor(started.file.id, complete);
    expect(done.sha256).toBe(sha256(data));
    expect(p.leakedTokens).toBe(0);
  });

  it('at debug level the SQL log shows no picked link: a Dropbox direct link opens the file for 4 hours', async () => {
    const logs = new LogCapture();
    const { p, h } = await setup({}, logs);
    const data = file(p, 'dbx-log', 'secret reel.mov', PART + 3);
    const link = `${p.url}/dropbox/direct/dbx-log/secret-reel.mov?t=sekr3t`;
    const started = await h.start({ provider: 'dropbox', link, name: 'secret reel.mov' });
    expect(started.status).toBe(201);
    // The same pick again: the server looks the link up (a WHERE on source_link, inlined in the SQL).
    expect((await h.start({ provider: 'dropbox', link, name: 'secret reel.mov' })).status).toBe(200);
    expect((await h.waitFor(started.file.id, complete)).sha256).toBe(sha256(data));
    const sql = logs.lines.filter((line) => line.msg === 'sql').map((line) => String(line.sql));
    const lookups = sql.filter((line) => /source_link["`]?\s*=/.test(line));
    expect(lookups.length).toBeGreaterThan(0);
    for (const line of lookups) expect(line).toMatch(/source_link["`]?\s*=\s*'\[redacted\]'/);
    expect(JSON.stringify(logs.lines)).not.toContain('sekr3t');
  });

  it('Dropbox file id: metadata and a temporary link through the SDK; a link that runs out is replaced', async () => {
    const { p, h } = await setup();
    const data = file(p, 'id:dbx2', 'keynote.mov', 6 * PART + 10);
    p.linksValidFrom = 0;
    const started = await h.start({
      provider: 'dropbox',
      fileId: 'id:dbx2',
      name: 'keynote.mov',
      accessToken: p.token,
    });
    expect(started.status).toBe(201);
    expect(started.file.size).toBe(data.length);
    const done = await h.waitFor(started.file.id, complete);
    expect(done.sha256).toBe(sha256(data));
    // Seven parts: two before the links expired, then a fresh link for the others.
    expect(p.downloads.filter((d) => d.startsWith('dropbox-temp'))).toHaveLength(7);
    // Refused tokens and missing files are answered when the import is started.
    expect(
      (await h.start({ provider: 'dropbox', fileId: 'id:dbx2', name: 'k.mov', accessToken: 'wrong' })).status,
    ).toBe(403);
    expect(
      (await h.start({ provider: 'dropbox', fileId: 'id:none', name: 'k.mov', accessToken: p.token })).status,
    ).toBe(404);
  });

  it('Box: a 202 with Retry-After first, then the 302 to the download host, which never sees the token', async () => {
    const { p, h } = await setup();
    const data = file(p, 'box-123', 'booth.mp4');
    p.boxNotReady = 1;
    const started = await h.start({
      provider: 'box',
      fileId: '123',
      name: 'booth.mp4',
      accessToken: p.token,
    });
    expect(started.status).toBe(201);
    const done = await h.waitFor(started.file.id, complete);
    expect(done.sha256).toBe(sha256(data));
    expect(p.leakedTokens).toBe(0);
    expect(p.downloads.filter((d) => d.startsWith('box-dl box-123'))).toHaveLength(3);
  });

  it('OneDrive: Graph metadata, the pre-authenticated redirect without the token, and a token refused mid-file', async () => {
    const { p, h } = await setup();
    // A personal drive, ids as Graph's documentation shows them: the item id holds the drive id and a '!'.
    const data = graphFile(p, 'd4648f06c91d9d3d', 'D4648F06C91D9D3D!54927', 'sponsor spot.mov', 6 * PART);
    p.expireTokenAfter = 1;
    const started = await h.start({
      provider: 'onedrive',
      driveId: 'd4648f06c91d9d3d',
      fileId: 'D4648F06C91D9D3D!54927',
      name: 'sponsor spot.mov',
      accessToken: p.token,
    });
    expect(started.status).toBe(201);
    expect(started.file.size).toBe(data.length);
    const waiting = await h.waitFor(started.file.id, (f) => f.import?.status === 'needs_auth');
    expect(waiting.import!.error).toMatch(/expired/);
    p.token = 'second-token';
    await h.client.post(`/api/uploads/imports/${started.file.id}/token`, { accessToken: 'second-token' });
    const done = await h.waitFor(started.file.id, complete);
    expect(done.sha256).toBe(sha256(data));
    expect(p.leakedTokens).toBe(0);
  });

  it('OneDrive ids: drive and item apart (personal and business), the older one-field form where it splits one way', async () => {
    const { p, h } = await setup();
    const personal = graphFile(p, 'd4648f06c91d9d3d', 'D4648F06C91D9D3D!54928', 'personal.mov', PART + 5);
    const business = graphFile(
      p,
      'b!-RIj2DuyvEyV1T4NlOaMHk8XkS_I8MdFlUCq1BlcjgmhRfAj3-Z8RY2VpuvV_tpd',
      '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
      'business.mov',
      PART + 7,
    );
    const pick = (fields: Record<string, string>, name: string) =>
      h.start({ provider: 'onedrive', name, accessToken: p.token, ...fields });

    const two = await pick(
      {
        driveId: 'b!-RIj2DuyvEyV1T4NlOaMHk8XkS_I8MdFlUCq1BlcjgmhRfAj3-Z8RY2VpuvV_tpd',
        fileId: '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
      },
      'business.mov',
    );
    expect(two.status).toBe(201);
    expect((await h.waitFor(two.file.id, complete)).sha256).toBe(sha256(business));

    // An older portal's or desktop app's '<drive id>!<item id>': a personal item id starts with its drive id.
    const older = await pick({ fileId: 'd4648f06c91d9d3d!D4648F06C91D9D3D!54928' }, 'personal.mov');
    expect(older.status).toBe(201);
    expect((await h.waitFor(older.file.id, complete)).sha256).toBe(sha256(personal));
    // The same file picked by a new client is the same import.
    const again = await pick(
      { driveId: 'd4648f06c91d9d3d', fileId: 'D4648F06C91D9D3D!54928' },
      'personal.mov',
    );
    expect(again).toMatchObject({ status: 200, file: { id: older.file.id } });

    // One field that splits more than one way is refused, with words, before anything is stored.
    const ambiguous = await pick({ fileId: 'abc!def!ghi' }, 'x.mov');
    expect(ambiguous).toMatchObject({
      status: 400,
      body: { error: { code: 'cloud_refused', message: AMBIGUOUS_ONEDRIVE_ID } },
    });
    // A drive id belongs with a OneDrive item only.
    expect((await h.start({ provider: 'box', driveId: 'd1', fileId: '1', name: 'b.mov' })).status).toBe(400);
    expect(p.leakedTokens).toBe(0);
  });

  it('an access token no HTTP header can carry is a 400 at the schema, and no provider is asked', async () => {
    const { p, h } = await setup();
    const data = file(p, 'box-9', 'clip.mov', 3 * PART);
    p.expireTokenAfter = 1;
    const good = await h.start({ provider: 'box', fileId: '9', name: 'clip.mov', accessToken: p.token });
    expect(good.status).toBe(201);
    await h.waitFor(good.file.id, (f) => f.import?.status === 'needs_auth');
    const asked = p.downloads.length;
    for (const token of ['abc\u0000def', 'abc\r\nX-Injected: 1', 'abc\ud800', 'abc🎬']) {
      const started = await h.start({ provider: 'box', fileId: '9', name: 'x.mov', accessToken: token });
      expect(started).toMatchObject({
        status: 400,
        body: { error: { code: 'validation_failed', fields: { accessToken: ACCESS_TOKEN_INVALID } } },
      });
      const renewed = await h.client.post(`/api/uploads/imports/${good.file.id}/token`, {
        accessToken: token,
      });
      expect(renewed).toMatchObject({ status: 400, body: { error: { code: 'validation_failed' } } });
    }
    expect(
      (await h.client.get<{ file: UploadFileInfo }>(`/api/uploads/files/${good.file.id}`)).body.file.import,
    ).toMatchObject({ status: 'needs_auth' });
    expect(p.downloads.length).toBe(asked);
    // A real one still continues the import.
    p.token = 'second-token';
    await h.client.post(`/api/uploads/imports/${good.file.id}/token`, { accessToken: 'second-token' });
    expect((await h.waitFor(good.file.id, complete)).sha256).toBe(sha256(data));
  });

  it('a provider redirecting off its hosts fails the import without a connection to the foreign host', async () => {
    const { p, h } = await setup();
    file(p, 'box-77', 'evil.mov', PART);
    p.redirectTo = 'http://169.254.169.254/latest/meta-data/';
    const started = await h.start({ provider: 'box', fileId: '77', name: 'evil.mov', accessToken: p.token });
    expect(started.status).toBe(201);
    const failed = await h.waitFor(started.file.id, (f) => f.import?.status === 'failed');
    expect(failed.import!.error).toBe(FOREIGN_LINK);
    expect(p.downloads).toHaveLength(0);
  });

  it("Box's sign-in code is exchanged on the server, with the app's secret, for the picker's token", async () => {
    const { p, h } = await setup({ BOX_CLIENT_ID: 'box-client', BOX_CLIENT_SECRET: 'box-secret' });
    const config = await h.client.get<{ providers: { provider: string; authorizeUrl?: string }[] }>(
      '/api/uploads/cloud-config',
    );
    expect(config.body.providers).toEqual([
      expect.objectContaining({ provider: 'box', clientId: 'box-client' }),
    ]);
    expect(JSON.stringify(config.body)).not.toContain('box-secret');
    const good = await h.client.post('/api/uploads/cloud/box/token', { code: 'good-code' });
    expect(good).toMatchObject({ status: 200, body: { accessToken: p.token, expiresIn: 3600 } });
    const bad = await h.client.post('/api/uploads/cloud/box/token', { code: 'stale-code' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'box_code_refused' } } });
    expect((await h.client.post('/api/uploads/cloud/box/token', {})).status).toBe(400);
    const anonymous = await fetch(`${h.t.url}/api/uploads/cloud/box/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: h.t.url },
      body: JSON.stringify({ code: 'good-code' }),
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("the hosts each provider's downloads come from (docs/api.md 'Download hosts')", () => {
  const config = loadConfig({});
  it.each([
    ['onedrive', 'https://graph.microsoft.com/v1.0/drives/d/items/i/content'],
    // Personal OneDrive: Graph's 302 goes to my.microsoftpersonalcontent.com.
    [
      'onedrive',
      'https://my.microsoftpersonalcontent.com/personal/d4648f06c91d9d3d/_layouts/15/download.aspx?UniqueId=x',
    ],
    ['onedrive', 'https://contoso-my.sharepoint.com/personal/ada/_layouts/15/download.aspx?UniqueId=x'],
    ['box', 'https://dl.boxcloud.com/d/1/b1!abc/download'],
    ['box', 'https://public.boxcloud.com/d/1/b1!abc/download'],
    ['dropbox', 'https://content.dropboxapi.com/2/files/download'],
    ['dropbox', 'https://uc1234.dl.dropboxusercontent.com/cd/0/get/abc/file'],
    ['google-drive', 'https://www.googleapis.com/drive/v3/files/1AbC?alt=media'],
    ['google-drive', 'https://doc-0s-4c-docs.googleusercontent.com/docs/securesc/x'],
  ] as const)('%s downloads from %s', (provider, url) => {
    expect(isProviderUrl(config, provider, url)).toBe(true);
  });

  it.each([
    ['onedrive', 'http://my.microsoftpersonalcontent.com/x'],
    ['onedrive', 'https://microsoftpersonalcontent.com.evil.example/x'],
    ['onedrive', 'https://dl.boxcloud.com/x'],
    ['box', 'https://boxcloud.com.evil.example/x'],
    ['dropbox', 'https://127.0.0.1/x'],
  ] as const)('%s refuses %s', (provider, url) => {
    expect(isProviderUrl(config, provider, url)).toBe(false);
  });
});

describe("the original upload call's links (auth_file_url)", () => {
  it('reads a Graph item address as its drive and item apart, a personal item id with its "!"', () => {
    const config = loadConfig({});
    const base = 'https://graph.microsoft.com/v1.0';
    expect(
      pickFromLink(config, `${base}/drives/d4648f06c91d9d3d/items/D4648F06C91D9D3D%2154929/content`),
    ).toEqual({
      provider: 'onedrive',
      driveId: 'd4648f06c91d9d3d',
      fileId: 'D4648F06C91D9D3D!54929',
    });
    expect(
      pickFromLink(
        config,
        `${base}/drives/b!-RIj2DuyvEyV1T4NlOaMHk8X/items/01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K`,
      ),
    ).toEqual({
      provider: 'onedrive',
      driveId: 'b!-RIj2DuyvEyV1T4NlOaMHk8X',
      fileId: '01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K',
    });
  });
});
