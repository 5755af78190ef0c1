import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLOUD_UNAVAILABLE } from '../src/modules/imports/index.js';
import { DIALECTS } from './helpers/env.js';
import { startImportHarness } from './helpers/imports.js';

/**
 * Issue 28 'No stall without a timeout', for the provider's metadata asked when an import is started: a
 * provider that accepts the connection and never answers. The client's request must end after
 * IMPORT_IDLE_TIMEOUT_SECONDS with 502 cloud_unavailable in words, and no file is added.
 */

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

/** Accepts connections and reads them, never answering a byte. */
async function silentProvider(): Promise<{ url: string; accepted: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const PICKS: Array<[string, string, Record<string, unknown>]> = [
  ['Google Drive', 'GOOGLE_API_URL', { provider: 'google-drive', fileId: 'f-silent', accessToken: 't' }],
  ['Dropbox', 'DROPBOX_API_URL', { provider: 'dropbox', fileId: 'id:silent', accessToken: 't' }],
  ['Box', 'BOX_API_URL', { provider: 'box', fileId: '123', accessToken: 't' }],
  [
    'OneDrive',
    'GRAPH_API_URL',
    { provider: 'onedrive', driveId: 'd4648f06c91d9d3d', fileId: 'D4648F06C91D9D3D!54927', accessToken: 't' },
  ],
];

describe.each(DIALECTS)('starting an import from a provider that never answers (%s)', (dialect) => {
  it.each(PICKS)(
    '%s: 502 cloud_unavailable after the timeout, and no file added',
    async (_name, setting, pick) => {
      const provider = await silentProvider();
      cleanups.push(() => provider.close());
      const h = await startImportHarness({
        dialect,
        env: { [setting]: provider.url, IMPORT_IDLE_TIMEOUT_SECONDS: '1' },
      });
      cleanups.push(() => h.close());
      const res = await h.start({ ...pick, name: 'silent.mov' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ error: { code: 'cloud_unavailable', message: CLOUD_UNAVAILABLE } });
      expect(provider.accepted()).toBeGreaterThan(0);
      expect(await h.t.db.models.FileImport.count()).toBe(0);
    },
    60_000,
  );
});
