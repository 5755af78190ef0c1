import type Stripe from 'stripe';
import { UniqueConstraintError } from 'sequelize';
import { z } from 'zod';
import { paymentGatewayFor, verifyWebhook } from '../../adapters/payments/index.js';
import type { CardSummary } from '../../adapters/payments/index.js';
import { AppError } from '../../http/errors.js';
import { markPaid } from '../orders/index.js';
import type { MarkPaidOutcome, OrderDeps } from '../orders/index.js';

/**
 * Stripe's webhook (DESIGN 'Payments'): the signature is checked on the exact bytes received, then
 * `payment_intent.succeeded` settles the order through the same exactly-once path as the browser's
 * confirmation. Every event id is recorded in `webhook_events`, so a redelivery changes nothing.
 *
 * The signing secret is STRIPE_WEBHOOK_SECRET, the server's own Stripe account. A store that carries its
 * own keys is settled by the browser's confirmation call (the schema holds no per-store webhook secret).
 */

export const BAD_SIGNATURE = 'The webhook signature does not match.';
export const BAD_EVENT = 'The webhook event is not a well-formed Stripe event.';
export const WEBHOOK_NOT_CONFIGURED = 'Stripe webhooks are not configured on this server.';

export type WebhookOutcome = MarkPaidOutcome | 'recorded' | 'ignored';

/**
 * The parts of an event this handler reads, within the columns that store them. The SDK checks the
 * signature only, so a signed body of any shape would otherwise reach the queries.
 */
const storedId = z.string().min(1).max(255);
/** What markPaid needs of a succeeded intent: without these the capture cannot be checked against the order. */
const succeededIntent = z.looseObject({
  id: storedId,
  amount_received: z.number().int().nonnegative(),
  currency: z.string().regex(/^[a-z]{3}$/i),
});

const eventShape = z
  .object({
    id: storedId,
    type: storedId,
    data: z.object({ object: z.looseObject({ id: storedId.optional() }) }),
  })
  .refine(
    (event) =>
      event.type !== 'payment_intent.succeeded' || succeededIntent.safeParse(event.data.object).success,
  );

async function recordEvent(deps: OrderDeps, event: Stripe.Event): Promise<WebhookOutcome> {
  try {
    await deps.db.models.WebhookEvent.create({
      gateway: 'stripe',
      eventId: event.id,
      type: event.type,
      processedAt: new Date(),
    });
    return 'recorded';
  } catch (error) {
    if (error instanceof UniqueConstraintError) return 'duplicate_event';
    throw error;
  }
}

/** Brand and last four of the card, read back from Stripe (best effort: the order is paid either way). */
async function cardOf(deps: OrderDeps, storeKey: number, intentId: string): Promise<CardSummary | null> {
  try {
    const store = await deps.db.models.Store.findByPk(storeKey, { rejectOnEmpty: true });
    const gateway = paymentGatewayFor(deps.config, store);
    if (gateway.kind !== 'stripe') return null;
    return (await gateway.retrieveIntent(intentId)).card;
  } catch (error) {
    deps.logger.warn({ err: error, intentId }, 'could not read the card of a paid intent');
    return null;
  }
}

export async function handleStripeWebhook(
  deps: OrderDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<WebhookOutcome> {
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (secret === undefined) throw new AppError(404, 'not_found', WEBHOOK_NOT_CONFIGURED);
  let event: Stripe.Event;
  try {
    if (!signature) throw new Error('no Stripe-Signature header');
    event = verifyWebhook(rawBody, signature, secret);
  } catch (error) {
    deps.logger.warn({ err: error }, 'refused a webhook with a bad signature');
    throw new AppError(400, 'bad_signature', BAD_SIGNATURE);
  }
  if (!eventShape.safeParse(event).success) {
    deps.logger.warn('refused a signed webhook event of the wrong shape');
    throw new AppError(400, 'bad_event', BAD_EVENT);
  }

  const { WebhookEvent, Order } = deps.db.models;
  // A redelivery is answered at once; the unique key inside markPaid still decides any race.
  if ((await WebhookEvent.count({ where: { gateway: 'stripe', eventId: event.id } })) > 0)
    return 'duplicate_event';

  if (event.type === 'payment_intent.succeeded') {
    const intent = event.data.object;
    const order = await Order.findOne({ where: { gatewayIntentId: intent.id } });
    const card = order?.status === 'pending' ? await cardOf(deps, order.storeId, intent.id) : null;
    const outcome = await markPaid(deps, order?.id ?? null, {
      card,
      captured: { amount: intent.amount_received, currency: intent.currency },
      event: { gateway: 'stripe', id: event.id, type: event.type },
    });
    if (outcome === 'unknown_order')
      deps.logger.warn({ intentId: intent.id }, 'webhook for an intent of no order');
    return outcome;
  }
  if (event.type === 'payment_intent.payment_failed') {
    const intent = event.data.object;
    deps.logger.info(
      { intentId: intent.id, reason: intent.last_payment_error?.message },
      'Stripe reports a failed payment attempt',
    );
  }
  return recordEvent(deps, event);
}
