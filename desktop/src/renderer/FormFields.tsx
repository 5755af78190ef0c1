/**
 * The creative, event and sponsor form's choice and fields, with the web portal's labels and messages:
 * one piece for the upload form and the watch-folder form, which send the same submission.
 */
import { localTimeZone, uploadDateRange, type UploadFormType } from '@avp/shared';
import { DateInput, RadioGroup, TextAreaField, TextField, TimeSelect } from '@avp/web/ui';
import { useMemo } from 'react';
import type { FormValues } from './form';
import { FORM_TITLES } from './format';

const FORM_OPTIONS = (Object.keys(FORM_TITLES) as UploadFormType[]).map((id) => ({
  id,
  label: FORM_TITLES[id],
}));

export interface FormFieldsProps {
  /** The question over the three forms. */
  label: string;
  formType: UploadFormType;
  onFormType: (next: UploadFormType) => void;
  values: FormValues;
  onValue: (key: keyof FormValues, value: string) => void;
  /** Field name to message (form.ts checkForm, or the main process's answer). */
  errors: Record<string, string | undefined>;
}

export function FormFields({ label, formType, onFormType, values, onValue, errors }: FormFieldsProps) {
  const range = useMemo(() => uploadDateRange(new Date(), localTimeZone()), []);
  const set = (key: keyof FormValues) => (value: string) => onValue(key, value);
  const part = (key: 'hour' | 'minute' | 'ampm') => ({
    value: values[key],
    onChange: set(key),
    errorMessage: errors[key],
  });

  return (
    <>
      <RadioGroup
        label={label}
        options={FORM_OPTIONS}
        value={formType}
        onChange={(next) => onFormType(next as UploadFormType)}
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
    </>
  );
}

/** Keyboard and screen-reader users land on the first field that needs attention. */
export function focusFirstInvalid(form: HTMLFormElement, also = ''): void {
  // The messages render after this event; wait for them.
  requestAnimationFrame(() => {
    const target = form.querySelector<HTMLElement>(`[aria-invalid="true"]${also ? `, ${also}` : ''}`);
    target?.focus();
  });
}
