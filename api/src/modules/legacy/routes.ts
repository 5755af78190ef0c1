import express from 'express';
import type { Router } from 'express';
import type { UploadStorage } from '../../adapters/storage/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import type { CloudSources } from '../../adapters/cloud/index.js';
import type { TokenBox } from '../imports/index.js';
import type { RunningHashes } from '../uploads/index.js';
import { legacyAccountRoutes } from './accounts.js';
import { legacyLogRoutes } from './client-log.js';
import { legacyPaymentRoutes } from './payments.js';
import { legacyStoreRoutes } from './stores.js';
import { legacyUploadRoutes } from './uploads.js';

export interface LegacyDeps {
  config: Config;
  db: Database;
  logger: Logger;
  storage: UploadStorage;
  hashes: RunningHashes;
  /** For cloud-picked files (auth_file_url), imported by the server like the portal's. */
  sources: CloudSources;
  tokens: TokenBox;
}

/**
 * The spec's original calls (SPEC §7, `/api/*.php`), each translated into the service the new API uses:
 * the same validation, rate limits, sessions and audit log, with the original's field names and base64
 * encodings. docs/api.md 'Legacy calls' lists them.
 */
export function legacyRoutes(deps: LegacyDeps): Router {
  const router = express.Router();
  router.use(legacyAccountRoutes(deps));
  router.use(legacyLogRoutes(deps));
  router.use(legacyUploadRoutes(deps));
  router.use(legacyStoreRoutes(deps));
  router.use(legacyPaymentRoutes(deps));
  return router;
}
