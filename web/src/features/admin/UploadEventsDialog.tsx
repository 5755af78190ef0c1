/**
 * The Upload events create/edit dialog: name, the event's days, its time zone, the upload deadline (a
 * wall-clock date and time in that zone), and per form type an optional media spec (SpecEditor). The
 * values are checked with the shared uploadEventInputSchema once Save was tried, and again as they change;
 * the server's field messages show in place too. The fields scroll under a fixed row of buttons.
 */
import type { UploadEventStaff } from '@avp/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { ApiError, errorMessage } from '../../lib/api';
import { Button, DateInput, Suggestions, TextField, TimeInput } from '../../ui';
import { useStaffTimeZone } from './queries';
import { uploadEventsApi } from './UploadEventsApi';
import {
  draftPath,
  eventDraft,
  FORM_TYPES,
  inputFromDraft,
  type DraftErrors,
  type EventDraft,
} from './UploadEventsSpec';
import { SpecEditor } from './UploadEventsSpecEditor';

/** Every IANA zone the browser knows, for the time zone's suggestions. */
function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'UTC'];
  }
}

export interface UploadEventsDialogProps {
  /** null: a new event. */
  event: UploadEventStaff | null;
  onClose: () => void;
  onSaved: (event: UploadEventStaff) => void;
}

export function UploadEventsDialog(props: UploadEventsDialogProps) {
  return (
    <ModalOverlay
      className="kit-overlay"
      isOpen
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className="kit-modal staff-modal upload-events__modal">
        <Dialog className="kit-dialog staff-dialog">
          <Heading slot="title" className="kit-dialog__title staff-dialog__title">
            {props.event ? `Edit ${props.event.name}` : 'New upload event'}
          </Heading>
          <DialogBody {...props} />
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function DialogBody({ event, onClose, onSaved }: UploadEventsDialogProps) {
  const zone = useStaffTimeZone();
  const [draft, setDraft] = useState<EventDraft>(() => eventDraft(event, zone));
  const [tried, setTried] = useState(false);
  const [attempts, setAttempts] = useState(0);
  const [serverErrors, setServerErrors] = useState<DraftErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const zones = useMemo(() => timeZones(), []);

  const checked = useMemo(() => inputFromDraft(draft), [draft]);
  const errors: DraftErrors = { ...(tried ? (checked.errors ?? {}) : {}), ...serverErrors };

  const change = (next: EventDraft) => {
    setDraft(next);
    setServerErrors({});
  };
  const set = <K extends keyof EventDraft>(key: K, value: EventDraft[K]) =>
    change({ ...draft, [key]: value });

  // After a refused Save, once the messages are on the page: the first of them in reading order.
  useEffect(() => {
    if (attempts === 0) return;
    form.current
      ?.querySelector<HTMLElement>('input[aria-invalid="true"], [aria-invalid="true"] input')
      ?.focus();
  }, [attempts]);

  const save = async () => {
    setTried(true);
    setFailure(null);
    if (!checked.input) {
      setAttempts((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      const saved = event
        ? await uploadEventsApi.update(event.id, checked.input)
        : await uploadEventsApi.create(checked.input);
      onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        const placed: DraftErrors = {};
        for (const [name, message] of Object.entries(error.fields)) placed[draftPath(name)] = message;
        setServerErrors(placed);
        setFailure(error.message);
        setAttempts((n) => n + 1);
      } else {
        setFailure(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      className="staff-dialog__form"
      noValidate
      aria-label="Upload event"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="staff-dialog__body">
        <div className="staff-form">
          <div className="staff-form__wide">
            <TextField
              label="Name"
              isRequired
              description="Shown to clients as the Event name on the Event Asset and Sponsor Commercial forms."
              value={draft.name}
              onChange={(name) => set('name', name)}
              errorMessage={errors.name}
            />
          </div>
          <DateInput
            label="First day"
            isRequired
            value={draft.startsOn}
            onChange={(startsOn) => set('startsOn', startsOn)}
            errorMessage={errors.startsOn}
          />
          <DateInput
            label="Last day"
            isRequired
            value={draft.endsOn}
            onChange={(endsOn) => set('endsOn', endsOn)}
            errorMessage={errors.endsOn}
          />
          <div className="staff-form__wide">
            <Suggestions
              label="Time zone"
              isRequired
              description="Where the event takes place: the deadline is in this zone."
              suggestions={zones}
              value={draft.timeZone}
              onChange={(timeZone) => set('timeZone', timeZone)}
              errorMessage={errors.timeZone}
            />
          </div>
          <DateInput
            label="Upload deadline: day"
            isRequired
            value={draft.deadlineDate}
            onChange={(deadlineDate) => set('deadlineDate', deadlineDate)}
            errorMessage={errors.deadlineDate}
          />
          <TimeInput
            label="Upload deadline: time"
            isRequired
            description={draft.timeZone ? `In ${draft.timeZone}.` : undefined}
            value={draft.deadlineTime}
            onChange={(deadlineTime) => set('deadlineTime', deadlineTime)}
            errorMessage={errors.deadlineTime}
          />
          {FORM_TYPES.map((type) => (
            <div className="staff-form__wide" key={type}>
              <SpecEditor
                formType={type}
                value={draft.specs[type]}
                onChange={(spec) => set('specs', { ...draft.specs, [type]: spec })}
                errors={errors}
              />
            </div>
          ))}
        </div>
        {failure ? (
          <p role="alert" className="staff-error">
            {failure}
          </p>
        ) : tried && checked.errors ? (
          <p role="alert" className="staff-error">
            Please correct the fields marked above.
          </p>
        ) : null}
      </div>
      <div className="kit-dialog__actions staff-dialog__actions">
        <Button variant="secondary" onPress={onClose}>
          Cancel
        </Button>
        <Button type="submit" isPending={busy}>
          Save
        </Button>
      </div>
    </form>
  );
}
