import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../src/engine/index.js';
import { DesktopService } from '../src/main/service.js';
import type { TokenVault } from '../src/main/service.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort, PASSWORD, registerClient, startApi, tempDir } from './helpers/api.js';
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

  it('says in words that a server cannot be reached at sign-in, and queues an upload while it is down', async () => {
    const vault = memoryVault();
    const service = new DesktopService(vault, new MemoryStore(), a.url);
    try {
      const down = `http://127.0.0.1:${await freePort()}`;
      expect(await service.login(down, 'ada@example.com', PASSWORD)).toEqual({
        ok: false,
        message: `Nothing answers at ${down} (the connection was refused).`,
      });
      // Signed in while it answered; then it went away: the upload is still queued at once.
      expect(await service.login(a.url, 'ada@example.com', PASSWORD)).toMatchObject({ ok: true });
      await a.kill();
      const work = await tempDir();
      const clip = path.join(work.dir, 'clip.mov');
      await writeFile(clip, 'frames');
      const form = { form_type: 'creative', project_name: 'Gala', description: '' } as const;
      expect(await service.submit(form, [clip])).toEqual({ ok: true });
      expect(await service.submit(form, [path.join(work.dir, 'gone.mov')])).toEqual({
        ok: false,
        message: 'gone.mov does not exist.',
        fields: { files: 'gone.mov does not exist.' },
      });
      expect(await service.checkPaths([clip, path.join(work.dir, 'gone.mov')])).toEqual([
        { path: path.join(work.dir, 'gone.mov'), reason: 'does not exist' },
      ]);
      expect(service.snapshot().jobs.map((j) => j.state)).toEqual(['waiting']);
      await a.restart();
      await work.remove();
    } finally {
      await service.close();
    }
  });
});
