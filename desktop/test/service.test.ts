import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/engine/index.js';
import { DesktopService } from '../src/main/service.js';
import type { TokenVault } from '../src/main/service.js';
import { PASSWORD, registerClient, startApi } from './helpers/api.js';
import type { ApiProcess } from './helpers/api.js';

/** The preload API's service against two real API servers: the engine follows the server signed in to. */
describe('DesktopService sign-in across servers', () => {
  let a: ApiProcess;
  let b: ApiProcess;
  beforeAll(async () => {
    [a, b] = await Promise.all([startApi(), startApi()]);
    await Promise.all([registerClient(a.url, 'ada@example.com'), registerClient(b.url, 'ada@example.com')]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  function memoryVault(): TokenVault {
    let value: ReturnType<TokenVault['read']> = null;
    return { read: () => value, write: (v) => void (value = v) };
  }

  it('keeps the engine for the same server and replaces it for another, even after a sign-out', async () => {
    const service = new DesktopService(memoryVault(), new MemoryStore(), a.url);
    try {
      expect(await service.login(a.url, 'ada@example.com', PASSWORD)).toMatchObject({ ok: true });
      const first = service.engine;
      expect(first).not.toBeNull();
      await service.logout();
      expect(service.session()).toBeNull();
      expect(await service.login(a.url, 'ada@example.com', PASSWORD)).toMatchObject({ ok: true });
      expect(service.engine).toBe(first);
      await service.logout();
      const signedIn = await service.login(b.url, 'ada@example.com', PASSWORD);
      expect(signedIn).toMatchObject({ ok: true, value: { server: b.url } });
      expect(service.engine).not.toBe(first);
      expect(service.engine?.client).not.toBe(first?.client);
    } finally {
      await service.close();
    }
  });
});
