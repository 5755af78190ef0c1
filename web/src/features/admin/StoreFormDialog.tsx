/**
 * The store create/edit dialog (SPEC §2 'Edit form fields'): ID (read-only, when it exists), Archive Store,
 * Name, Store ID, Image (picked from the store images, or uploaded), Deadline, Event start and end, the
 * order cut-off (DESIGN deviation 6), Email BCC, Supplemental Email Text, Store Header Text; Save and
 * Cancel. The shared storeFormSchema checks the fields; the server's field errors are shown in place too.
 * The fields scroll inside the dialog (one column when it is narrow, two when wide) under a fixed row of
 * buttons, so Save and Cancel are always in reach.
 */
import { storeFormSchema, type StoreForm, type StoreFormInput } from '@avp/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError, errorMessage } from '../../lib/api';
import { putQueryData } from '../../lib/queryData';
import { Button, FormCheckbox, FormDateInput, FormTextArea, FormTextField, SelectField } from '../../ui';
import { staffApi, uploadImage, type StaffStore, type StoresAnswer } from './api';
import { staffKeys } from './queries';
import { StoreSelect } from './StoreSelect';

const NO_IMAGE = 'no-image';

/** 'No image', then the store images; a name that is not among them stays listed, marked, until changed. */
function imageOptions(images: string[] | null, current: string) {
  const names = images ?? [];
  const missing = current !== '' && images !== null && !names.includes(current);
  return [
    { id: NO_IMAGE, label: 'No image' },
    ...(missing ? [{ id: current, label: `${current} (not among the store images)` }] : []),
    ...names.map((name) => ({ id: name, label: name })),
    ...(images === null && current !== '' ? [{ id: current, label: current }] : []),
  ];
}

interface Values {
  name: string;
  store_id: string;
  image: string;
  deadline: string;
  start_date: string;
  end_date: string;
  order_cutoff: string;
  bcc: string;
  email_text: string;
  store_text: string;
  is_active: boolean;
  is_archived: boolean;
}

function valuesOf(store: StaffStore | null): Values {
  return {
    name: store?.name ?? '',
    store_id: store?.store_id ?? '',
    image: store?.image ?? '',
    deadline: store?.deadline ?? '',
    start_date: store?.start_date ?? '',
    end_date: store?.end_date ?? '',
    order_cutoff: store?.order_cutoff ?? '',
    bcc: store?.bcc ?? '',
    email_text: store?.email_text ?? '',
    store_text: store?.store_text ?? '',
    is_active: store?.is_active ?? true,
    is_archived: store?.is_archived ?? false,
  };
}

export interface StoreFormDialogProps {
  /** null: a new store. */
  store: StaffStore | null;
  stores: StaffStore[];
  onClose: () => void;
  onSaved: (answer: StoresAnswer) => void;
}

