import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { isKnownRoute } from '@avp/shared';
import express from 'express';
import type { RequestHandler, Response, Router } from 'express';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// Files without a content hash in their name must be revalidated, or a deploy would not reach browsers.
const REVALIDATE = 'no-cache';

/** Where the build's prerendered pages are (build/scripts/prerender.mjs), relative to the web dist folder. */
export const PRERENDER_DIR = 'prerender';

export interface PrerenderedPage {
  path: string;
  file: string;
  canonicalPath: string;
  indexable: boolean;
}

export interface PrerenderManifest {
  /** The origin written into the pages' absolute URLs at build time; replaced by PUBLIC_URL when sent. */
  origin: string;
  generatedAt: string;
  pages: PrerenderedPage[];
  /** The prerendered not-found page, sent with 404 for unknown routes. */
  notFound?: string;
  /** Unknown routes the built app renders itself (a showcase build's /ui): the app's shell, still 404. */
  appPaths?: string[];
}

export interface WebAppOptions {
  /** This deployment's address (config.PUBLIC_URL): canonical links, Open Graph, sitemap and robots.txt. */
  publicUrl?: string;
  /**
   * A second opinion on paths the route table knows: false makes the path a 404 (the store module: a store
   * page whose store does not exist).
   */
  pageExists?: (pathname: string) => Promise<boolean>;
}

/** Paths that are not for search engines: the portal, the store's order steps and the staff screens. */
export const ROBOTS_DISALLOW = [
  '/api/',
  '/client',
  '/client_test',
  '/register',
  '/reset_password',
  '/account',
  '/exhibitor_order',
  '/payment',
  '/confirmation',
  '/manage_order_forms',
  '/staff',
];

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Hashed scripts and styles the build stored beside a .br and a .gz copy (build/scripts/prerender.mjs). */
const PRECOMPRESSED = /^\/assets\/[\w.-]+\.(?:js|css)$/;

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

