import express from 'express';
import type { Express } from 'express';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { apiNotFound, errorHandler, routeNotFound } from './http/errors.js';
import { requestLogger } from './http/request-log.js';
import { securityHeaders } from './http/security.js';
import { webApp } from './http/web.js';
import type { Logger } from './logger.js';
import { healthRoutes } from './modules/health/index.js';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

export const JSON_BODY_LIMIT = '1mb';

/**
 * The Express application, without a listener (Node.js best practices: the app apart from the server), so
 * tests and the server build it the same way. Order matters: request id and log first, then headers, the
 * API and its JSON 404, the web app, and last the one error handler.
 */
export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);

  app.use(requestLogger(deps.logger));
  app.use(securityHeaders());

  const api = express.Router();
  api.use(express.json({ limit: JSON_BODY_LIMIT }));
  api.use(healthRoutes(deps));
  api.use(apiNotFound);
  app.use('/api', api);

  app.use(webApp(config.WEB_DIST_DIR));
  app.use(routeNotFound);
  app.use(errorHandler(config));
  return app;
}
