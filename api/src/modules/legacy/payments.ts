import { randomBytes } from 'node:crypto';
import express from 'express';
import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import { paymentGatewayFor } from '../../adapters/payments/index.js';
import { AppError } from '../../http/errors.js';
import { rateLimit } from '../../http/rate-limit.js';
import { requireStaffRole } from '../accounts/index.js';
import { actorOf, recordChange } from '../staff/index.js';
import { confirmPayment, createIntent, updateIntent } from '../orders/index.js';
import type { CreatedIntent, UpdatedIntent } from '../orders/index.js';
import { CONFIRMATION_PATTERN } from '../store/index.js';
import { legacyErrorFields } from './http.js';
import type { LegacyDeps } from './routes.js';

/**
 * The payment calls of SPEC §7 on the store's order service: the payment intent (stripeIntent.php), the
 * confirmation e-mail (sendOrderConfirmationEmail.php) and the staff's payment test (charge.php). Every
 * amount is the server's: prices, discount and totals in a payload are never read (DESIGN 'Pricing').
 */

/** The statuses of an order whose confirmation e-mail went out when it was paid. */
const CONFIRMED = new Set(['paid', 'partially_refunded', 'refunded']);

export const ORDER_NOT_PAID = 'This order has not been paid, so there is no confirmation to send.';
export const ORDER_REFERENCE_REQUIRED =
  'intentID (as stripeIntent.php answered it) or the confirmation number names the order.';
export const PAYMENT_TEST_NEEDS_TEST_GATEWAY =
  'The payment test charges typed cards through the built-in test gateway only. With Stripe configured, card numbers never reach this server: try a Stripe test card on a store page instead.';

/**
 * The legacy `intentID`: the order's id and its access token, which the original pages keep and send back
 * on submit. It is what the new API's X-Order-Token guards an order with, so it gives no more than that.
 */
export function orderHandle(orderId: string, token: string): string {
  return `${orderId}.${token}`;
}

function parseHandle(value: unknown): { orderId: string; token: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const dot = value.indexOf('.');
  if (dot <= 0 || dot === value.length - 1) return undefined;
  return { orderId: value.slice(0, dot), token: value.slice(dot + 1) };
}

/**
 * SPEC §3 'Cart item' is `{ product, count }` with the whole product, its price included; the order service
 * takes `{ productId, count }` and prices it itself, so only the product's id and the count are kept.
 */
function cartOf(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) return item;
    const line = item as { productId?: unknown; id?: unknown; count?: unknown; product?: { id?: unknown } };
    const id = line.productId ?? line.product?.id ?? line.id;
    return { productId: typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id, count: line.count };
  });
}

function intentAnswer(intent: CreatedIntent | UpdatedIntent, handle: string) {
  const { orderId, clientSecret, currency, subtotal, discount, fee, total, earlyBird, lines } = intent;
  return {
    clientSecret,
    intentID: handle,
    // Drawn when the order is paid; the payment's answer (and sendOrderConfirmationEmail.php) carries it.
    confirmation: null,
    orderId,
    ...('gateway' in intent ? { gateway: intent.gateway } : {}),
    ...('publicKey' in intent && intent.publicKey ? { publicKey: intent.publicKey } : {}),
    currency,
    subtotal,
    discount,
    fee,
    total,
    earlyBird,
    lines,
  };
}

const cardFormSchema = z.object({
  number: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(8).default(''),
  amount: z.coerce.number().int().min(50).max(100_000).default(100),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/)
    .transform((v) => v.toLowerCase())
    .default('usd'),
});

/** The payment test's card form: JSON `{ card: {…} }` or the fields flat, as an HTML form posts them. */
function cardForm(body: unknown) {
  const raw = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const card = (typeof raw.card === 'object' && raw.card !== null ? raw.card : raw) as Record<
    string,
    unknown
  >;
  const expiry =
    card.expiry ??
    (card.exp_month !== undefined && card.exp_year !== undefined
      ? `${String(card.exp_month)}/${String(card.exp_year)}`
      : undefined);
  return cardFormSchema.parse({
    number: card.number ?? card.cardNumber ?? card.card_number,
    expiry,
    cvc: card.cvc ?? card.cvv,
    amount: raw.amount,
    currency: raw.currency,
  });
}

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

