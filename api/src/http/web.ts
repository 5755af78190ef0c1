import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isKnownRoute } from '@avp/shared';
import express from 'express';
import type { RequestHandler, Response, Router } from 'express';

const IMMUTABLE = 'public, max-age=31536000, immutable';
// Files without a content hash in their name must be revalidated, or a deploy would not reach browsers.
const REVALIDATE = 'no-cache';

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * Serves the built React app: hashed files under /assets/ are cached forever, everything else is
 * revalidated, and any other GET falls through to index.html with 200 for the app's known routes and
 * 404 for the rest (the app shows its own 'Sorry, Page Not Found.'; the status tells crawlers the truth).
 */
export function webApp(distDir: string): Router {
  const router = express.Router();
  const indexFile = path.join(distDir, 'index.html');

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

  const fallback: RequestHandler = async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isApiPath(req.path)) {
      next();
      return;
    }
    let html: Buffer;
    try {
      html = await readFile(indexFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      notBuilt(res);
      return;
    }
    res
      .status(isKnownRoute(req.path) ? 200 : 404)
      .type('html')
      .set('Cache-Control', REVALIDATE)
      .send(html);
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
