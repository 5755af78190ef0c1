/** The upload form's fields from the command line, and the flag to name when one is invalid. */
import type { UploadFileRef } from '@avp/shared';
import { checkUploadForm } from '../engine/forms.js';
import type { FormCheck, FormValues } from '../engine/forms.js';

export function formValues(values: Record<string, unknown>, files: UploadFileRef[]): FormValues {
  const pick = (name: string) => (values[name] === undefined ? undefined : String(values[name]));
  return {
    form_type: String(values.form ?? ''),
    files,
    project_name: pick('project-name'),
    event_name: pick('event-name'),
    sponsor_company: pick('sponsor-company'),
    speaker_name: pick('speaker-name'),
    room_no: pick('room-no'),
    description: pick('description'),
    date: pick('date'),
    hour: pick('hour'),
    minute: pick('minute'),
    ampm: pick('ampm')?.toUpperCase(),
  };
}

export const FORMS = ['creative', 'event', 'sponsor'] as const;

/**
 * The form checked with the shared schemas, after `--form` itself: a missing or unknown form is named with
 * the three there are (the schema alone would answer "Invalid discriminator value", which names nothing a
 * person typed).
 */
export function checkForm(values: Record<string, unknown>, files: UploadFileRef[]): FormCheck {
  const form = values.form === undefined ? undefined : String(values.form);
  if (form === undefined || !(FORMS as readonly string[]).includes(form))
    return {
      ok: false,
      errors: {
        form_type:
          form === undefined
            ? 'Choose the form: creative, event or sponsor.'
            : `There is no form "${form}": choose creative, event or sponsor.`,
      },
    };
  return checkUploadForm(formValues(values, files));
}

export const FLAG_OF: Record<string, string> = {
  form_type: '--form',
  files: 'FILE',
  project_name: '--project-name',
  event_name: '--event-name',
  sponsor_company: '--sponsor-company',
  speaker_name: '--speaker-name',
  room_no: '--room-no',
  description: '--description',
  date: '--date',
  hour: '--hour',
  minute: '--minute',
  ampm: '--ampm',
};
