export { enqueueMail, enqueueMailToAccount, onMailQueued } from './outbox.js';
export type { EnqueueOptions, OutgoingAttachment, OutgoingMail, QueuedMail, Recipients } from './outbox.js';
export { MAIL_WORKER_DEFAULTS, mailRetryPolicy, startMailWorker } from './worker.js';
export type { MailWorker, MailWorkerOptions } from './worker.js';
