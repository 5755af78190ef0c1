import {
  deadlineInstant,
  deadlineLocal,
  eventNameKey,
  formatDeadline,
  isUuid,
  UPLOAD_EVENT_NAME_TAKEN,
  uploadEventInputSchema,
  uploadsClosed,
} from '@avp/shared';
import type { MediaSpec, UploadEventPublic, UploadEventStaff } from '@avp/shared';
import { Op, UniqueConstraintError } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { Database } from '../../db/index.js';
import type { FormType, UploadEventInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { recordChange } from '../staff/audit.js';
import type { Actor } from '../staff/audit.js';

/**
 * Upload events (issue #30): staff define them with a media spec per form type; the upload forms offer the
 * open ones (not archived, deadline not passed); a submission whose event name matches one takes its spec.
 */

export const UPLOAD_EVENT_NOT_FOUND = 'No such upload event.';

const notFound = () => new AppError(404, 'upload_event_not_found', UPLOAD_EVENT_NOT_FOUND);
const nameTaken = () =>
  new AppError(409, 'upload_event_name_taken', UPLOAD_EVENT_NAME_TAKEN, { name: UPLOAD_EVENT_NAME_TAKEN });

/** JSON columns come back parsed on PostgreSQL and, for some reads, as text on SQLite. */
function specsOf(row: UploadEventInstance): UploadEventPublic['specs'] {
  const value: unknown = row.specs;
  const specs = (typeof value === 'string' ? JSON.parse(value) : value) as Partial<
    UploadEventPublic['specs']
  >;
  return { creative: specs.creative ?? null, event: specs.event ?? null, sponsor: specs.sponsor ?? null };
}

export function isOpen(row: UploadEventInstance, now: Date): boolean {
  return !row.archivedAt && row.deadline.getTime() > now.getTime();
}

export function toPublicEvent(row: UploadEventInstance): UploadEventPublic {
  return {
    id: row.id,
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    timeZone: row.timeZone,
    deadline: row.deadline.toISOString(),
    deadlineText: formatDeadline(row.deadline, row.timeZone),
    specs: specsOf(row),
  };
}

export function toStaffEvent(row: UploadEventInstance, now: Date = new Date()): UploadEventStaff {
  return {
    ...toPublicEvent(row),
    deadlineLocal: deadlineLocal(row.deadline, row.timeZone),
    open: isOpen(row, now),
    archivedAt: row.archivedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of an event: its values as staff entered them. */
function snapshot(row: UploadEventInstance): Record<string, unknown> {
  return {
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    timeZone: row.timeZone,
    deadline: deadlineLocal(row.deadline, row.timeZone),
    specs: specsOf(row),
    archivedAt: row.archivedAt?.toISOString() ?? null,
  };
}

/** The open events, soonest deadline first: what the upload forms offer. */
export async function listOpenEvents(db: Database, now: Date = new Date()): Promise<UploadEventPublic[]> {
  const rows = await db.models.UploadEvent.findAll({
    where: { archivedAt: null, deadline: { [Op.gt]: now } },
    order: [
      ['deadline', 'ASC'],
      ['name', 'ASC'],
    ],
  });
  return rows.map(toPublicEvent);
}

/** Every event, for staff: those not archived first, newest first. */
export async function listAllEvents(db: Database, now: Date = new Date()): Promise<UploadEventStaff[]> {
  const rows = await db.models.UploadEvent.findAll({
    order: [
      ['startsOn', 'DESC'],
      ['name', 'ASC'],
    ],
  });
  const staff = rows.map((row) => toStaffEvent(row, now));
  return [...staff.filter((e) => e.archivedAt === null), ...staff.filter((e) => e.archivedAt !== null)];
}

async function findEvent(db: Database, id: string, transaction?: Transaction): Promise<UploadEventInstance> {
  const row = isUuid(id)
    ? await db.models.UploadEvent.findByPk(id, { transaction: transaction ?? null })
    : null;
  if (!row) throw notFound();
  return row;
}

/** Another event not archived already bears this name (compared trimmed and case-folded). */
async function assertNameFree(
  db: Database,
  nameKey: string,
  exceptId: string | null,
  transaction: Transaction,
) {
  const other = await db.models.UploadEvent.findOne({
    where: {
      nameKey,
      archivedAt: null,
      ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}),
    },
    transaction,
  });
  if (other) throw nameTaken();
}

/** The columns of validated input (the deadline becomes an instant in the event's zone). */
function columnsOf(input: unknown) {
  const value = uploadEventInputSchema.parse(input);
  // The schema has checked that the deadline exists in the zone.
  const deadline = deadlineInstant(value.deadline, value.timeZone)!;
  return {
    name: value.name,
    nameKey: eventNameKey(value.name),
    startsOn: value.startsOn,
    endsOn: value.endsOn,
    timeZone: value.timeZone,
    deadline,
    specs: {
      creative: (value.specs.creative ?? null) as MediaSpec | null,
      event: (value.specs.event ?? null) as MediaSpec | null,
      sponsor: (value.specs.sponsor ?? null) as MediaSpec | null,
    },
  };
}

/** The partial unique index settles two saves of one name at once: the later one is told so. */
async function uniquely<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintError) throw nameTaken();
    throw error;
  }
}

