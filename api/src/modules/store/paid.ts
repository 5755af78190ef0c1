import { UniqueConstraintError } from 'sequelize';
import type { CardSummary } from '../../adapters/payments/index.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import type { Logger } from '../../logger.js';
import { newConfirmationNumber } from './confirmation-number.js';
import { enqueueConfirmationMail } from './confirmation-mail.js';

/**
 * 'Paid exactly once' (DESIGN 'Payments'). The browser's confirmation and the provider's webhook may
 * arrive in any order, each any number of times, on any process. One transaction does everything:
 *
 * 1. a webhook's event id goes into `webhook_events`, whose unique (gateway, event_id) key turns a
 *    redelivery into a no-op;
 * 2. `UPDATE orders SET status='paid', confirmation=… WHERE id=? AND status='pending'` changes the row for
 *    exactly one caller; every other one sees 0 rows changed and stops;
 * 3. that one caller queues the confirmation e-mail in the same transaction, so the mail exists exactly
 *    when the order is paid.
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
  /** The webhook event being handled, recorded once. */
  event?: { gateway: string; id: string; type: string } | undefined;
}

export type MarkPaidOutcome = 'paid' | 'already_settled' | 'duplicate_event' | 'unknown_order';

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
    const [changed] = await Order.update(
      {
        status: 'paid',
        confirmation,
        paidAt: now,
        cardBrand: payment.card?.brand ?? null,
        cardLast4: payment.card?.last4 ?? null,
      },
      { where: { id: orderId, status: 'pending' }, transaction },
    );
    if (changed === 0)
      return (await Order.count({ where: { id: orderId }, transaction }))
        ? 'already_settled'
        : 'unknown_order';

    const { total } = await enqueueConfirmationMail({ config, db }, orderId, transaction);
    logger.info({ orderId, confirmation, total }, 'order paid');
    return 'paid';
  });
}
