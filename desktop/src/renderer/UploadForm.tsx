/**
 * The upload form: creative asset, event asset or sponsor commercial, with the web portal's fields and
 * messages (shared schemas), and the files. Submitting hands the fields and the paths to the main
 * process, which creates the submission and queues the files with the engine.
 */
import { localTimeZone, uploadDateRange, type UploadFormType } from '@avp/shared';
import { Button, DateInput, RadioGroup, TextAreaField, TextField, TimeSelect } from '@avp/web/ui';
import { useMemo, useState, type FormEvent } from 'react';
import type { DesktopApi } from './api';
import { FileDrop } from './FileDrop';
import { checkForm, EMPTY_VALUES, toFormInput, type ChosenItem, type FormValues } from './form';
import { FORM_TITLES } from './format';

const FORM_OPTIONS = (Object.keys(FORM_TITLES) as UploadFormType[]).map((id) => ({
  id,
  label: FORM_TITLES[id],
}));

export interface UploadFormProps {
  api: DesktopApi;
  /** Called once the files are in the queue. */
  onQueued: (count: number) => void;
}

export function UploadForm({ api, onQueued }: UploadFormProps) {
  const [formType, setFormType] = useState<UploadFormType>('creative');
  const [values, setValues] = useState<FormValues>(EMPTY_VALUES);
  const [items, setItems] = useState<ChosenItem[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const range = useMemo(() => uploadDateRange(new Date(), localTimeZone()), []);

  // After the first attempt the messages follow the values as they are corrected, as on the web.
  const errors = submitted ? { ...serverErrors, ...checkForm(formType, values, items) } : serverErrors;
  const set = (key: keyof FormValues) => (value: string) => {
    setServerErrors({});
    setValues((current) => ({ ...current, [key]: value }));
  };
  const part = (key: 'hour' | 'minute' | 'ampm') => ({
    value: values[key],
    onChange: set(key),
    errorMessage: errors[key],
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    setServerErrors({});
    const found = checkForm(formType, values, items);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    setBusy(true);
    try {
      const result = await api.submit(
        toFormInput(formType, values),
        items.map((item) => item.path),
      );
      if (result.ok) {
        const count = items.length;
        setValues(EMPTY_VALUES);
        setItems([]);
        setSubmitted(false);
        onQueued(count);
        return;
      }
      if (result.fields) setServerErrors(result.fields);
      setFailure(result.message);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="app-card app-upload" noValidate aria-label="New upload" onSubmit={(e) => void submit(e)}>
      <RadioGroup
        label="What are you uploading?"
        options={FORM_OPTIONS}
        value={formType}
        onChange={(next) => {
          setFormType(next as UploadFormType);
          setServerErrors({});
        }}
        orientation="horizontal"
        isRequired
      />
      <fieldset className="app-fields" aria-label={`${FORM_TITLES[formType]} form`}>
        <legend>{FORM_TITLES[formType]}</legend>
        {formType === 'creative' ? (
          <TextField
            label="Project name"
            value={values.project_name}
            onChange={set('project_name')}
            errorMessage={errors.project_name}
            isRequired
          />
        ) : (
          <TextField
            label="Event name"
            value={values.event_name}
            onChange={set('event_name')}
            errorMessage={errors.event_name}
            isRequired
          />
        )}
        {formType === 'event' ? (
          <>
            <DateInput
              label="Session date"
              description="M/D/YYYY"
              value={values.date}
              onChange={set('date')}
              errorMessage={errors.date}
              minDate={range.min}
              maxDate={range.max}
              isRequired
            />
            <TimeSelect
              label="Session time"
              hour={part('hour')}
              minute={part('minute')}
              meridiem={part('ampm')}
              isRequired
            />
            <TextField
              label="Speaker name"
              value={values.speaker_name}
              onChange={set('speaker_name')}
              errorMessage={errors.speaker_name}
              isRequired
            />
            <TextField
              label="Room"
              value={values.room_no}
              onChange={set('room_no')}
              errorMessage={errors.room_no}
            />
          </>
        ) : null}
        {formType === 'sponsor' ? (
          <TextField
            label="Sponsor company"
            value={values.sponsor_company}
            onChange={set('sponsor_company')}
            errorMessage={errors.sponsor_company}
            isRequired
          />
        ) : null}
        <TextAreaField
          label="Description"
          value={values.description}
          onChange={set('description')}
          errorMessage={errors.description}
        />
      </fieldset>
      <FileDrop api={api} items={items} onChange={setItems} errorMessage={errors.files} />
      {failure && !Object.values(errors).includes(failure) ? (
        <p className="kit-error app-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <div className="app-actions">
        <Button type="submit" isDisabled={busy}>
          {busy ? 'Adding to the queue…' : 'Submit'}
        </Button>
      </div>
    </form>
  );
}

/** Keyboard and screen-reader users land on the first field that needs attention. */
function focusFirstInvalid(form: HTMLFormElement): void {
  // The messages render after this event; wait for them.
  requestAnimationFrame(() => {
    const target = form.querySelector<HTMLElement>('[aria-invalid="true"], .app-drop--error button');
    target?.focus();
  });
}
