/**
 * /staff/upload-events (issue #30): the events clients upload for, each with its days, its upload
 * deadline in the event's own time zone, whether the upload forms offer it now (open), no longer
 * (closed: the deadline passed) or not at all (archived), and what its screens need from each form type's
 * files. New and Edit open the dialog; Archive (confirmed) takes an event off the forms, Restore puts it
 * back.
 */
import { formatDateRange, type UploadEventStaff, type UploadFormType } from '@avp/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../lib/api';
import { putQueryData } from '../../lib/queryData';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Button, ConfirmDialog } from '../../ui';
import { uploadEventKeys, uploadEventsApi, useStaffUploadEvents, withEvent } from './UploadEventsApi';
import { UploadEventsDialog } from './UploadEventsDialog';
import { describeSpec, FORM_TYPE_LABELS, FORM_TYPES } from './UploadEventsSpec';
import './admin.css';
import './UploadEvents.css';

export const UPLOAD_EVENTS_TITLE = 'Upload events';
export const UPLOAD_EVENTS_EMPTY =
  'No upload events yet. Add one to offer its name on the client upload forms and check its files against what its screens need.';

type Status = 'Open' | 'Closed' | 'Archived';

export function eventStatus(event: UploadEventStaff): Status {
  if (event.archivedAt !== null) return 'Archived';
  return event.open ? 'Open' : 'Closed';
}

const STATUS_ORDER: Record<Status, number> = { Open: 0, Closed: 1, Archived: 2 };

/** Open events first (soonest deadline first), then closed ones (latest first), then archived ones. */
function sorted(events: UploadEventStaff[]): UploadEventStaff[] {
  return [...events].sort((a, b) => {
    const byStatus = STATUS_ORDER[eventStatus(a)] - STATUS_ORDER[eventStatus(b)];
    if (byStatus !== 0) return byStatus;
    const byDeadline = a.deadline.localeCompare(b.deadline);
    return eventStatus(a) === 'Open' ? byDeadline : -byDeadline;
  });
}

type Pending =
  { kind: 'edit'; event: UploadEventStaff | null } | { kind: 'archive'; event: UploadEventStaff } | null;

function Specs({ event }: { event: UploadEventStaff }) {
  const set = FORM_TYPES.filter((type) => event.specs[type] !== null);
  if (set.length === 0) return <span className="staff-muted">No checks</span>;
  return (
    <ul className="upload-events__specs">
      {set.map((type: UploadFormType) => (
        <li key={type}>
          <strong>{FORM_TYPE_LABELS[type]}:</strong> {describeSpec(event.specs[type]!)}
        </li>
      ))}
    </ul>
  );
}

