import type { Request } from 'express';
import { Op } from 'sequelize';
import type { Transaction, WhereOptions } from 'sequelize';
import type { Database } from '../../db/index.js';
import type { AuditLogAttributes, UserInstance } from '../../db/models/index.js';
import type { AuditEntry } from '@avp/shared';

/**
 * The audit log of staff changes: who (the signed-in staff account), what (action, entity and
 * its id, the store concerned), when, and the values before and after. Written in the transaction of the
 * change itself, so a change and its audit row exist together or not at all.
 */

export type StaffAction =
  | 'store_create'
  | 'store_update'
  | 'store_activate'
  | 'store_deactivate'
  | 'store_archive'
  | 'store_unarchive'
  | 'store_delete'
  | 'store_image_upload'
  | 'product_create'
  | 'product_update'
  | 'product_reorder'
  | 'product_image_upload'
  | 'prices_update'
  | 'order_refund'
  | 'order_confirmation_resend'
  | 'upload_event_create'
  | 'upload_event_update'
  | 'upload_event_archive'
  | 'upload_event_restore'
  // Written by the payment path itself (no actor): a capture that differs from the order total.
  | 'order_payment_review'
  // The payment test page (SPEC §2): a card charged through the configured gateway.
  | 'payment_test';

export interface Actor {
  userId: number;
  ip: string | null;
}

export function actorOf(req: Request): Actor {
  return { userId: req.user!.id, ip: req.ip ?? null };
}

export interface Change {
  action: StaffAction;
  entity: 'store' | 'product' | 'store_prices' | 'order' | 'media' | 'payment' | 'upload_event';
  entityId: string | number | null;
  storeId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export async function recordChange(
  db: Database,
  actor: Actor,
  change: Change,
  transaction?: Transaction,
): Promise<void> {
  await db.models.AuditLog.create(
    {
      actorUserId: actor.userId,
      action: change.action,
      entity: change.entity,
      entityId: change.entityId === null ? null : String(change.entityId),
      storeId: change.storeId ?? null,
      before: change.before ?? null,
      after: change.after ?? null,
      ip: actor.ip?.slice(0, 64) ?? null,
      createdAt: new Date(),
    },
    { transaction: transaction ?? null },
  );
}

export const AUDIT_PAGE_MAX = 500;

/** Newest first; `storeId` keeps one store's entries; `beforeId` pages back. */
export async function listAudit(
  db: Database,
  query: { storeId?: number | undefined; beforeId?: number | undefined; limit?: number | undefined },
): Promise<AuditEntry[]> {
  const where: WhereOptions<AuditLogAttributes> = {};
  if (query.storeId !== undefined) Object.assign(where, { storeId: query.storeId });
  if (query.beforeId !== undefined) Object.assign(where, { id: { [Op.lt]: query.beforeId } });
  const rows = await db.models.AuditLog.findAll({
    where,
    include: [{ model: db.models.User, as: 'actor', required: false }],
    order: [['id', 'DESC']],
    limit: Math.min(query.limit ?? 200, AUDIT_PAGE_MAX),
  });
  return rows.map((row) => {
    const actor = (row as typeof row & { actor?: UserInstance | null }).actor;
    return {
      id: row.id,
      at: row.createdAt.toISOString(),
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      storeId: row.storeId,
      actor: actor
        ? { id: actor.id, name: `${actor.firstName} ${actor.lastName}`, email: actor.email }
        : null,
      before: parseJson(row.before),
      after: parseJson(row.after),
    };
  });
}

/** JSON columns come back parsed on PostgreSQL and as text on SQLite (for raw values). */
function parseJson(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return value as Record<string, unknown>;
}
