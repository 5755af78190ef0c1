/**
 * The upload forms' values (SPEC §3, §5) checked with the shared schemas and their messages, and turned
 * into the fields of POST /api/uploads/submissions. No Node or DOM imports: the CLI and the renderer
 * both use it.
 */
import { submissionFieldsSchema, toSessionDateTime, uploadFormSchema } from '@avp/shared';
import type { SubmissionFields, UploadForm, UploadFileRef } from '@avp/shared';

export type FormValues = Record<string, unknown> & { form_type: string; files: UploadFileRef[] };

export type FormCheck =
  { ok: true; form: UploadForm; fields: SubmissionFields } | { ok: false; errors: Record<string, string> };

export function checkUploadForm(values: FormValues): FormCheck {
  const parsed = uploadFormSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, errors };
  }
  const form = parsed.data;
  let fields: SubmissionFields;
  switch (form.form_type) {
    case 'creative':
      fields = { form_type: 'creative', project_name: form.project_name, description: form.description };
      break;
    case 'sponsor':
      fields = {
        form_type: 'sponsor',
        event_name: form.event_name,
        sponsor_company: form.sponsor_company,
        description: form.description,
      };
      break;
    case 'event':
      fields = {
        form_type: 'event',
        event_name: form.event_name,
        session_datetime: toSessionDateTime(form.date, form.hour, form.minute, form.ampm),
        speaker_name: form.speaker_name,
        room_no: form.room_no,
        description: form.description,
      };
      break;
  }
  const wire = submissionFieldsSchema.safeParse(fields);
  if (!wire.success) {
    const errors: Record<string, string> = {};
    for (const issue of wire.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { ok: false, errors };
  }
  return { ok: true, form, fields };
}