export async function createEvent(db: Database, actor: Actor, input: unknown): Promise<UploadEventStaff> {
  const columns = columnsOf(input);
  return uniquely(() =>
    db.sequelize.transaction(async (transaction) => {
      await assertNameFree(db, columns.nameKey, null, transaction);
      const row = await db.models.UploadEvent.create(columns, { transaction });
      await recordChange(
        db,
        actor,
        { action: 'upload_event_create', entity: 'upload_event', entityId: row.id, after: snapshot(row) },
        transaction,
      );
      return toStaffEvent(row);
    }),
  );
}

/** The form's values of an event as it stands: a PATCH changes only the fields it names. */
function currentInput(row: UploadEventInstance): Record<string, unknown> {
  return {
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    timeZone: row.timeZone,
    deadline: deadlineLocal(row.deadline, row.timeZone),
    specs: specsOf(row),
  };
}

export async function updateEvent(
  db: Database,
  actor: Actor,
  id: string,
  input: unknown,
): Promise<UploadEventStaff> {
  const existing = await findEvent(db, id);
  const patch = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  const base = currentInput(existing);
  const specsPatch = (patch as { specs?: unknown }).specs;
  const merged = {
    ...base,
    ...patch,
    ...(typeof specsPatch === 'object' && specsPatch !== null && !Array.isArray(specsPatch)
      ? { specs: { ...(base.specs as object), ...specsPatch } }
      : {}),
  };
  const columns = columnsOf(merged);
  return uniquely(() =>
    db.sequelize.transaction(async (transaction) => {
      const row = await findEvent(db, id, transaction);
      if (row.archivedAt === null) await assertNameFree(db, columns.nameKey, row.id, transaction);
      const before = snapshot(row);
      await row.update(columns, { transaction });
      await recordChange(
        db,
        actor,
        {
          action: 'upload_event_update',
          entity: 'upload_event',
          entityId: row.id,
          before,
          after: snapshot(row),
        },
        transaction,
      );
      return toStaffEvent(row);
    }),
  );
}

/** Archives (the forms stop offering it and its name no longer carries a spec) or restores an event. */
export async function setArchived(
  db: Database,
  actor: Actor,
  id: string,
  archived: boolean,
): Promise<UploadEventStaff> {
  return uniquely(() =>
    db.sequelize.transaction(async (transaction) => {
      const row = await findEvent(db, id, transaction);
      if ((row.archivedAt !== null) === archived) return toStaffEvent(row);
      // A restored event takes its name back only if no other event took it meanwhile.
      if (!archived) await assertNameFree(db, row.nameKey, row.id, transaction);
      const before = snapshot(row);
      await row.update({ archivedAt: archived ? new Date() : null }, { transaction });
      await recordChange(
        db,
        actor,
        {
          action: archived ? 'upload_event_archive' : 'upload_event_restore',
          entity: 'upload_event',
          entityId: row.id,
          before,
          after: snapshot(row),
        },
        transaction,
      );
      return toStaffEvent(row);
    }),
  );
}

/** The event a form's event name names: trimmed, case-insensitive equality with one not archived. */
export async function eventNamed(
  db: Database,
  eventName: unknown,
  transaction?: Transaction,
): Promise<UploadEventInstance | null> {
  if (typeof eventName !== 'string') return null;
  const nameKey = eventNameKey(eventName);
  // No event's name is empty or longer than its column: such a name is free text.
  if (nameKey === '' || nameKey.length > 120) return null;
  return db.models.UploadEvent.findOne({
    where: { nameKey, archivedAt: null },
    transaction: transaction ?? null,
  });
}

/**
 * The event a new or continued submission belongs to: its id when the form's event name matches an open
 * event, null for free text; a name matching an event whose deadline has passed is refused (422) with the
 * deadline in the event's own time zone.
 */
export async function eventForSubmission(
  db: Database,
  fields: Record<string, unknown>,
  now: Date = new Date(),
): Promise<string | null> {
  const event = await eventNamed(db, fields.event_name);
  if (!event) return null;
  if (!isOpen(event, now)) {
    throw new AppError(
      422,
      'uploads_closed',
      uploadsClosed(event.name, formatDeadline(event.deadline, event.timeZone)),
    );
  }
  return event.id;
}

/**
 * A new file for a submission whose event's deadline has passed is refused like a new submission (422,
 * the deadline in the event's zone); files registered before it still complete and are sent.
 */
export async function assertTakesNewFiles(
  db: Database,
  submission: { uploadEventId: string | null },
  now: Date = new Date(),
): Promise<void> {
  if (!submission.uploadEventId) return;
  const event = await db.models.UploadEvent.findByPk(submission.uploadEventId);
  if (!event || event.deadline.getTime() > now.getTime()) return;
  throw new AppError(
    422,
    'uploads_closed',
    uploadsClosed(event.name, formatDeadline(event.deadline, event.timeZone)),
  );
}

/** The spec a submission's files are checked against: its event's, for its form type; null without one. */
export async function specForSubmission(
  db: Database,
  submission: { uploadEventId: string | null; formType: FormType },
  transaction?: Transaction,
): Promise<MediaSpec | null> {
  if (!submission.uploadEventId) return null;
  const event = await db.models.UploadEvent.findByPk(submission.uploadEventId, {
    transaction: transaction ?? null,
  });
  if (!event) return null;
  return specsOf(event)[submission.formType];
}
