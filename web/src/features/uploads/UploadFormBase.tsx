/**
 * The three upload forms (SPEC §3, §5 'Upload'): creative asset, event asset and sponsor commercial, each
 * validated with its shared schema, so the messages are the spec's. What a chosen file is stays with the
 * caller (a browser File on the web, a path on disk in the desktop app): the form checks the files' names
 * and sizes and shows the caller's file chooser where they belong. The caller also decides what a valid
 * form does; a handler that answers later (the desktop app's engine) keeps the form busy meanwhile, and
 * the refusal it may answer with is shown.
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
  type UploadEventPublic,
  type UploadFileRef,
  type UploadFormType,
} from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm, useWatch, type FieldPath, type Resolver } from 'react-hook-form';
import {
  Button,
  FormDateInput,
  FormSuggestions,
  FormTextArea,
  FormTextField,
  RadioGroup,
  TimeSelect,
  useFieldProps,
} from '../../ui';
import { appliedSpec, specNote, type AppliedSpec } from './media-spec';

export const TITLES: Record<UploadFormType, string> = {
  creative: 'Creative Asset',
  event: 'Event Asset',
  sponsor: 'Sponsor Commercial',
};

/** The form's values as typed: every field of the three forms, kept while the user switches forms. */
export interface UploadFormValues {
  form_type: UploadFormType;
  files: UploadFileRef[];
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

/** What a submit handler may answer: the message, and the fields' own messages shown beside them. */
export interface UploadRefusal {
  message: string;
  fields?: Record<string, string> | undefined;
}

/**
 * Marks an element outside the fields (the files' chooser) as the place for the focus when its message
 * is the first of the form; fields are found by their aria-invalid.
 */
export const FOCUS_WHEN_INVALID = 'data-focus-when-invalid';

export interface UploadFormBaseProps {
  formType: UploadFormType;
  /** The form's accessible name; by default its title ('Creative Asset form'). */
  label?: string | undefined;
  /**
   * The form offers the choice of the three forms itself, as a radio group asking this question, and keeps
   * what was typed across a change. Without it the page has chosen, and the form's title is its heading.
   */
  choice?: { question: string; onChange: (next: UploadFormType) => void } | undefined;
  /** The chosen files as the schema checks them. Memoise it: each new array is checked again. */
  files: UploadFileRef[];
  /**
   * The file chooser, shown with the files' message ('Please Add a File.') and the open event the Event
   * name names, with its media spec for this form (null: free text, or no events given).
   */
  renderFiles: (errorMessage: string | undefined, applied: AppliedSpec | null) => ReactNode;
  /**
   * Open upload events (issue #30): the Event name becomes a suggestions field over their names, and the
   * one it names gives its media spec, described under the field. Absent: a plain text field.
   */
  events?: readonly UploadEventPublic[] | undefined;
  /**
   * Why the form cannot be sent as it stands (a file the event's spec blocks), given that spec; null when
   * it can. Shown under the submit button, which it describes, and focused when the form is sent anyway.
   */
  blockedBy?: ((applied: AppliedSpec | null) => string | null) | undefined;
  /** The files first in the form (a watched folder: what the form is about), instead of after the fields. */
  filesFirst?: boolean | undefined;
  /**
   * A valid form: its fields as the protocol sends them, and the values as typed. A promise keeps the
   * form busy until it settles, and what it answers (or throws) is shown.
   */
  onSubmit: (
    fields: SubmissionFields,
    values: UploadFormValues,
  ) => void | Promise<UploadRefusal | null | undefined | void>;
  submitLabel?: string | undefined;
  /** The submit button's text while the handler's promise is pending. */
  busyLabel?: string | undefined;
  /** Buttons after the submit button (e.g. Cancel). */
  actions?: ReactNode;
  className?: string | undefined;
  children?: ReactNode;
  /** Values to start from (an open submission's, after a reload); read when the form mounts. */
  initialValues?: Partial<UploadFormValues> | undefined;
  /** Each change of value after the form mounts submits it as its Submit button would (checks included). */
  submitSignal?: number | undefined;
}

const SCHEMAS = {
  creative: creativeUploadFormSchema,
  event: eventUploadFormSchema,
  sponsor: sponsorUploadFormSchema,
};

/** The fields each form sends; the others are kept while the user switches forms, but not sent. */
const FIELDS: Record<UploadFormType, Exclude<keyof UploadFormValues, 'form_type' | 'files'>[]> = {
  creative: ['project_name', 'description'],
  event: ['event_name', 'date', 'hour', 'minute', 'ampm', 'speaker_name', 'room_no', 'description'],
  sponsor: ['event_name', 'sponsor_company', 'description'],
};

const CHOICES = (Object.keys(TITLES) as UploadFormType[]).map((id) => ({ id, label: TITLES[id] }));

function emptyValues(formType: UploadFormType): UploadFormValues {
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

/** The values of a valid form as the protocol's submission fields (session_datetime for events). */
export function toSubmissionFields(values: UploadFormValues): SubmissionFields {
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

/**
 * The form's values from a submission's fields as the server keeps them (the inverse of
 * toSubmissionFields): an event's session_datetime back to its date and 12-hour time.
 */
export function fromSubmissionFields(
  formType: UploadFormType,
  fields: Record<string, string>,
): Partial<UploadFormValues> {
  const values: Partial<UploadFormValues> = { form_type: formType };
  for (const key of FIELDS[formType]) {
    const value = fields[key];
    if (typeof value === 'string') values[key] = value;
  }
  const at = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})/.exec(fields.session_datetime ?? '');
  if (formType === 'event' && at) {
    const hour24 = Number(at[2]);
    values.date = at[1]!;
    values.hour = String(hour24 % 12 === 0 ? 12 : hour24 % 12);
    values.minute = at[3]!;
    values.ampm = hour24 >= 12 ? 'PM' : 'AM';
  }
  return values;
}

/** The chosen form's own fields as typed, for a receiver that checks them again with the same schemas. */
export function typedFields(values: UploadFormValues): {
  form_type: UploadFormType;
  [field: string]: string;
} {
  const typed: { form_type: UploadFormType; [field: string]: string } = { form_type: values.form_type };
  for (const key of FIELDS[values.form_type]) typed[key] = values[key];
  return typed;
}

export function UploadFormBase({
  formType,
  label,
  choice,
  files,
  renderFiles,
  filesFirst = false,
  onSubmit,
  submitLabel = 'Submit',
  busyLabel,
  actions,
  className,
  children,
  initialValues,
  submitSignal = 0,
  events,
  blockedBy,
}: UploadFormBaseProps) {
  const resolver = useMemo(
    () => zodResolver(SCHEMAS[formType] as never) as unknown as Resolver<UploadFormValues>,
    [formType],
  );
  const {
    control,
    handleSubmit,
    getValues,
    setValue,
    setError,
    trigger,
    clearErrors,
    formState: { errors, isSubmitted, submitCount },
  } = useForm<UploadFormValues>({
    resolver,
    defaultValues: { ...emptyValues(formType), ...initialValues, form_type: formType },
    // The focus follows the page's order (below), not the order in which the fields were registered.
    shouldFocusError: false,
  });
  const range = useMemo(() => uploadDateRange(new Date(), localTimeZone()), []);
  const hour = useFieldProps(control, 'hour');
  const minute = useFieldProps(control, 'minute');
  const ampm = useFieldProps(control, 'ampm');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const focusPending = useRef(false);
  const eventName = useWatch({ control, name: 'event_name' });
  const applied = useMemo(() => appliedSpec(events, eventName, formType), [events, eventName, formType]);
  const blocked = blockedBy?.(applied) ?? null;
  const blockedId = useId();
  const blockedText = useRef<HTMLParagraphElement>(null);
  const [blockedAttempt, setBlockedAttempt] = useState(0);
  useEffect(() => {
    if (blockedAttempt > 0) blockedText.current?.focus();
  }, [blockedAttempt]);

  useEffect(() => {
    setValue('files', files, { shouldValidate: isSubmitted });
  }, [files, setValue, isSubmitted]);

  // A form switched in place (choice) is checked by its own schema; once the user has tried to send, the
  // new form's messages show at once rather than after another attempt.
  const shownType = useRef(formType);
  useEffect(() => {
    if (shownType.current === formType) return;
    shownType.current = formType;
    setValue('form_type', formType);
    setFailure(null);
    if (isSubmitted) void trigger();
    else clearErrors();
  }, [formType, isSubmitted, setValue, trigger, clearErrors]);

  // A new value only: a form mounted with one already given (a fresh form after a send) stays as it is.
  const shownSignal = useRef(submitSignal);
  useEffect(() => {
    if (submitSignal === shownSignal.current) return;
    shownSignal.current = submitSignal;
    form.current?.requestSubmit();
  }, [submitSignal]);

  // After a refused attempt, once its messages are on the page: the first of them in reading order.
  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    form.current?.querySelector<HTMLElement>(`[aria-invalid="true"], [${FOCUS_WHEN_INVALID}]`)?.focus();
  }, [submitCount]);

  async function submitValid(parsed: UploadFormValues) {
    setFailure(null);
    // A file the event's spec blocks stays out: the reason is shown and given the focus.
    if (blocked !== null) {
      setBlockedAttempt((n) => n + 1);
      return;
    }
    // The protocol's fields from the schema's output (texts trimmed), and the values as they were typed.
    const answer = onSubmit(toSubmissionFields(parsed), getValues());
    if (!answer) return;
    setBusy(true);
    try {
      const refusal = await answer;
      if (!refusal) return;
      const own = refusal.fields ?? {};
      for (const [name, message] of Object.entries(own)) {
        setError(name as FieldPath<UploadFormValues>, { type: 'server', message });
      }
      if (!Object.values(own).includes(refusal.message)) setFailure(refusal.message);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  }
  function refused() {
    setFailure(null);
    focusPending.current = true;
  }
  const fileError = errors.files?.message ?? errors.files?.root?.message;
  const title = TITLES[formType];

  const fields = (
    <>
      {formType === 'creative' ? (
        <FormTextField control={control} name="project_name" label="Project name" isRequired />
      ) : null}
      {(formType === 'event' || formType === 'sponsor') && events ? (
        <FormSuggestions
          control={control}
          name="event_name"
          label="Event name"
          isRequired
          suggestions={events.map((event) => event.name)}
          description={specNote(applied) ?? undefined}
        />
      ) : formType === 'event' || formType === 'sponsor' ? (
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
    </>
  );
  const submitButton = (
    <Button
      type="submit"
      variant="primary"
      isDisabled={busy}
      aria-describedby={blocked !== null ? blockedId : undefined}
    >
      {busy && busyLabel ? busyLabel : submitLabel}
    </Button>
  );
  // Polite while it merely appears (a file read as blocking); an alert once the form was sent anyway.
  const blockedNote =
    blocked !== null ? (
      <p
        ref={blockedText}
        id={blockedId}
        key={blockedAttempt}
        className="kit-error uploads-error uploads-blocked"
        role={blockedAttempt > 0 ? 'alert' : 'status'}
        tabIndex={-1}
      >
        {blocked}
      </p>
    ) : null;

  return (
    <form
      ref={form}
      className={className ? `uploads-form ${className}` : 'uploads-form'}
      onSubmit={(e) => void handleSubmit(submitValid, refused)(e)}
      noValidate
      aria-label={label ?? `${title} form`}
    >
      {filesFirst ? renderFiles(fileError, applied) : null}
      {choice ? (
        <RadioGroup
          label={choice.question}
          options={CHOICES}
          value={formType}
          onChange={(next) => choice.onChange(next as UploadFormType)}
          orientation="horizontal"
          isRequired
        />
      ) : (
        <h2>{title}</h2>
      )}
      {choice ? (
        <fieldset className="uploads-fields" aria-label={`${title} form`}>
          <legend>{title}</legend>
          {fields}
        </fieldset>
      ) : (
        fields
      )}
      {filesFirst ? null : renderFiles(fileError, applied)}
      {children}
      {failure ? (
        <p className="kit-error uploads-error" role="alert">
          {failure}
        </p>
      ) : null}
      {actions ? (
        <div className="uploads-actions">
          {submitButton}
          {actions}
        </div>
      ) : (
        submitButton
      )}
      {blockedNote}
    </form>
  );
}
