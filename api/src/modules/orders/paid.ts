import { UniqueConstraintError } from 'sequelize';
import type { CardSummary } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { newConfirmationNumber } from '../store/confirmation-number.js';
import { enqueueConfirmationMail } from '../store/confirmation-mail.js';
import { commitOnPay } from '../stock/holds.js';
import type { Transaction } from 'sequelize';
import type { OrderInstance } from '../../db/models/index.js';

/**
 * 'Paid exactly once' (DESIGN 'Payments'). The browser's confirmation and the provider's webhook may
 * arrive in any order, each any number of times, on any process. One transaction does everything:
 *
 * 1. a webhook's event id goes into `webhook_events`, whose unique (gateway, event_id) key turns a
 *    redelivery into a no-op;
 * 2. `UPDATE orders SET status='paid', confirmation=… WHERE id=? AND status='pending' AND total=? AND
 *    currency=?` changes the row for exactly one caller, and only when the provider captured exactly the
 *    order's total in its currency; every other caller sees 0 rows changed;
 * 3. that one caller queues the confirmation e-mail in the same transaction, so the mail exists exactly
 *    when the order is paid.
 *
 * A pending order whose capture differs from its total (its cart changed after the buyer confirmed, or a
 * provider answered another amount) is never paid: it becomes `needs_review` with the amount received, an
 * audit entry tells staff, and no confirmation goes out. Both gateways settle through here.
 *
 * The same caller turns the order's held units into sold ones (stock/holds.ts). When the hold ran out and
 * the units went to other orders meanwhile, nothing is oversold: the order becomes `needs_review` with the
 * reason, unpaid, and no confirmation goes out.
 *
 * A clash on the unique confirmation number rolls everything back and draws a new number.
 */

export interface PaidDeps {
  config: Pick<Config, 'TZ_STORE' | 'PUBLIC_URL'>;
  db: Database;
  logger: Logger;
}

export interface PaymentRecord {
  card: CardSummary | null;
  /** What the provider says it captured: cents and ISO currency (any case). */
  captured: { amount: number; currency: string };
  /** The webhook event being handled, recorded once. */
  event?: { gateway: string; id: string; type: string } | undefined;
}

export type MarkPaidOutcome =
  'paid' | 'needs_review' | 'already_settled' | 'duplicate_event' | 'unknown_order';

export const AMOUNT_MISMATCH_REASON = 'The amount captured differs from the order total.';

const CONFIRMATION_ATTEMPTS = 5;

class DuplicateEvent extends Error {}

export async function markPaid(
  deps: PaidDeps,
  orderId: string | null,
  payment: PaymentRecord,
  now: Date = new Date(),
): Promise<MarkPaidOutcome> {
  for (let attempt = 1; ; attempt++) {
    const confirmation = newConfirmationNumber();
    try {
      return await settle(deps, orderId, payment, confirmation, now);
    } catch (error) {
      if (error instanceof DuplicateEvent) return 'duplicate_event';
      // The only unique column the UPDATE sets is the confirmation number: draw another one.
      if (error instanceof UniqueConstraintError && attempt < CONFIRMATION_ATTEMPTS) {
        deps.logger.warn({ orderId, attempt }, 'confirmation number clash, drawing another');
        continue;
      }
      throw error;
    }
  }
}