export default function UploadEventsPage() {
  useDocumentTitle(UPLOAD_EVENTS_TITLE);
  const queryClient = useQueryClient();
  const query = useStaffUploadEvents();
  const events = query.data ?? null;
  const [pending, setPending] = useState<Pending>(null);
  const [changeFailure, setChangeFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const loadFailure = query.error && !query.isFetching ? errorMessage(query.error) : null;
  const failure = changeFailure ?? loadFailure;

  const saved = (event: UploadEventStaff) => {
    putQueryData<UploadEventStaff[]>(queryClient, uploadEventKeys.staff, (list) => withEvent(list, event));
    // The forms' list of open events (if this tab has one) is asked for again when next shown.
    void queryClient.invalidateQueries({ queryKey: ['upload-events'] });
  };
  const change = useMutation({
    mutationFn: ({ run }: { run: () => Promise<UploadEventStaff>; done: string }) => run(),
    onMutate: () => {
      setChangeFailure(null);
      setNotice('');
    },
    onSuccess: (event, { done }) => {
      saved(event);
      setNotice(`${done}: ${event.name}.`);
    },
    onError: (error) => setChangeFailure(errorMessage(error)),
  });

  return (
    <section aria-labelledby="upload-events-title" className="upload-events">
      <div className="staff-heading">
        <h1 id="upload-events-title">{UPLOAD_EVENTS_TITLE}</h1>
        <div className="staff-actions">
          <Button onPress={() => setPending({ kind: 'edit', event: null })}>New event</Button>
        </div>
      </div>
      <p className="staff-muted upload-events__intro">
        Open events are offered as the Event name on the client upload forms until their deadline. A form
        type’s media spec checks each file before it is sent and again once it has arrived.
      </p>
      <p role="status" className="staff-status">
        {notice}
      </p>
      {failure ? (
        <div role="alert" className="staff-error">
          {failure}{' '}
          {events === null ? (
            <Button
              dense
              variant="secondary"
              onPress={() => {
                setChangeFailure(null);
                void query.refetch();
              }}
            >
              Retry
            </Button>
          ) : null}
        </div>
      ) : null}
      {events === null ? (
        failure ? null : (
          <p role="status">Loading upload events…</p>
        )
      ) : events.length === 0 ? (
        <p className="upload-events__empty">{UPLOAD_EVENTS_EMPTY}</p>
      ) : (
        <table className="staff-table staff-table--cards" aria-labelledby="upload-events-title">
          <thead>
            <tr>
              <th>Name</th>
              <th>Event dates</th>
              <th>Upload deadline</th>
              <th>Status</th>
              <th>Media specs</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {sorted(events).map((event) => {
              const status = eventStatus(event);
              return (
                <tr
                  key={event.id}
                  className={`upload-events__row upload-events__row--${status.toLowerCase()}`}
                >
                  <td data-label="Name">{event.name}</td>
                  <td data-label="Event dates">{formatDateRange(event.startsOn, event.endsOn)}</td>
                  <td data-label="Upload deadline">
                    <div>
                      {event.deadlineText}
                      <div className="staff-muted">{event.timeZone}</div>
                    </div>
                  </td>
                  <td data-label="Status">
                    <span className={`upload-events__status upload-events__status--${status.toLowerCase()}`}>
                      {status}
                    </span>
                  </td>
                  <td data-label="Media specs">
                    <Specs event={event} />
                  </td>
                  <td data-label="Actions">
                    <div className="staff-actions">
                      <Button
                        dense
                        variant="secondary"
                        onPress={() => setPending({ kind: 'edit', event })}
                        aria-label={`Edit ${event.name}`}
                      >
                        Edit
                      </Button>
                      {status === 'Archived' ? (
                        <Button
                          dense
                          variant="secondary"
                          isDisabled={change.isPending}
                          onPress={() =>
                            change.mutate({ run: () => uploadEventsApi.restore(event.id), done: 'Restored' })
                          }
                          aria-label={`Restore ${event.name}`}
                        >
                          Restore
                        </Button>
                      ) : (
                        <Button
                          dense
                          variant="secondary"
                          isDisabled={change.isPending}
                          onPress={() => setPending({ kind: 'archive', event })}
                          aria-label={`Archive ${event.name}`}
                        >
                          Archive
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      {pending?.kind === 'edit' ? (
        <UploadEventsDialog
          event={pending.event}
          onClose={() => setPending(null)}
          onSaved={(event) => {
            saved(event);
            setNotice(`${pending.event ? 'Saved' : 'Added'}: ${event.name}.`);
            setPending(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        isOpen={pending?.kind === 'archive'}
        title="Archive this upload event?"
        text={
          pending?.kind === 'archive'
            ? `${pending.event.name} will no longer be offered on the upload forms, and its checks stop applying to new uploads. You can restore it later.`
            : ''
        }
        confirmLabel="Archive"
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (pending?.kind !== 'archive') return;
          const { event } = pending;
          setPending(null);
          change.mutate({ run: () => uploadEventsApi.archive(event.id), done: 'Archived' });
        }}
        destructive
      />
    </section>
  );
}
