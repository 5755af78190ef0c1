/**
 * Upload events (issue #30): staff-defined events with a media spec per form type, the open ones offered
 * to the upload forms, and the spec a submission's files are checked against.
 */
export { uploadEventsRoutes } from './routes.js';
export {
  assertTakesNewFiles,
  eventForSubmission,
  eventNamed,
  listOpenEvents,
  specForSubmission,
  toPublicEvent,
  toStaffEvent,
  UPLOAD_EVENT_NOT_FOUND,
} from './service.js';
