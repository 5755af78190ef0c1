/**
 * The upload form: creative asset, event asset or sponsor commercial, with the web portal's fields and
 * messages (shared schemas), and the files. Submitting hands the fields and the paths to the main
 * process, which creates the submission and queues the files with the engine.
 */
import type { UploadFormType } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { useState, type FormEvent } from 'react';
import type { DesktopApi } from './api';
import { FileDrop } from './FileDrop';
import { checkForm, EMPTY_VALUES, toFormInput, type ChosenItem, type FormValues } from './form';
import { focusFirstInvalid, FormFields } from './FormFields';

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

  // After the first attempt the messages follow the values as they are corrected, as on the web.
  const errors = submitted ? { ...serverErrors, ...checkForm(formType, values, items) } : serverErrors;
  const setValue = (key: keyof FormValues, value: string) => {
    setServerErrors({});
    setValues((current) => ({ ...current, [key]: value }));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    setFailure(null);
    setServerErrors({});
    const found = checkForm(formType, values, items);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(event.currentTarget, '.app-drop--error button');
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
      <FormFields
        label="What are you uploading?"
        formType={formType}
        onFormType={(next) => {
          setFormType(next);
          setServerErrors({});
        }}
        values={values}
        onValue={setValue}
        errors={errors}
      />
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
