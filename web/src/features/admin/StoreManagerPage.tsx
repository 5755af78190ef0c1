/**
 * /manage_order_forms (SPEC §2 'Admin page'): the active or the archived stores, with New, the Active
 * toggle (saved at once), Archive/UnArchive with its confirmation, Edit, and Delete in the archived view.
 * Every change answers the full list, which replaces the one shown (no reload).
 */
import {
  formatDate,
  formatDateRange,
  SHOW_ACTIVE,
  STORE_DELETE_CONFIRM,
  STORE_LIST_ACTIVE_TITLE,
  STORE_LIST_ARCHIVED_TITLE,
  viewArchived,
} from '@avp/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { errorMessage } from '../../lib/api';
import { putQueryData } from '../../lib/queryData';
import { Button, Checkbox, ConfirmDialog } from '../../ui';
import { staffApi, type StaffStore, type StoresAnswer } from './api';
import { staffKeys, useStaffStores } from './queries';
import { StoreFormDialog } from './StoreFormDialog';
import './admin.css';

export const STORE_IMAGE_BASE = '/media/stores/';
// not in SPEC: the texts of the archive confirmation and delete button (SPEC gives their gist).
export const CONTINUE_AND_DELETE = 'Continue and Delete';
export const CONTINUE_AND_ARCHIVE = 'Continue and Archive';
export const CONTINUE_AND_UNARCHIVE = 'Continue and UnArchive';
export const ARCHIVE_TITLE = 'This order form will be archived';
export const UNARCHIVE_TITLE = 'This order form will be unarchived';

type Pending =
  | { kind: 'edit'; store: StaffStore | null }
  | { kind: 'archive'; store: StaffStore }
  | { kind: 'delete'; store: StaffStore }
  | null;

