/**
 * Cloud access tokens across the engine's process boundary: the accounts live in the parent
 * (the app's main process, where safeStorage is), and the engine process asks there for each token an
 * import needs. First the two halves of the relay on their own (answers, refusals with their code, a
 * forced refresh); then the compiled engine forked as the app forks its utilityProcess, against the real
 * API whose import sources are the provider stand-ins: a Dropbox file picked from the parent's
 * accounts is imported with a token the child asked for, and when the server needs a new one the child
 * asks again with forceRefresh and the parent's accounts refresh it at the provider.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CloudProvider } from '@avp/shared';
import {
  CloudAccountError,
  CloudAccounts,
  cloudSettings,
  MemoryAccountStore,
} from '../src/engine/cloud/index.js';
import type { CloudTokenSource } from '../src/engine/imports.js';
import { EngineClient } from '../src/engine-host/client.js';
import { forkEngine } from '../src/engine-host/fork-engine.js';
import type { FromHost, SavedSession } from '../src/engine-host/protocol.js';
import { answerTokenRequest, NO_CLOUD_ACCOUNTS, relayedTokenSource } from '../src/engine-host/token-relay.js';
import type { DesktopSnapshot } from '../src/main/api.js';
import { DESKTOP_DIR, PASSWORD, registerClient, startApi, tempDir } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';
import { startAuthStandIn, visit } from './helpers/cloud-auth.js';
import type { AuthStandIn } from './helpers/cloud-auth.js';
import { sha256, startImportStandIns } from './helpers/import-standins.js';
import type { ProvidersStandIn } from './helpers/import-standins.js';

const TSC = path.join(DESKTOP_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
const ENTRY = path.join(DESKTOP_DIR, 'dist', 'engine-host', 'child.js');
const EMAIL = 'relay@example.com';
const MIB = 1024 * 1024;
const SPONSOR = { form_type: 'sponsor', event_name: 'Expo 2027', sponsor_company: 'Acme AV' } as const;

describe('the token relay’s two halves', () => {
  /** The child's source wired to the parent's answer, as the protocol carries them (structured clones). */
  function wired(accounts: CloudTokenSource | undefined) {
    const requests: Extract<FromHost, { type: 'token' }>[] = [];
    const relay = relayedTokenSource((request) => {
      requests.push(request);
      void answerTokenRequest(accounts, structuredClone(request)).then((answer) =>
        relay.answer(structuredClone(answer)),
      );
    });
    return { source: relay.source, requests };
  }

  it('asks for a token and passes forceRefresh along', async () => {
    const asked: [CloudProvider, boolean][] = [];
    const { source, requests } = wired({
      accessToken: (provider, options) => {
        asked.push([provider, options?.forceRefresh === true]);
        return Promise.resolve(`${provider}-${asked.length}`);
      },
    });
    expect(await source.accessToken('dropbox')).toBe('dropbox-1');
    expect(await source.accessToken('box', { forceRefresh: true })).toBe('box-2');
    expect(asked).toEqual([
      ['dropbox', false],
      ['box', true],
    ]);
    expect(requests.map((r) => r.id)).toEqual([1, 2]);
  });

  it('brings a refusal back as the CloudAccountError it was, code included', async () => {
    const { source } = wired({
      accessToken: () => Promise.reject(new CloudAccountError('reconnect', 'Box is not signed in any more.')),
    });
    const error = await source.accessToken('box').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CloudAccountError);
    expect(error).toMatchObject({ code: 'reconnect', message: 'Box is not signed in any more.' });
  });

  it('refuses without accounts, and a provider that is not ours', async () => {
    await expect(wired(undefined).source.accessToken('dropbox')).rejects.toMatchObject({
      code: 'not_connected',
      message: NO_CLOUD_ACCOUNTS,
    });
    const answer = await answerTokenRequest(
      { accessToken: () => Promise.resolve('never') },
      { id: 7, provider: '__proto__', forceRefresh: false },
    );
    expect(answer).toMatchObject({ id: 7, ok: false, code: 'bad_ref' });
  });
});

describe('a cloud import through the engine process', () => {
  let api: ApiProcess;
  let auth: AuthStandIn;
  let providers: ProvidersStandIn;
  let work: { dir: string; remove(): Promise<void> };
  let accounts: CloudAccounts;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [TSC, '-b', path.join(DESKTOP_DIR, 'tsconfig.json')]);
    auth = await startAuthStandIn();
    cleanups.push(() => auth.close());
    const standIns = await startImportStandIns(auth);
    cleanups.push(standIns.close);
    providers = standIns.providers;
    api = await startApi(standIns.apiEnv);
    cleanups.push(() => api.close());
    await registerClient(api.url, EMAIL);
    work = await tempDir('avp-relay-');
    cleanups.push(work.remove);
    accounts = new CloudAccounts({
      store: new MemoryAccountStore(),
      cipher: { encrypt: (s) => `sealed:${s}`, decrypt: (s) => s.slice(7) },
      settings: cloudSettings(auth.env()),
      openBrowser: (url) => void visit(url),
    });
    await accounts.connect('dropbox');
  }, 120_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('the child asks the parent for tokens, and for a refreshed one when the server needs it', async () => {
    const data = randomBytes(13 * MIB);
    providers.files.set('id:dreel', { id: 'id:dreel', name: 'reel.mov', data });
    auth.items.dropbox.push({
      id: 'id:dreel',
      name: 'reel.mov',
      parent: null,
      folder: false,
      size: data.length,
    });
    // After the first part the temporary link runs out and the provider stops taking the token it was
    // given, so the server needs a new link, and for that a new token from the app.
    providers.expireLinksAfter = 1;
    providers.expireTokenAfter = 1;
    const refreshes = auth.refreshes.dropbox;

    const asked: { provider: CloudProvider; forceRefresh: boolean }[] = [];
    let session: SavedSession | null = null;
    const client = new EngineClient({
      spawn: () => forkEngine(ENTRY),
      config: { defaultServer: api.url, stateFile: path.join(work.dir, 'engine-state.json') },
      vault: { read: () => session, write: (value) => void (session = value) },
      // The parent's accounts, observed: every token the child gets comes through here.
      cloud: {
        accessToken: (provider, options) => {
          asked.push({ provider, forceRefresh: options?.forceRefresh === true });
          return accounts.accessToken(provider, options);
        },
      },
    });
    client.start();
    try {
      expect(await client.call('login', [api.url, EMAIL, PASSWORD])).toMatchObject({ ok: true });
      const listed = await accounts.browse('dropbox', null);
      const reel = listed.items.find((item) => item.name === 'reel.mov')!;
      const done = new Promise<DesktopSnapshot>((resolve) => {
        const off = client.onChange((s) => {
          if (s.history.some((e) => e.files.some((f) => f.name === 'reel.mov'))) {
            off();
            resolve(s);
          }
        });
      });
      // A structured clone of what the browse panel holds, as the window sends it.
      expect(await client.call('submit', [SPONSOR, [], [structuredClone(reel)]])).toEqual({ ok: true });
      const snapshot = await done;
      expect(snapshot.history[0]!.files[0]).toMatchObject({ name: 'reel.mov', sha256: sha256(data) });
      expect(asked[0]).toEqual({ provider: 'dropbox', forceRefresh: false });
      expect(asked).toContainEqual({ provider: 'dropbox', forceRefresh: true });
      expect(auth.refreshes.dropbox).toBeGreaterThan(refreshes);
    } finally {
      providers.expireTokenAfter = null;
      providers.expireLinksAfter = null;
      await client.stop();
    }
  }, 90_000);
});
