import { AppError } from '../../http/errors.js';
import { enqueueConfirmationMail } from '../store/index.js';
import { recordChange } from './audit.js';
import type { Actor } from './audit.js';
import { loadOrder } from './order-detail.js';
import type { StaffOrderDeps } from './order-query.js';

export const ORDER_NOT_PAID = 'Only a paid order has a confirmation e-mail.';
export const NO_CONFIRMATION_ADDRESS =
  'This order was paid before its customer details were given, so there is no address to send the confirmation to.';

/** Queues the confirmation e-mail of a paid order again (receipt and invoice, BCC as configured). */
export async function resendConfirmation(
  deps: StaffOrderDeps,
  actor: Actor,
  orderId: string,
): Promise<{ queued: true; to: string }> {
  const { db, config } = deps;
  const order = await loadOrder(db, orderId);
  if (!order.confirmation || !order.paidAt) throw new AppError(409, 'order_not_paid', ORDER_NOT_PAID);
  await db.sequelize.transaction(async (transaction) => {
    const queued = await enqueueConfirmationMail({ config, db }, orderId, transaction);
    if (queued === null) throw new AppError(409, 'order_incomplete', NO_CONFIRMATION_ADDRESS);
    const { mailId } = queued;
    await recordChange(
      db,
      actor,
      {
        action: 'order_confirmation_resend',
        entity: 'order',
        entityId: orderId,
        storeId: order.storeId,
        after: { to: order.email, mail_id: mailId },
      },
      transaction,
    );
  });
  return { queued: true, to: order.email };
}
