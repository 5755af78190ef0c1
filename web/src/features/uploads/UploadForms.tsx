/**
 * The three upload forms (SPEC §3, §5 'Upload'): creative asset, event asset and sponsor commercial.
 * Each validates with its shared schema, so the messages are the spec's; files are part of the form
 * ('Please Add a File.') but their bytes stay with the page.
 */
import {
  creativeUploadFormSchema,
  eventUploadFormSchema,
  localTimeZone,
  sponsorUploadFormSchema,
  toSessionDateTime,
  uploadDateRange,
  type Meridiem,
  type SubmissionFields,
  type UploadFormType,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { Button, FormDateInput, FormTextArea, FormTextField, TimeSelect, useFieldProps } from '../../ui';
import { FilePicker, type CloudFilesProps } from './FilePicker';

export interface UploadFormProps {
  formType: UploadFormType;
  files: File[];
  onFilesChange: (files: File[]) => void;
  /** Files picked from cloud accounts, in the same list (absent: no cloud buttons). */
  cloud?: CloudFilesProps | undefined;
  onSubmit: (fields: SubmissionFields) => void;
  children?: ReactNode;
}

interface Values {
  form_type: UploadFormType;
  files: { name: string; size: number; type: string }[];
  project_name: string;
  event_name: string;
  date: string;
  hour: string;
  minute: string;
  ampm: string;
  speaker_name: string;
  room_no: string;
  sponsor_company: string;
  description: string;
}

const SCHEMAS = {
  creative: creativeUploadFormSchema,
  event: eventUploadFormSchema,
  sponsor: sponsorUploadFormSchema,
};

function emptyValues(formType: UploadFormType): Values {
  return {
    form_type: formType,
    files: [],
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
}

const refs = (files: File[], cloud: CloudFilesProps['files'] = []) => [
  ...files.map((f) => ({ name: f.name, size: f.size, type: f.type })),
  ...cloud.map((f) => ({ name: f.name, size: f.size ?? 0, type: f.mimeType ?? '' })),
];

/** The values of a valid form as the protocol's submission fields (session_datetime for events). */
export function toSubmissionFields(values: Values): SubmissionFields {
  const description = values.description.trim();
  if (values.form_type === 'creative') {
    return { form_type: 'creative', project_name: values.project_name, description };
  }
  if (values.form_type === 'sponsor') {
    return {
      form_type: 'sponsor',
      event_name: values.event_name,
      sponsor_company: values.sponsor_company,
      description,
    };
  }
  return {
    form_type: 'event',
    event_name: values.event_name,
    session_datetime: toSessionDateTime(
      values.date,
      Number(values.hour),
      Number(values.minute),
      values.ampm as Meridiem,
    ),
    speaker_name: values.speaker_name,
    room_no: values.room_no.trim(),
    description,
  };
}

export function UploadForm({ formType, files, onFilesChange, cloud, onSubmit, children }: UploadFormProps) {
  const resolver = useMemo(
    () => zodResolver(SCHEMAS[formType] as never) as unknown as Resolver<Values>,
    [formType],
  );
  const {
    control,
    handleSubmit,
    setValue,
    formState: { errors, isSubmitted },
  } = useForm<Values>({ resolver, defaultValues: emptyValues(formType) });
  const range = useMemo(() => uploadDateRange(new Date(), localTimeZone()), []);
  const hour = useFieldProps(control, 'hour');
  const minute = useFieldProps(control, 'minute');
  const ampm = useFieldProps(control, 'ampm');

  const cloudFiles = cloud?.files;
  useEffect(() => {
    setValue('files', refs(files, cloudFiles), { shouldValidate: isSubmitted });
  }, [files, cloudFiles, setValue, isSubmitted]);

  const submit = handleSubmit((values) => onSubmit(toSubmissionFields(values)));
  const fileError = errors.files?.message ?? errors.files?.root?.message;

  return (
    <form
      className="uploads-form"
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-label={`${TITLES[formType]} form`}
    >
      <h2>{TITLES[formType]}</h2>
      {formType === 'creative' ? (
        <FormTextField control={control} name="project_name" label="Project name" isRequired />
      ) : null}
      {formType === 'event' || formType === 'sponsor' ? (
        <FormTextField control={control} name="event_name" label="Event name" isRequired />
      ) : null}
      {formType === 'event' ? (
        <>
          <FormDateInput
            control={control}
            name="date"
            label="Session date"
            description="M/D/YYYY"
            minDate={range.min}
            maxDate={range.max}
            isRequired
          />
          <TimeSelect label="Session time" hour={hour} minute={minute} meridiem={ampm} isRequired />
          <FormTextField control={control} name="speaker_name" label="Speaker name" isRequired />
          <FormTextField control={control} name="room_no" label="Room" />
        </>
      ) : null}
      {formType === 'sponsor' ? (
        <FormTextField control={control} name="sponsor_company" label="Sponsor company" isRequired />
      ) : null}
      <FormTextArea control={control} name="description" label="Description" />
      <FilePicker files={files} onChange={onFilesChange} cloud={cloud} errorMessage={fileError} />
      {children}
      <Button type="submit" variant="primary">
        Submit
      </Button>
    </form>
  );
}

export const TITLES: Record<UploadFormType, string> = {
  creative: 'Creative Asset',
  event: 'Event Asset',
  sponsor: 'Sponsor Commercial',
};
