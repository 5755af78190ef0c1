/**
 * The upload form: creative asset, event asset or sponsor commercial, with the web portal's fields and
 * messages (shared schemas), and the files: local ones and files picked in connected cloud accounts.
 * Submitting hands the fields, the paths and the picked files to the engine, which creates the
 * submission, sends the local files and asks the server to import the cloud ones.
 */
import type { UploadFormType } from '@avp/shared';
import { Button } from '@avp/web/ui';
import { useEffect, useState, type FormEvent } from 'react';
import type { CloudItem, DesktopApi, ProviderStatus } from './api';
import { CloudBrowser } from './CloudBrowser';
import { FileDrop } from './FileDrop';
import { checkForm, EMPTY_VALUES, splitChosen, toFormInput, type ChosenItem, type FormValues } from './form';
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
  const [accounts, setAccounts] = useState<ProviderStatus[]>([]);
  const [browsing, setBrowsing] = useState<ProviderStatus | null>(null);
  const [picked, setPicked] = useState('');

  // The connected accounts, for their 'Add from …' buttons; without them the form is as before.
  useEffect(() => {
    let live = true;
    api
      .cloudProviders()
      .then((all) => live && setAccounts(all.filter((p) => p.account !== null)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);

  function addPicked(list: CloudItem[]) {
    const known = new Set(items.map((item) => item.path));
    const added = list
      .filter((cloud) => !known.has(cloud.ref))
      .map((cloud) => ({ path: cloud.ref, name: cloud.name, cloud }));
    setItems([...items, ...added]);
    setBrowsing(null);
    setPicked(
      `Added ${added.length} ${added.length === 1 ? 'file' : 'files'} from ${browsing?.providerName ?? 'the account'}.`,
    );
  }

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
      const { paths, picked: cloudFiles } = splitChosen(items);
      const result = await api.submit(toFormInput(formType, values), paths, cloudFiles);
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
      <FileDrop
        api={api}
        items={items}
        onChange={setItems}
        errorMessage={errors.files}
        accounts={accounts}
        onBrowse={(account) => {
          setPicked('');
          setBrowsing(account);
        }}
      />
      <p className="visually-hidden" role="status">
        {picked}
      </p>
      {browsing ? (
        <CloudBrowser
          api={api}
          provider={browsing.provider}
          providerName={browsing.providerName}
          chosen={new Set(items.map((item) => item.path))}
          onAdd={addPicked}
          onClose={() => setBrowsing(null)}
        />
      ) : null}
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
