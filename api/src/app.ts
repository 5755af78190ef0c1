import express from 'express';
import type { Express } from 'express';
import type { Config } from './config.js';
import type { Database } from './db/index.js';
import { attachAfterAnswerWork } from './http/after-answer.js';
import { apiNotFound, errorHandler, routeNotFound } from './http/errors.js';
import { endIdleBody } from './http/idle-body.js';
import { priorityGateFor, uploadWritesBehind } from './http/priority-gate.js';
import { databaseRateLimitStore, setRateLimitStore } from './http/rate-limit.js';
import { requestLogger } from './http/request-log.js';
import { captureRoutePatterns } from './http/route-pattern.js';
import { sameOrigin } from './http/same-origin.js';
import { securityHeaders } from './http/security.js';
import { webApp } from './http/web.js';
import { createUploadStorage } from './adapters/storage/index.js';
import type { Logger } from './logger.js';
import { accountsRoutes, loadSession, loadStaffRoles } from './modules/accounts/index.js';
import { contactRoutes } from './modules/contact/index.js';
import { healthRoutes } from './modules/health/index.js';
import { countRequests, METRICS_PATH, metricsOf, metricsRoute } from './modules/metrics/index.js';
import {
  LEGACY_PATHS,
  LEGACY_UPLOAD_BODY_LIMIT,
  LEGACY_UPLOAD_PATH,
  legacyAnswers,
  legacyCredentials,
  legacyRoutes,
} from './modules/legacy/index.js';
import { staffMediaRoutes, staffRoutes } from './modules/staff/index.js';
import { staffMembersRoutes } from './modules/staff-members/index.js';
import { storePageExists, storeRoutes, stripeWebhookRoutes } from './modules/store/index.js';
import { RunningHashes, uploadsRoutes } from './modules/uploads/index.js';
import { importsRoutes, TokenBox } from './modules/imports/index.js';
import { uploadEventsRoutes } from './modules/upload-events/index.js';
import { createCloudSources } from './adapters/cloud/index.js';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  /** This process's import worker, woken when an import is queued (it also looks every second). */
  importWorker?: { wake(): void };
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
  // Counters of every rateLimit() middleware (api/src/http/rate-limit.ts).
  setRateLimitStore(app, databaseRateLimitStore(deps.db));
  attachAfterAnswerWork(app);

  // Every request but upload bytes counted while it waits for its answer: part bodies wait meanwhile.
  app.use(priorityGateFor(config).middleware);
  // And their database writes behind everyone else's.
  app.use(uploadWritesBehind);
  // Route patterns (for the metrics' labels and the error log line), and every request counted and timed.
  captureRoutePatterns(app);
  app.use(countRequests(metricsOf(deps.db)));
  app.use(requestLogger(deps.logger));
  app.use(securityHeaders(config));
  // The cloud pickers' sign-in popups come back here from the provider's pages: without this the
  // popup would be cut off from the page that opened it (a browsing-context-group switch), and could
  // neither hand it the sign-in nor be seen to close.
  app.use('/client/cloud-callback', (_req, res, next) => {
    res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
    next();
  });

  // A middleware, not a route: it is no part of the API (nor of its route list); METRICS_TOKEN opens it.
  app.use(METRICS_PATH, metricsRoute(config, metricsOf(deps.db)));

  // Stripe signs the raw bytes of its webhook: this route reads its own body, ahead of the JSON parser.
  app.use('/api', stripeWebhookRoutes(deps));

  const api = express.Router();
  // The spec's /api/*.php calls answer errors as the original did, whoever raises them (modules/legacy).
  api.use(LEGACY_PATHS, legacyAnswers);
  // CSRF: a state-changing request must come from this site (or carry a bearer token).
  api.use(sameOrigin(config));
  // The legacy upload call carries a 6 MiB part as base64 inside JSON; every other route keeps 1 MB.
  // Its body is a part too: one that stops arriving is ended rather than read for ever.
  api.use(LEGACY_UPLOAD_PATH, endIdleBody(config.UPLOAD_PART_IDLE_SECONDS));
  api.use(LEGACY_UPLOAD_PATH, express.json({ limit: LEGACY_UPLOAD_BODY_LIMIT }));
  api.use(express.json({ limit: JSON_BODY_LIMIT }));
  // A legacy call's dotted token (header or body) stands for the session it carries.
  api.use(LEGACY_PATHS, legacyCredentials(config));
  // Who is asking: req.user for every route after this line.
  api.use(loadSession(deps));
  // Their staff roles (#33), and a deactivated member's session ended.
  api.use(loadStaffRoles(deps));
  // Upload parts are raw bytes streamed to storage; express.json above reads application/json only.
  const storage = createUploadStorage(config);
  api.use(healthRoutes({ ...deps, storage }));
  api.use(accountsRoutes(deps));
  api.use(contactRoutes(deps));
  api.use(storeRoutes(deps));
  const hashes = new RunningHashes();
  const cloud = { sources: createCloudSources(config), tokens: new TokenBox(config.SESSION_SECRET) };
  api.use(importsRoutes({ ...deps, storage, hashes, ...cloud, onQueued: () => deps.importWorker?.wake() }));
  api.use(uploadsRoutes({ ...deps, storage, hashes }));
  api.use(uploadEventsRoutes(deps));
  api.use('/staff', staffRoutes(deps));
  api.use(staffMembersRoutes(deps));
  api.use(legacyRoutes({ ...deps, storage, hashes, ...cloud }));
  api.use(apiNotFound);
  app.use('/api', api);

  // Images staff upload (store and product images), from DATA_DIR/media.
  app.use(staffMediaRoutes(config));
  app.use(
    webApp(config.WEB_DIST_DIR, { publicUrl: config.PUBLIC_URL, pageExists: storePageExists(deps.db) }),
  );
  app.use(routeNotFound);
  app.use(errorHandler(config));
  return app;
}
