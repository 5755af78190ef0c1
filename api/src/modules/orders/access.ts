import { createHash, timingSafeEqual } from 'node:crypto';
import { isUuid } from '@avp/shared';
import type { Database } from '../../db/index.js';
import type { OrderInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';

/**
 * The buyer's browser holds its order through a random token; only the token's SHA-256 is stored, and an
 * order answers only to its own token.
 */

export const ORDER_NOT_FOUND = 'No such order.';
export const ORDER_NOT_PENDING = 'This order can no longer be changed.';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function tokenMatches(order: OrderInstance, token: string | undefined): boolean {
  if (!token || !order.accessTokenHash) return false;
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(order.accessTokenHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The order, when the id is real and the token is its own; otherwise 404 either way (nothing to probe). */
export async function findOwnOrder(
  db: Database,
  orderId: string,
  token: string | undefined,
): Promise<OrderInstance> {
  const order = isUuid(orderId) ? await db.models.Order.findByPk(orderId) : null;
  if (!order || !tokenMatches(order, token)) throw new AppError(404, 'order_not_found', ORDER_NOT_FOUND);
  return order;
}