export default function StoreManagerPage() {
  const queryClient = useQueryClient();
  const storesQuery = useStaffStores();
  const stores = storesQuery.data?.stores ?? null;
  const [archivedView, setArchivedView] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [changeFailure, setChangeFailure] = useState<string | null>(null);
  const loadFailure = storesQuery.error && !storesQuery.isFetching ? errorMessage(storesQuery.error) : null;
  const failure = changeFailure ?? loadFailure;
  const title = archivedView ? STORE_LIST_ARCHIVED_TITLE : STORE_LIST_ACTIVE_TITLE;
  useDocumentTitle(title);

  const load = () => {
    setChangeFailure(null);
    void storesQuery.refetch();
  };
  // Every store change answers the whole list (SPEC §7): it replaces the cached one.
  const setStores = (answer: StoresAnswer) => putQueryData(queryClient, staffKeys.stores, answer);
  const change = useMutation({
    mutationFn: (run: () => Promise<StoresAnswer>) => run(),
    onMutate: () => setChangeFailure(null),
    onSuccess: setStores,
    onError: (error) => setChangeFailure(errorMessage(error)),
  });
  const apply = (run: () => Promise<StoresAnswer>) => change.mutate(run);

  const archivedCount = stores?.filter((s) => s.is_archived).length ?? 0;
  const shown = stores?.filter((s) => s.is_archived === archivedView) ?? [];

  return (
    <section aria-labelledby="stores-title">
      <div className="staff-heading">
        <h1 id="stores-title">{title}</h1>
        <div className="staff-actions">
          <Button onPress={() => setPending({ kind: 'edit', store: null })}>New</Button>
          {/* The count is known only once the list is in: no 'View Archived (0)' while it loads. */}
          {stores === null ? null : (
            <Button variant="secondary" onPress={() => setArchivedView((v) => !v)}>
              {archivedView ? SHOW_ACTIVE : viewArchived(archivedCount)}
            </Button>
          )}
        </div>
      </div>
      {failure ? (
        <div role="alert" className="staff-error">
          {failure}{' '}
          {stores === null ? (
            <Button dense variant="secondary" onPress={load}>
              Retry
            </Button>
          ) : null}
        </div>
      ) : null}
      {stores === null ? (
        failure ? null : (
          <p role="status">Loading stores…</p>
        )
      ) : (
        <table className="staff-table staff-table--cards" aria-labelledby="stores-title">
          <thead>
            <tr>
              <th>Name</th>
              <th>Url</th>
              <th>Deadline</th>
              <th>Event Dates</th>
              <th>Image</th>
              <th>Custom Text</th>
              <th>Active</th>
              <th>{archivedView ? 'UnArchive' : 'Archive'}</th>
              <th>Edit</th>
              {archivedView ? <th>Delete</th> : null}
            </tr>
          </thead>
          <tbody>
            {shown.map((store) => (
              <tr key={store.id}>
                <td data-label="Name">{store.name}</td>
                <td data-label="Url">
                  <a href={`/exhibitor_order/${store.store_id}`}>{store.store_id}</a>
                </td>
                <td data-label="Deadline">
                  <div>
                    {formatDate(store.deadline)}
                    {store.order_cutoff ? (
                      <div className="staff-muted">Orders until {formatDate(store.order_cutoff)}</div>
                    ) : null}
                  </div>
                </td>
                <td data-label="Event Dates">{formatDateRange(store.start_date, store.end_date)}</td>
                <td data-label="Image">
                  {store.image ? (
                    <div>
                      <img
                        src={`${STORE_IMAGE_BASE}${encodeURIComponent(store.image)}`}
                        alt={`${store.name} logo`}
                      />
                      <div className="staff-muted">{store.image}</div>
                    </div>
                  ) : null}
                </td>
                <td data-label="Custom Text">
                  <div className="staff-custom-text">
                    {store.email_text ? <p>Email: {store.email_text}</p> : null}
                    {store.store_text ? <p>Header: {store.store_text}</p> : null}
                  </div>
                </td>
                <td data-label="Active">
                  <Checkbox
                    label={
                      <>
                        <span>Active</span>
                        <span className="visually-hidden"> {store.name}</span>
                      </>
                    }
                    value={store.is_active}
                    onChange={(value) => apply(() => staffApi.setActive(store.id, value))}
                  />
                </td>
                <td data-label={archivedView ? 'UnArchive' : 'Archive'}>
                  <Button
                    dense
                    variant="secondary"
                    onPress={() => setPending({ kind: 'archive', store })}
                    aria-label={`${store.is_archived ? 'UnArchive' : 'Archive'} ${store.name}`}
                  >
                    {store.is_archived ? 'UnArchive' : 'Archive'}
                  </Button>
                </td>
                <td data-label="Edit">
                  <Button
                    dense
                    variant="secondary"
                    onPress={() => setPending({ kind: 'edit', store })}
                    aria-label={`Edit ${store.name}`}
                  >
                    Edit
                  </Button>
                </td>
                {archivedView ? (
                  <td data-label="Delete">
                    <Button
                      dense
                      variant="secondary"
                      onPress={() => setPending({ kind: 'delete', store })}
                      aria-label={`Delete ${store.name}`}
                    >
                      Delete
                    </Button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {stores !== null && shown.length === 0 ? <p>No stores here.</p> : null}

      {pending?.kind === 'edit' ? (
        <StoreFormDialog
          store={pending.store}
          stores={stores ?? []}
          onClose={() => setPending(null)}
          onSaved={(answer) => {
            setStores(answer);
            setPending(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={pending?.kind === 'archive'}
        title={pending?.kind === 'archive' && pending.store.is_archived ? UNARCHIVE_TITLE : ARCHIVE_TITLE}
        text={pending?.kind === 'archive' ? pending.store.name : ''}
        confirmLabel={
          pending?.kind === 'archive' && pending.store.is_archived
            ? CONTINUE_AND_UNARCHIVE
            : CONTINUE_AND_ARCHIVE
        }
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'archive') return;
          const { store } = pending;
          setPending(null);
          apply(() => staffApi.setArchived(store.id, !store.is_archived));
        }}
        destructive
      />
      <ConfirmDialog
        isOpen={pending?.kind === 'delete'}
        title="Delete Store"
        text={STORE_DELETE_CONFIRM}
        confirmLabel={CONTINUE_AND_DELETE}
        cancelLabel="Cancel"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'delete') return;
          const { store } = pending;
          setPending(null);
          apply(() => staffApi.deleteStore(store.id));
        }}
        destructive
      />
    </section>
  );
}
