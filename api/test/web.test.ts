import { rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/db/seed-demo.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { tempDir, writeWebDist } from './helpers/env.js';

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: { dir: string; remove(): Promise<void> };
  beforeAll(async () => {
    dist = await tempDir('avp-web-dist-');
    await writeWebDist(dist.dir);
    t = await startTestApp({ env: { WEB_DIST_DIR: dist.dir } });
    // Store pages are pages only for stores that exist (the store module's check): demo-expo must.
    await seedDemo(t.db, { timeZone: t.config.TZ_STORE });
  });
  afterAll(async () => {
    await t?.close();
    await dist?.remove();
  });

  it('caches hashed assets forever', async () => {
    const res = await t.request('/assets/index-3f9a1c.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(await res.text()).toContain('console.log');
  });

  it('revalidates unhashed files', async () => {
    const res = await t.request('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/', '/home', '/contact', '/exhibitor_order/demo-expo/checkout', '/staff/orders/42', '/client/'])(
    'serves index.html with 200 for the known route %s',
    async (route) => {
      const res = await t.request(route);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it.each(['/nope', '/exhibitor_order/a/b/c', '/assets/missing-123.js', '/assets'])(
    'serves index.html with 404 for the unknown route %s',
    async (route) => {
      const res = await t.request(route);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it('answers HEAD like GET without a body', async () => {
    const res = await t.request('/about', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('keeps /api JSON even for GET', async () => {
    const res = await t.request('/api/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'not_found', message: 'No such API route: GET /api/nope' },
    });
  });

  it('answers other methods on pages with a JSON 404', async () => {
    const res = await t.request('/contact', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('says how to build when index.html is missing', async () => {
    await rm(path.join(dist.dir, 'index.html'));
    const res = await t.request('/');
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('The web app is not built yet: run npm run build.');
    await writeWebDist(dist.dir);
  });
});

describe('precompressed assets', () => {
  let t: TestApp;
  let holder: { dir: string; remove(): Promise<void> };
  beforeAll(async () => {
    // The bundle lives under a dot-folder, as the browser tests' test/.tmp/web-dist does.
    holder = await tempDir('avp-web-dot-');
    const dist = path.join(holder.dir, '.tmp', 'web-dist');
    await writeWebDist(dist);
    await writeFile(path.join(dist, 'assets', 'index-3f9a1c.js.gz'), gzipSync('console.log("gzipped");\n'));
    t = await startTestApp({ env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t?.close();
    await holder?.remove();
  });

  it('sends the gzip copy with its encoding, even from inside a dot-folder', async () => {
    const res = await t.request('/assets/index-3f9a1c.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe('console.log("gzipped");\n');
  });

  it('never serves a file outside the bundle', async () => {
    await writeFile(path.join(holder.dir, 'secret.js.gz'), gzipSync('secret'));
    // fetch would normalise the dots away; a raw request sends them as an attacker would.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${t.url}/assets/../../../secret.js`, { headers: { 'accept-encoding': 'gzip' } });
      req.path = '/assets/../../../secret.js';
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('latin1') }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).not.toBe(200);
    expect(body).not.toContain(gzipSync('secret').toString('latin1'));
  });
});
