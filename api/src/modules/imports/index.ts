/**
 * Cloud imports: files a client picked in Google Drive, Dropbox, Box or OneDrive, copied by the server
 * itself, part by part into the same storage as browser uploads, resumable across failures and restarts.
 */
export { importsRoutes } from './routes.js';
export { startImportWorker, MAX_ATTEMPTS, IMPORT_GAVE_UP } from './worker.js';
export type { ImportWorker, ImportWorkerOptions } from './worker.js';
export { cloudPickers } from './cloud-config.js';
export { CLOUD_AUTH_FAILED, CLOUD_UNAVAILABLE, SIZE_UNKNOWN, startImport } from './service.js';
export type { ImportsDeps } from './service.js';
export { TokenBox } from './token-box.js';
