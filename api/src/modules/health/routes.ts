import express from 'express';
import type { Router } from 'express';
import { checkHealth } from './service.js';
import type { HealthDeps } from './service.js';

/** GET /api/health: 200 when every component works, 503 'degraded' naming the failed one otherwise. */
export function healthRoutes(deps: HealthDeps): Router {
  const router = express.Router();
  router.get('/health', async (req, res) => {
    const report = await checkHealth({ ...deps, logger: req.log });
    res
      .status(report.status === 'ok' ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json(report);
  });
  return router;
}
