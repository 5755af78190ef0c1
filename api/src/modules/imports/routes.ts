import express from 'express';
import type { Request, Router } from 'express';
import type { CloudSources } from '../../adapters/cloud/index.js';
import { clientIp, rateLimit } from '../../http/rate-limit.js';
import { requireUser } from '../accounts/index.js';
import { exchangeBoxCode } from './box-auth.js';
import type { UploadsDeps } from '../uploads/index.js';
import { cloudPickers } from './cloud-config.js';
import { listImports, renewImportToken, startImport } from './service.js';
import type { TokenBox } from './token-box.js';

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * Cloud imports (docs/api.md 'Cloud imports'; types in shared/src/api/imports.ts):
 *
 *   GET  /api/uploads/cloud-config                        the pickers to show, with their public keys
 *   POST /api/uploads/submissions/:submissionId/imports   start importing a picked file → 201 { file }
 *   GET  /api/uploads/imports                             the caller's recent imports
 *   POST /api/uploads/imports/:fileId/token               a fresh token for one waiting on the client
 *   POST /api/uploads/cloud/box/token                     the Box picker's token, for its sign-in code
 *
 * The bytes are copied by the import worker (worker.ts), not in these requests; progress is read from
 * GET /api/uploads/files/:fileId like any file's.
 */
export function importsRoutes(
  deps: UploadsDeps & { sources: CloudSources; tokens: TokenBox; onQueued?: () => void },
): Router {
  const d = deps;
  const router = express.Router();
  const user = (req: Request) => req.user!;

  router.get('/uploads/cloud-config', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json(cloudPickers(deps.config));
  });

  router.post('/uploads/submissions/:submissionId/imports', requireUser, async (req, res) => {
    const { created, file } = await startImport(
      { ...d, logger: req.log },
      user(req),
      param(req, 'submissionId'),
      req.body,
    );
    deps.onQueued?.();
    res
      .status(created ? 201 : 200)
      .set('Cache-Control', 'no-store')
      .json({ file });
  });

  router.get('/uploads/imports', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ imports: await listImports(d, user(req)) });
  });

  router.post('/uploads/imports/:fileId/token', requireUser, async (req, res) => {
    const file = await renewImportToken(d, user(req), param(req, 'fileId'), req.body);
    deps.onQueued?.();
    res.set('Cache-Control', 'no-store').json({ file });
  });

  const boxLimit = rateLimit({
    name: 'box-token',
    windowSeconds: 600,
    max: 30,
    key: (req) => clientIp(req),
    message: 'Too many Box sign-ins. Please wait a few minutes and try again.',
  });
  router.post('/uploads/cloud/box/token', requireUser, boxLimit, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await exchangeBoxCode(deps.config, req.body));
  });

  return router;
}
