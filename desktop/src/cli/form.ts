/** The upload form's fields from the command line, and the flag to name when one is invalid. */
import type { UploadFileRef } from '@avp/shared';
import type { FormValues } from '../engine/forms.js';

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