export function legacyPaymentRoutes(deps: LegacyDeps): Router {
  const { config, db } = deps;
  const router = express.Router();

  // SPEC §4 'Payment': created at store load (with a cart), updated on submit with the customer info.
  router.post('/stripeIntent.php', noStore, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const customer = body.userInfo ?? body.customer ?? body.customerInfo;
    const cart = cartOf(body.cart);
    const d = { ...deps, logger: req.log };
    let order = customer === undefined ? undefined : parseHandle(body.intentID);
    if (order === undefined) {
      const storeId = body.store_id ?? body.storeId;
      // The original creates the intent when the store loads, before anything is in the cart; an order
      // needs a store and a cart, so until then there is no intent yet.
      if (typeof storeId !== 'string' || !Array.isArray(cart) || cart.length === 0) {
        res.json({ clientSecret: null, intentID: null, confirmation: null });
        return;
      }
      const created = await createIntent(d, storeId, { cart });
      order = { orderId: created.orderId, token: created.token };
      if (customer === undefined) {
        res.status(201).json(intentAnswer(created, orderHandle(order.orderId, order.token)));
        return;
      }
    }
    const updated = await updateIntent(d, order.orderId, order.token, { cart, customer });
    res.json(intentAnswer(updated, orderHandle(order.orderId, order.token)));
  });

  /**
   * DESIGN deviation 3: the server sends the confirmation e-mail when the payment is confirmed, exactly
   * once, whoever asks. This call is the page's word that it paid: with its intentID the server asks the
   * provider (confirmPayment) and, when the payment succeeded, the order is paid and its e-mail queued in
   * that transaction; an order already paid answers success and sends nothing; an unpaid one sends nothing.
   */
  router.post(
    '/sendOrderConfirmationEmail.php',
    noStore,
    legacyErrorFields({ success: false }),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const handle = parseHandle(body.intentID);
      if (handle !== undefined) {
        const result = await confirmPayment({ ...deps, logger: req.log }, handle.orderId, handle.token);
        if (!CONFIRMED.has(result.status)) throw new AppError(409, 'order_not_paid', ORDER_NOT_PAID);
        res.json({ success: true, confirmation: result.confirmation });
        return;
      }
      const confirmation =
        typeof body.confirmation === 'string' ? body.confirmation.trim().toUpperCase() : '';
      if (!CONFIRMATION_PATTERN.test(confirmation)) {
        throw new AppError(400, 'validation_failed', ORDER_REFERENCE_REQUIRED, {
          intentID: ORDER_REFERENCE_REQUIRED,
        });
      }
      // Only paid orders carry a confirmation number, and their e-mail went out when they were paid.
      const order = await db.models.Order.findOne({ attributes: ['status'], where: { confirmation } });
      if (order === null || !CONFIRMED.has(order.status)) {
        throw new AppError(404, 'order_not_found', ORDER_NOT_PAID);
      }
      res.json({ success: true, confirmation });
    },
  );

  // SPEC §2 'A payment test page posts a card form to /api/charge.php': staff only (it would otherwise be
  // an oracle for stolen card numbers), rate-limited, and audited like any staff action.
  router.post(
    '/charge.php',
    express.urlencoded({ extended: false, limit: '16kb' }),
    // Finance's (#33).
    requireStaffRole('finance'),
    rateLimit({
      name: 'payment-test',
      windowSeconds: 3600,
      max: 30,
      key: (req) => (req.user ? String(req.user.id) : undefined),
      message: 'Too many payment tests. Please wait an hour and try again.',
    }),
    noStore,
    async (req, res) => {
      const form = cardForm(req.body);
      const gateway = paymentGatewayFor(config, { stripePublishableKey: null, stripeSecretKeyEnc: null });
      if (gateway.kind !== 'test-gateway') {
        throw new AppError(409, 'payment_test_unavailable', PAYMENT_TEST_NEEDS_TEST_GATEWAY);
      }
      const amount = { amount: form.amount, currency: form.currency };
      const outcome = gateway.charge(form, amount);
      const id = `tgch_${randomBytes(12).toString('hex')}`;
      await recordChange(db, actorOf(req), {
        action: 'payment_test',
        entity: 'payment',
        entityId: id,
        after: outcome.ok
          ? { gateway: gateway.kind, ...amount, outcome: 'succeeded', card: outcome.card }
          : { gateway: gateway.kind, ...amount, outcome: outcome.code },
      });
      if (!outcome.ok) {
        if (outcome.field) {
          throw new AppError(400, outcome.code, outcome.message, {
            [`card.${outcome.field}`]: outcome.message,
          });
        }
        throw new AppError(402, outcome.code, outcome.message);
      }
      res.json({
        success: true,
        gateway: gateway.kind,
        paymentIntent: { id, ...outcome.captured, status: 'succeeded' },
        card: outcome.card,
      });
    },
  );

  return router;
}
