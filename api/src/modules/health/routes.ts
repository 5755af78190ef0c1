import express from 'express';
import type { Router } from 'express';
import { noteServerError } from '../../http/request-log.js';
import { checkReady } from './ready.js';
import type { ReadyDeps } from './ready.js';
import { checkHealth } from './service.js';

/**
 * GET /api/health: liveness, always 200 while the process answers (service.ts), cheap enough to poll.
 * GET /api/ready: 200 when this process can take traffic, 503 naming the failing checks (ready.ts).
 */
export function healthRoutes(deps: ReadyDeps): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.set('Cache-Control', 'no-store').json(checkHealth(deps));
  });
  router.get('/ready', async (req, res) => {
    const { causes, ...report } = await checkReady({ ...deps, logger: req.log });
    if (report.status !== 'ready') {
      res.set('Retry-After', '5');
      // One error line for the probe (request-log.ts), naming each failed check and why.
      const why = report.failing.map((check) => `${check}: ${describe(causes[check])}`).join('; ');
      noteServerError(res, {
        code: 'not_ready',
        reason: `not ready: ${report.failing.join(', ')} failed`,
        cause: new Error(why),
      });
    }
    res
      .status(report.status === 'ready' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(report);
  });
  return router;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
}
