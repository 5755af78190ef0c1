/**
 * The upload form for another app (the desktop uploader's window, through `@avp/web/upload-form`): the
 * three forms with their fields and the shared schemas' messages, and the files' drop zone and list. It
 * leaves out what only the web portal has (browser Files sent by the upload client, the cloud pickers),
 * and brings the form's styles; the theme's tokens are `@avp/web/tokens.css`.
 */
import './uploads.css';

export {
  FOCUS_WHEN_INVALID,
  TITLES as FORM_TITLES,
  toSubmissionFields,
  typedFields,
  UploadFormBase,
  type UploadFormBaseProps,
  type UploadFormValues,
  type UploadRefusal,
} from './UploadFormBase';
export { FileDropZone, type ChosenFile, type FileDropZoneProps } from './FileDropZone';
