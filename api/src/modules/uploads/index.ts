/**
 * Uploads (issue 8): the resumable multipart protocol of DESIGN 'Uploads' for the client portal and the
 * desktop app, the staff inbox, and the background clean-up of unfinished uploads.
 */
export { uploadsRoutes } from './routes.js';
export { RunningHashes } from './running-hash.js';
export { startUploadCleanup } from './cleanup.js';
export type { UploadCleanup, UploadCleanupOptions } from './cleanup.js';
export {
  assertOpen,
  claimOrGone,
  FILE_NOT_FOUND,
  importsOf,
  ownFile,
  ownSubmission,
  receivedParts,
  storageKey,
  SUBMISSION_NOT_FOUND,
  toFileInfo,
  toImportInfo,
  touch,
} from './common.js';
export { createSubmission, getSubmission, submitSubmission } from './submissions.js';
export { addFile, registerFile } from './registration.js';
export { putPart, writeClaimedPart } from './part-writes.js';
export { completeFile, hashStored, verifyAndComplete } from './completion.js';
export { sendPendingNotice } from './notices.js';
export { removeFile } from './removal.js';
export { extendFile, PARTS_IN_ORDER } from './unsized.js';
export { claimWrite, COMPLETION, liveClaims, nowMs } from './claims.js';
export type { WriteClaim } from './claims.js';
export type { UploadsDeps } from './common.js';
export { inboxPath, formLabel } from './mail.js';
export { probesSettled } from './media-probe.js';