export function StoreFormDialog(props: StoreFormDialogProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className="kit-modal staff-modal">
        <Dialog className="kit-dialog staff-dialog">
          <Heading slot="title" className="kit-dialog__title staff-dialog__title">
            {props.store ? 'Edit Store' : 'New Store'}
          </Heading>
          <StoreFormBody {...props} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function StoreFormBody({ store, stores, onClose, onSaved }: StoreFormDialogProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const [uploadNote, setUploadNote] = useState<string | null>(null);
  const [copyFrom, setCopyFrom] = useState('');
  const queryClient = useQueryClient();
  const imagesQuery = useQuery({ queryKey: staffKeys.storeImages, queryFn: () => staffApi.storeImages() });
  const images = imagesQuery.data ?? null;
  const { control, handleSubmit, setError, setValue, formState } = useForm<Values, unknown, StoreForm>({
    // The schema's input types the optional image and cut-off as unknown (blank means null); the form holds text.
    resolver: zodResolver(storeFormSchema) as unknown as Resolver<Values, unknown, StoreForm>,
    defaultValues: valuesOf(store),
    mode: 'onTouched',
  });

  const image = useWatch({ control, name: 'image' });

  const listFailure = imagesQuery.error
    ? `The store images could not be listed. ${errorMessage(imagesQuery.error)}`
    : null;

  const submit = handleSubmit(async (form) => {
    setFailure(null);
    const body: StoreFormInput & { copy_prices_from?: number } = { ...form };
    if (!store && copyFrom !== '') body.copy_prices_from = Number(copyFrom);
    try {
      const answer = store ? await staffApi.updateStore(store.id, body) : await staffApi.createStore(body);
      onSaved(answer);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        for (const [name, message] of Object.entries(error.fields)) {
          if (name in valuesOf(null)) setError(name as keyof Values, { type: 'server', message });
          else setFailure(message);
        }
        return;
      }
      setFailure(errorMessage(error));
    }
  });

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploadNote(null);
    try {
      const uploaded = await uploadImage<{ image: string }>('/api/staff/store-images', file);
      putQueryData<string[]>(queryClient, staffKeys.storeImages, (names) =>
        [...(names ?? []), uploaded.image].sort((a, b) => a.localeCompare(b)),
      );
      setValue('image', uploaded.image, { shouldDirty: true, shouldValidate: true });
      setUploadNote(`Uploaded as ${uploaded.image}`);
    } catch (error) {
      setUploadNote(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <form
      className="staff-dialog__form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-label="Store"
    >
      <div className="staff-dialog__body">
        <div className="staff-form">
          {store ? (
            // The internal number staff may quote to support: shown, never an input (it cannot change).
            <p className="staff-dialog__id">
              <span className="staff-muted">ID</span> {store.id}
            </p>
          ) : null}
          <FormCheckbox control={control} name="is_archived" label="Archive Store" />
          <FormTextField control={control} name="name" label="Name" isRequired />
          <FormTextField
            control={control}
            name="store_id"
            label="Store ID"
            isRequired
            description="The store's address: /exhibitor_order/{Store ID}. Lowercase letters, digits and dashes."
          />
          <div className="staff-form__wide">
            <SelectField
              label="Image"
              value={image === '' ? NO_IMAGE : image}
              onChange={(next) =>
                setValue('image', next === NO_IMAGE ? '' : next, { shouldDirty: true, shouldValidate: true })
              }
              options={imageOptions(images, image)}
              placeholder={images === null ? 'Loading the store images…' : 'No image'}
              description="Shown in the store's header. Choose one of the store images or upload a new one."
              errorMessage={formState.errors.image?.message}
            />
            {/* The native input stays for keyboard and screen readers, hidden behind a kit-styled label. */}
            <label className="staff-upload">
              <input
                className="staff-upload__input"
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif"
                onChange={(e) => void upload(e.target.files?.[0])}
              />
              <span className="kit-button kit-button--secondary kit-button--dense" aria-hidden="true">
                Upload an image…
              </span>
              <span className="visually-hidden">Upload an image</span>
            </label>
            {(uploadNote ?? listFailure) ? (
              <p className="staff-muted" role="status">
                {uploadNote ?? listFailure}
              </p>
            ) : null}
          </div>
          <FormDateInput
            control={control}
            name="deadline"
            label="Deadline"
            isRequired
            description="Last day of the 20% early-bird discount."
          />
          <FormDateInput
            control={control}
            name="order_cutoff"
            label="Order cut-off"
            description="Last day orders are taken; blank: the deadline."
          />
          <FormDateInput control={control} name="start_date" label="Event start date" isRequired />
          <FormDateInput control={control} name="end_date" label="Event end date" isRequired />
          <div className="staff-form__wide">
            <FormTextField
              control={control}
              name="bcc"
              label="Email BCC"
              description="Addresses blind-copied on the confirmation e-mail, separated by commas."
            />
          </div>
          <div className="staff-form__wide">
            <FormTextArea control={control} name="email_text" label="Supplemental Email Text" rows={3} />
          </div>
          <div className="staff-form__wide">
            <FormTextArea control={control} name="store_text" label="Store Header Text" rows={3} />
          </div>
          {store ? null : (
            <div className="staff-form__wide">
              <StoreSelect
                stores={stores}
                label="Copy the price list of"
                value={copyFrom}
                onChange={setCopyFrom}
                placeholder="No prices yet"
              />
            </div>
          )}
        </div>
        {failure ? (
          <p role="alert" className="staff-error">
            {failure}
          </p>
        ) : null}
      </div>
      <div className="kit-dialog__actions staff-dialog__actions">
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={formState.isSubmitting}>
          Save
        </Button>
      </div>
    </form>
  );
}
