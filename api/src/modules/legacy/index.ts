/**
 * The spec's original `/api/*.php` calls (SPEC §7) as a thin layer over the services of the new API
 * (accounts, uploads, store, staff stores). app.ts mounts, on /api:
 *
 *   legacyAnswers        on LEGACY_PATHS, first: errors in the original's shape ({ error: text, code })
 *   the upload body      on LEGACY_UPLOAD_PATH, a JSON limit that fits a base64 chunk
 *   legacyCredentials    on LEGACY_PATHS, before loadSession: the dotted token names its session
 *   legacyRoutes         the calls themselves
 */
export {
  LEGACY_PATHS,
  LEGACY_UPLOAD_BODY_LIMIT,
  LEGACY_UPLOAD_PATH,
  legacyAnswers,
  legacyCredentials,
} from './http.js';
export { legacyRoutes } from './routes.js';
export type { LegacyDeps } from './routes.js';
export { issueLegacyToken, sessionTokenOf } from './token.js';
export type { LegacyTokenPayload } from './token.js';