function normalise(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return trimmed === '' ? '/' : trimmed;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Reads a file once and again only when it changes on disk (a rebuild while the server runs). */
function fileCache<T>(parse: (text: string) => T) {
  const cache = new Map<string, { mtimeMs: number; value: T }>();
  return async (file: string): Promise<T | undefined> => {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit.value;
    const value = parse(await readFile(file, 'utf8'));
    cache.set(file, { mtimeMs, value });
    return value;
  };
}

export function sitemapXml(manifest: PrerenderManifest, publicUrl: string): string {
  const lastmod = manifest.generatedAt.slice(0, 10);
  const urls = manifest.pages
    .filter((page) => page.indexable && page.canonicalPath === page.path)
    .map(
      (page) =>
        `  <url><loc>${escapeXml(`${publicUrl}${page.path}`)}</loc><lastmod>${lastmod}</lastmod><priority>${page.path === '/' ? '1.0' : '0.7'}</priority></url>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/**
 * Serves the built React app: hashed files under /assets/ are cached forever, everything else is
 * revalidated. A public page prerendered by the build is sent as its complete HTML (its absolute URLs moved
 * onto PUBLIC_URL); /sitemap.xml and /robots.txt are made from the same list. Any other GET falls through
 * to index.html with 200 for the app's known routes and 404 for the rest, with the prerendered not-found
 * page when there is one (the status tells crawlers the truth; the page shows 'Sorry, Page Not Found.').
 */
export function webApp(distDir: string, options: WebAppOptions = {}): Router {
  const router = express.Router();
  const indexFile = path.join(distDir, 'index.html');
  const prerenderDir = path.join(distDir, PRERENDER_DIR);
  const readManifest = fileCache((text) => JSON.parse(text) as PrerenderManifest);
  const readText = fileCache((text) => text);

  // The prerendered pages are sent under their own paths only, never as /prerender/<file>.
  const hidePrerenderDir: RequestHandler = (req, _res, next) => {
    if (req.path === `/${PRERENDER_DIR}` || req.path.startsWith(`/${PRERENDER_DIR}/`)) next('router');
    else next();
  };
  router.use(hidePrerenderDir);

  // Compressed copies of the bundles, when the browser takes them: a fraction of the bytes on every first visit.
  const precompressed: RequestHandler = async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !PRECOMPRESSED.test(req.path)) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    const encoding = req.acceptsEncodings('br', 'gzip');
    if (encoding !== 'br' && encoding !== 'gzip') {
      next();
      return;
    }
    // Relative to `root`, so send's own checks refuse '..' and dot-files inside the bundle but not a
    // dot-folder the bundle itself happens to live in.
    const relative = `${req.path.replace(/^\/+/, '')}${encoding === 'br' ? '.br' : '.gz'}`;
    const file = path.resolve(distDir, relative);
    if (!file.startsWith(path.resolve(distDir) + path.sep)) {
      next();
      return;
    }
    try {
      await stat(file);
    } catch {
      next();
      return;
    }
    res.type(path.extname(req.path)).set({ 'Content-Encoding': encoding, 'Cache-Control': IMMUTABLE });
    res.sendFile(relative, { root: distDir, cacheControl: false, dotfiles: 'deny' }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
  router.use(precompressed);
  router.use(
    express.static(distDir, {
      index: false,
      redirect: false,
      cacheControl: false,
      setHeaders(res, filePath) {
        const relative = path.relative(distDir, filePath).split(path.sep).join('/');
        res.setHeader('Cache-Control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      },
    }),
  );

  // Pages are compressed once per content and encoding (a handful of pages, each a few tens of KB).
  const compressedPages = new Map<string, Buffer>();
  async function compressed(html: string | Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
    const key = `${encoding}\0${html.toString()}`;
    const hit = compressedPages.get(key);
    if (hit) return hit;
    const body =
      encoding === 'br'
        ? await brotli(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
        : await gzipAsync(html, { level: 9 });
    if (compressedPages.size > 200) compressedPages.clear();
    compressedPages.set(key, body);
    return body;
  }

  async function prerendered(manifest: PrerenderManifest, file: string): Promise<string | undefined> {
    const html = await readText(path.join(prerenderDir, path.basename(file)));
    if (html === undefined) return undefined;
    const publicUrl = options.publicUrl?.replace(/\/+$/, '');
    return publicUrl && publicUrl !== manifest.origin ? html.split(manifest.origin).join(publicUrl) : html;
  }

  const fallback: RequestHandler = async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) {
      next();
      return;
    }
    const manifest = await readManifest(path.join(prerenderDir, 'manifest.json'));
    const pathname = normalise(req.path);
    const publicUrl = (options.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`).replace(
      /\/+$/,
      '',
    );

    if (manifest && pathname === '/sitemap.xml') {
      res.type('application/xml').set('Cache-Control', REVALIDATE).send(sitemapXml(manifest, publicUrl));
      return;
    }
    if (manifest && pathname === '/robots.txt') {
      res.type('text/plain').set('Cache-Control', REVALIDATE).send(robotsTxt(publicUrl));
      return;
    }

    const routeKnown = isKnownRoute(req.path);
    const known = routeKnown && (options.pageExists ? await options.pageExists(req.path) : true);
    const page = manifest?.pages.find((p) => p.path === pathname);
    let html: string | Buffer | undefined;
    if (manifest && page && known) html = await prerendered(manifest, page.file);
    // The prerendered not-found page only where the app itself renders its not-found route; a known page
    // that the server refuses (a store that does not exist) gets the shell, and the app says so itself.
    else if (manifest?.notFound && !routeKnown && !manifest.appPaths?.includes(pathname))
      html = await prerendered(manifest, manifest.notFound);
    if (html === undefined) {
      try {
        html = await readFile(indexFile);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        notBuilt(res);
        return;
      }
    }
    res
      .status(known ? 200 : 404)
      .type('html')
      .set('Cache-Control', REVALIDATE)
      .vary('Accept-Encoding');
    const encoding = req.acceptsEncodings('br', 'gzip');
    if (encoding === 'br' || encoding === 'gzip') {
      res.set('Content-Encoding', encoding).send(await compressed(html, encoding));
      return;
    }
    res.send(html);
  };
  router.use(fallback);
  return router;
}

function notBuilt(res: Response): void {
  res
    .status(503)
    .type('text/plain')
    .set('Cache-Control', 'no-store')
    .send('The web app is not built yet: run npm run build.');
}
