/**
 * The upload form's values and their check with the shared schemas, so the fields and messages are the
 * web portal's (SPEC §3, §5 'Upload'). The main process checks again with the same schemas before it
 * creates the submission; checking here too lets every message show at once, next to its field.
 */
import {
  creativeUploadFormSchema,
  eventUploadFormSchema,
  fieldErrors,
  sponsorUploadFormSchema,
  type UploadFormType,
} from '@avp/shared';
import type { CloudItem, FormInput } from './api';

export interface FormValues {
  project_name: string;
  event_name: string;
  /** 'YYYY-MM-DD' ('' when empty), as the kit's DateInput holds it. */
  date: string;
  hour: string;
  minute: string;
  ampm: string;
  speaker_name: string;
  room_no: string;
  sponsor_company: string;
  description: string;
}

/**
 * A file or folder chosen for the upload: its path on disk and the name shown; or a file picked in a
 * cloud account, keyed by its ref (`dropbox:id:…`), which the server imports.
 */
export interface ChosenItem {
  path: string;
  name: string;
  cloud?: CloudItem;
}

/** The local paths and the picked cloud files of a list of chosen items, as submit takes them. */
export function splitChosen(items: ChosenItem[]): { paths: string[]; picked: CloudItem[] } {
  return {
    paths: items.filter((item) => !item.cloud).map((item) => item.path),
    picked: items.flatMap((item) => (item.cloud ? [item.cloud] : [])),
  };
}

export const EMPTY_VALUES: FormValues = {
  project_name: '',
  event_name: '',
  date: '',
  hour: '',
  minute: '',
  ampm: '',
  speaker_name: '',
  room_no: '',
  sponsor_company: '',
  description: '',
};

const SCHEMAS = {
  creative: creativeUploadFormSchema,
  event: eventUploadFormSchema,
  sponsor: sponsorUploadFormSchema,
} as const;

/** The fields each form sends (the others are kept while the user switches forms, but not sent). */
const FIELDS: Record<UploadFormType, (keyof FormValues)[]> = {
  creative: ['project_name', 'description'],
  event: ['event_name', 'date', 'hour', 'minute', 'ampm', 'speaker_name', 'room_no', 'description'],
  sponsor: ['event_name', 'sponsor_company', 'description'],
};

export function toFormInput(formType: UploadFormType, values: FormValues): FormInput {
  const input: FormInput = { form_type: formType };
  for (const key of FIELDS[formType]) input[key] = values[key];
  return input;
}

/** Field name to its message ('files' for 'Please Add a File.'); empty when the form may be sent. */
export function checkForm(
  formType: UploadFormType,
  values: FormValues,
  items: ChosenItem[],
): Record<string, string> {
  const parsed = SCHEMAS[formType].safeParse({
    ...toFormInput(formType, values),
    files: items.map((item) => ({ name: item.name })),
  });
  if (parsed.success) return {};
  // Only the top-level name matters here: 'files.0.name' would still be the files field.
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors(parsed.error))) {
    errors[path.split('.')[0] || 'form'] ??= message;
  }
  return errors;
}