async function settle(
  { config, db, logger }: PaidDeps,
  orderId: string | null,
  payment: PaymentRecord,
  confirmation: string,
  now: Date,
): Promise<MarkPaidOutcome> {
  const { Order, WebhookEvent } = db.models;
  return db.sequelize.transaction(async (transaction) => {
    if (payment.event) {
      try {
        await WebhookEvent.create(
          {
            gateway: payment.event.gateway,
            eventId: payment.event.id,
            type: payment.event.type,
            processedAt: now,
          },
          { transaction },
        );
      } catch (error) {
        if (error instanceof UniqueConstraintError) throw new DuplicateEvent();
        throw error;
      }
    }
    if (orderId === null) return 'unknown_order';
    const received = {
      amountReceived: payment.captured.amount,
      receivedCurrency: payment.captured.currency.toLowerCase(),
      cardBrand: payment.card?.brand ?? null,
      cardLast4: payment.card?.last4 ?? null,
    };
    const [changed] = await Order.update(
      { status: 'paid', confirmation, paidAt: now, ...received },
      {
        where: {
          id: orderId,
          status: 'pending',
          total: received.amountReceived,
          currency: received.receivedCurrency,
        },
        transaction,
      },
    );
    if (changed === 0) {
      const order = await Order.findByPk(orderId, { transaction });
      if (!order) return 'unknown_order';
      if (order.status !== 'pending') return 'already_settled';
      await holdForReview({ db, logger }, order, received, transaction, now);
      return 'needs_review';
    }
    const order = await Order.findByPk(orderId, { transaction, rejectOnEmpty: true });
    const stock = await commitOnPay(db, { id: order.id, storeId: order.storeId }, transaction);
    if (!stock.ok) {
      await heldForStock({ db, logger }, order, stock.reason, transaction, now);
      return 'needs_review';
    }

    const queued = await enqueueConfirmationMail({ config, db }, orderId, transaction);
    if (queued === null)
      logger.warn({ orderId, confirmation }, 'order paid without customer details: no e-mail');
    else logger.info({ orderId, confirmation, total: queued.total }, 'order paid');
    return 'paid';
  });
}

/** The capture does not match: the order stays unpaid, held for staff, with what was received on record. */
async function holdForReview(
  { db, logger }: Pick<PaidDeps, 'db' | 'logger'>,
  order: OrderInstance,
  received: {
    amountReceived: number;
    receivedCurrency: string;
    cardBrand: string | null;
    cardLast4: string | null;
  },
  transaction: Transaction,
  now: Date,
): Promise<void> {
  await db.models.Order.update(
    { status: 'needs_review', reviewReason: AMOUNT_MISMATCH_REASON, ...received },
    { where: { id: order.id, status: 'pending' }, transaction },
  );
  // Staff read the audit log; a system entry has no actor.
  await db.models.AuditLog.create(
    {
      actorUserId: null,
      action: 'order_payment_review',
      entity: 'order',
      entityId: order.id,
      storeId: order.storeId,
      before: { status: order.status, total: order.total, currency: order.currency },
      after: {
        status: 'needs_review',
        amount_received: received.amountReceived,
        received_currency: received.receivedCurrency,
        reason: AMOUNT_MISMATCH_REASON,
      },
      ip: null,
      createdAt: now,
    },
    { transaction },
  );
  logger.error(
    {
      orderId: order.id,
      total: order.total,
      currency: order.currency,
      received: received.amountReceived,
      receivedCurrency: received.receivedCurrency,
    },
    'payment captured an amount other than the order total: held for staff review, not paid',
  );
}

/**
 * Paid after the hold ran out, with the units gone: the order is unpaid again (no confirmation number),
 * `needs_review` with the reason staff read, and a system audit entry.
 */
async function heldForStock(
  { db, logger }: Pick<PaidDeps, 'db' | 'logger'>,
  order: OrderInstance,
  reason: string,
  transaction: Transaction,
  now: Date,
): Promise<void> {
  await db.models.Order.update(
    { status: 'needs_review', reviewReason: reason, confirmation: null, paidAt: null },
    { where: { id: order.id, status: 'paid' }, transaction },
  );
  await db.models.AuditLog.create(
    {
      actorUserId: null,
      action: 'order_stock_review',
      entity: 'order',
      entityId: order.id,
      storeId: order.storeId,
      before: { status: 'pending', total: order.total, currency: order.currency },
      after: { status: 'needs_review', reason },
      ip: null,
      createdAt: now,
    },
    { transaction },
  );
  logger.error(
    { orderId: order.id, reason },
    'order paid after its stock hold ran out and its units were gone: held for staff review, not paid',
  );
}
