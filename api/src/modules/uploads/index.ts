/**
 * Uploads (issue 8): the resumable multipart protocol of DESIGN 'Uploads' for the client portal and the
 * desktop app, the staff inbox, and the background clean-up of unfinished uploads.
 */
export { contentDisposition, uploadsRoutes } from './routes.js';
export { RunningHashes } from './running-hash.js';
export { startUploadCleanup } from './cleanup.js';
export type { UploadCleanup, UploadCleanupOptions } from './cleanup.js';
export {
  completeFile,
  createSubmission,
  FILE_NOT_FOUND,
  getSubmission,
  hashStored,
  putPart,
  registerFile,
  removeFile,
  storageKey,
  SUBMISSION_NOT_FOUND,
  submitSubmission,
} from './service.js';
export type { UploadsDeps } from './service.js';
export { inboxPath, formLabel } from './mail.js';
export { parseRange } from './range.js';
export type { ByteRange } from './range.js';
