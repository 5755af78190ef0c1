import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspDirectives } from '../src/http/security.js';
import type { PrerenderManifest } from '../src/http/web.js';
import { startTestApp } from './helpers/app.js';
import type { TestApp } from './helpers/app.js';
import { tempDir, writeWebDist } from './helpers/env.js';

const BUILD_ORIGIN = 'https://www.northbeamevents.example';
const PUBLIC_URL = 'http://site.test:8080';

/** A build with prerendered pages, as build/scripts/prerender.mjs writes them. */
async function writePrerendered(dir: string): Promise<void> {
  await writeWebDist(dir);
  // robots.txt is made by the server from PUBLIC_URL (a robots.txt file in the build would take precedence).
  await rm(path.join(dir, 'robots.txt'));
  const pre = path.join(dir, 'prerender');
  await mkdir(pre, { recursive: true });
  const page = (title: string, canonical?: string) =>
    `<!doctype html><html><head><title>${title}</title>${canonical ? `<link rel="canonical" href="${BUILD_ORIGIN}${canonical}" />` : ''}` +
    `<meta property="og:image" content="${BUILD_ORIGIN}/media/site/og.jpg" /></head><body><div id="root"><main><h1>${title}</h1></main></div></body></html>`;
  await writeFile(path.join(pre, 'index.html'), page('Home', '/'));
  await writeFile(path.join(pre, 'home.html'), page('Home', '/'));
  await writeFile(path.join(pre, 'contact.html'), page('Contact', '/contact'));
  await writeFile(path.join(pre, 'coming_soon.html'), page('Coming soon', '/coming_soon'));
  await writeFile(path.join(pre, '404.html'), page('Sorry, Page Not Found.'));
  const manifest: PrerenderManifest = {
    origin: BUILD_ORIGIN,
    generatedAt: '2024-10-08T12:00:00.000Z',
    notFound: '404.html',
    appPaths: ['/ui'],
    pages: [
      { path: '/', file: 'index.html', canonicalPath: '/', indexable: true },
      { path: '/home', file: 'home.html', canonicalPath: '/', indexable: true },
      { path: '/contact', file: 'contact.html', canonicalPath: '/contact', indexable: true },
      { path: '/coming_soon', file: 'coming_soon.html', canonicalPath: '/coming_soon', indexable: false },
    ],
  };
  await writeFile(path.join(pre, 'manifest.json'), JSON.stringify(manifest));
}

describe('serving prerendered public pages', () => {
  let t: TestApp;
  let dist: { dir: string; remove(): Promise<void> };
  beforeAll(async () => {
    dist = await tempDir('avp-web-prerender-');
    await writePrerendered(dist.dir);
    t = await startTestApp({ env: { WEB_DIST_DIR: dist.dir, PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
    await dist?.remove();
  });

  it.each([
    ['/', 'Home'],
    ['/home', 'Home'],
    ['/contact', 'Contact'],
    ['/contact/', 'Contact'],
  ])('sends %s as its complete page, with absolute URLs on PUBLIC_URL', async (route, title) => {
    const res = await t.request(route);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain(`<h1>${title}</h1>`);
    expect(html).not.toContain(BUILD_ORIGIN);
    expect(html).toContain(`content="${PUBLIC_URL}/media/site/og.jpg"`);
  });

  it('names the canonical page of a second name', async () => {
    expect(await (await t.request('/home')).text()).toContain(
      `<link rel="canonical" href="${PUBLIC_URL}/" />`,
    );
  });

  it('keeps the app shell for known routes that are not prerendered', async () => {
    const res = await t.request('/client');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="root"></div>');
  });

  it('answers an unknown route 404 with the prerendered not-found page', async () => {
    const res = await t.request('/no/such/page');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('<h1>Sorry, Page Not Found.</h1>');
  });

  it("sends the app's shell, still 404, for an unknown route the built app renders itself (/ui)", async () => {
    const res = await t.request('/ui');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('Sorry, Page Not Found.');
  });

  it('does not serve the prerender folder under its own name', async () => {
    const res = await t.request('/prerender/contact.html');
    expect(res.status).toBe(404);
    expect((await t.request('/prerender/manifest.json')).status).toBe(404);
  });

  it('lists the indexable canonical pages in /sitemap.xml', async () => {
    const res = await t.request('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await res.text();
    expect(xml).toContain(`<loc>${PUBLIC_URL}/</loc>`);
    expect(xml).toContain(`<loc>${PUBLIC_URL}/contact</loc>`);
    expect(xml).toContain('<lastmod>2024-10-08</lastmod>');
    expect(xml).not.toContain('/home<');
    expect(xml).not.toContain('coming_soon');
  });

  it('points crawlers at the sitemap and away from the portal, store and staff pages', async () => {
    const res = await t.request('/robots.txt');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/manage_order_forms$/m);
    expect(text).toMatch(/^Disallow: \/client$/m);
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('allows the social feed frame, and gallery media from MEDIA_BASE_URL', async () => {
    const csp = (await t.request('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-src 'self' https://www.facebook.com");
    const directives = cspDirectives({ MEDIA_BASE_URL: 'https://cdn.example.com/media' });
    expect(directives['img-src']).toContain('https://cdn.example.com');
    expect(directives['media-src']).toContain('https://cdn.example.com');
    expect(cspDirectives({})['img-src']).not.toContain('https://cdn.example.com');
  });

  it('lets the page frame the OneDrive v8 picker and POST the token to it only when OneDrive is configured', () => {
    const onedrive = cspDirectives({
      ONEDRIVE_CLIENT_ID: 'client',
      ONEDRIVE_PICKER_URL: ['https://onedrive.live.com/picker'],
    });
    expect(onedrive['form-action']).toEqual(["'self'", 'https://onedrive.live.com']);
    expect(onedrive['frame-src']).toContain('https://onedrive.live.com');
    const none = cspDirectives({});
    expect(none['form-action']).toEqual(["'self'"]);
    expect(none['frame-src']).not.toContain('https://onedrive.live.com');
    // The picker's address is configured but OneDrive is not (no client id): neither is allowed.
    const unset = cspDirectives({ ONEDRIVE_PICKER_URL: ['https://onedrive.live.com/picker'] });
    expect(unset['form-action']).toEqual(["'self'"]);
    expect(unset['frame-src']).not.toContain('https://onedrive.live.com');
  });
});
