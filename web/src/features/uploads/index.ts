/**
 * The uploads feature (issue 8): the client upload utility shown on /client once signed in, the
 * Internet Explorer dialog, and the staff inbox at /staff/uploads.
 */
export { CloudCallbackPage, IncompatibleBrowserDialog, StaffInboxPage, UploadUtility } from './routes';
export { isInternetExplorer, IE_INCOMPATIBLE } from './ie';
