import express from 'express';
import type { ErrorRequestHandler, Request, Router } from 'express';
import type { Database } from '../../db/index.js';
import { StoreDataCache } from './cache.js';
import { listStores, storeExists } from './catalogue.js';
import {
  confirmPayment,
  createIntent,
  getOrderReceipt,
  payWithTestCard,
  updateIntent,
} from '../orders/index.js';
import type { OrderDeps } from '../orders/index.js';
import { handleStripeWebhook } from './webhook.js';
import { StockShortError } from '../stock/holds.js';

/** The header that carries an order's access token (not Authorization, which names a session). */
export const ORDER_TOKEN_HEADER = 'X-Order-Token';

const tokenOf = (req: Request) => req.get(ORDER_TOKEN_HEADER)?.trim() || undefined;
const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * The exhibitor store's calls (docs/api.md 'Store'):
 *
 *   GET  /api/stores                             stores the selector lists
 *   GET  /api/stores/:storeId                    one store with its priced products (404 unknown)
 *   POST /api/stores/:storeId/payment-intents    create the intent and the pending order
 *   PUT  /api/orders/:orderId                    update on submit: cart and customer info, repriced
 *   POST /api/orders/:orderId/pay                test gateway: pay with a typed test card
 *   POST /api/orders/:orderId/confirm            Stripe: the browser confirmed; the server checks and settles
 *   GET  /api/orders/:orderId                    the receipt, for the confirmation page
 *
 * Order calls need the X-Order-Token the create call returned.
 */
export function storeRoutes(deps: OrderDeps): Router {
  const router = express.Router();

  router.get('/stores', async (req, res) => {
    res.set('Cache-Control', 'no-cache').json({ stores: await listStores(deps) });
  });

  // The browser keeps the answer but asks again every time (no-cache); an unchanged answer is a bodiless 304.
  const storeData = new StoreDataCache(deps);
  router.get('/stores/:storeId', async (req, res) => {
    const answer = await storeData.answer(param(req, 'storeId'));
    res.set({ 'Cache-Control': 'no-cache', ETag: answer.etag });
    if (matchesAny(req.get('If-None-Match'), answer.etag)) {
      res.status(304).end();
      return;
    }
    res.type('json').send(answer.body);
  });

  router.post('/stores/:storeId/payment-intents', async (req, res) => {
    const intent = await createIntent({ ...deps, logger: req.log }, param(req, 'storeId'), req.body);
    req.log.info({ orderId: intent.orderId, total: intent.total }, 'payment intent created');
    res.status(201).set('Cache-Control', 'no-store').json(intent);
  });

  router.put('/orders/:orderId', async (req, res) => {
    const updated = await updateIntent(
      { ...deps, logger: req.log },
      param(req, 'orderId'),
      tokenOf(req),
      req.body,
    );
    res.set('Cache-Control', 'no-store').json(updated);
  });

  router.post('/orders/:orderId/pay', async (req, res) => {
    const result = await payWithTestCard(
      { ...deps, logger: req.log },
      param(req, 'orderId'),
      tokenOf(req),
      req.body,
    );
    res.set('Cache-Control', 'no-store').json(result);
  });

  router.post('/orders/:orderId/confirm', async (req, res) => {
    const result = await confirmPayment({ ...deps, logger: req.log }, param(req, 'orderId'), tokenOf(req));
    res.set('Cache-Control', 'no-store').json(result);
  });

  router.get('/orders/:orderId', async (req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json({ order: await getOrderReceipt(deps, param(req, 'orderId'), tokenOf(req)) });
  });

  // 409 stock_short carries the short lines beside the usual code and message (shared StockShortError).
  router.use(((error, _req, res, next) => {
    if (!(error instanceof StockShortError)) {
      next(error);
      return;
    }
    res.status(409).set('Cache-Control', 'no-store').json(error.toJSON());
  }) as ErrorRequestHandler);

  return router;
}

/**
 * POST /api/webhooks/stripe. Mounted ahead of the JSON body parser: the signature covers the exact bytes
 * Stripe sent, so the body is read raw here and parsed only once verified.
 */
export function stripeWebhookRoutes(deps: OrderDeps): Router {
  const router = express.Router();
  router.post('/webhooks/stripe', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const outcome = await handleStripeWebhook(
      { ...deps, logger: req.log },
      body,
      req.get('stripe-signature'),
    );
    res.set('Cache-Control', 'no-store').json({ received: true, outcome });
  });
  return router;
}

/**
 * If-None-Match against the current ETag (RFC 9110 13.1.2: weak comparison). Not req.fresh: that answers
 * 'stale' whenever the request says Cache-Control: no-cache, which fetch() adds to every request that sets
 * its own If-None-Match; the origin is the one revalidating, so a match is a 304 either way.
 */
function matchesAny(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => {
    const candidate = tag.trim();
    return candidate === etag || candidate === `W/${etag}`;
  });
}

const STORE_PAGE = /^\/exhibitor_order\/([^/]+)(?:\/checkout)?\/*$/;

/**
 * For the web app's true 404s (api/src/http/web.ts): a store page is a page only when its store exists.
 * Other paths are left to the route table.
 */
export function storePageExists(db: Database): (pathname: string) => Promise<boolean> {
  return async (pathname) => {
    const match = STORE_PAGE.exec(pathname);
    if (!match) return true;
    let slug: string;
    try {
      slug = decodeURIComponent(match[1]!);
    } catch {
      return false;
    }
    return storeExists(db, slug);
  };
}
