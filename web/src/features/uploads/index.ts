/**
 * The uploads feature's public face: the client upload utility and the Internet Explorer dialog, which the
 * app's /client page shows, the staff inbox, which the app's staff area mounts at /staff/uploads, and the
 * cloud pickers' sign-in callback page.
 */
export {
  ClientSubmissions,
  CloudCallbackPage,
  IncompatibleBrowserDialog,
  StaffInboxPage,
  UploadUtility,
} from './routes';
export { isInternetExplorer, IE_INCOMPATIBLE } from './ie';
