/**
 * Uploads (issue 8): the resumable multipart protocol of DESIGN 'Uploads' for the client portal and the
 * desktop app, the staff inbox, and the background clean-up of unfinished uploads.
 */
export { uploadsRoutes } from './routes.js';
export { RunningHashes } from './running-hash.js';
export { startUploadCleanup } from './cleanup.js';
export type { UploadCleanup, UploadCleanupOptions } from './cleanup.js';
export {
  addFile,
  assertOpen,
  claimOrGone,
  completeFile,
  createSubmission,
  FILE_NOT_FOUND,
  getSubmission,
  hashStored,
  importsOf,
  ownFile,
  ownSubmission,
  putPart,
  receivedParts,
  registerFile,
  removeFile,
  storageKey,
  sendPendingNotice,
  SUBMISSION_NOT_FOUND,
  submitSubmission,
  toFileInfo,
  toImportInfo,
  touch,
  verifyAndComplete,
  writeClaimedPart,
} from './service.js';
export { extendFile, PARTS_IN_ORDER } from './unsized.js';
export { claimWrite, COMPLETION, liveClaims, nowMs } from './claims.js';
export type { WriteClaim } from './claims.js';
export type { UploadsDeps } from './service.js';
export { inboxPath, formLabel } from './mail.js';
export { probesSettled } from './media-probe.js';
