import express from 'express';
import type { Request, RequestHandler, Router } from 'express';
import type { Config } from '../../config.js';
import type { Database } from '../../db/index.js';
import { AppError } from '../../http/errors.js';
import type { Logger } from '../../logger.js';
import {
  requireAnyStaffRole,
  requireStaff,
  requireStaffRole,
  storePaymentKeysOwnerOnly,
} from '../accounts/index.js';
import { actorOf, listAudit } from './audit.js';
import {
  createProduct,
  listPrices,
  listProducts,
  parseProductKey,
  reorderProducts,
  setPrices,
  updateProduct,
} from './catalogue.js';
import { IMAGE_TOO_LARGE, imageBody, listStoreImages, saveProductImage, saveStoreImage } from './media.js';
import { refundOrder } from '../orders/index.js';
import { assertFreshSignInForRefund } from '../accounts/fresh-sign-in.js';
import { stockStaffRoutes } from '../stock/routes.js';
import { orderDetail } from './order-detail.js';
import { listOrders } from './order-list.js';
import { ordersCsv } from './orders-csv.js';
import { pullSheet } from './pull-sheet.js';
import { staffOverview } from './overview.js';
import { resendConfirmation } from './resend-confirmation.js';
import {
  createStore,
  deleteStore,
  listStaffStores,
  parseStoreKey,
  setStoreFlag,
  updateStore,
} from './stores.js';

export interface StaffRouteDeps {
  config: Config;
  db: Database;
  logger: Logger;
}

const param = (req: Request, name: string) => String(req.params[name] ?? '');
const queryText = (req: Request, name: string) => {
  const value = req.query[name];
  return typeof value === 'string' ? value : undefined;
};

/** express.raw with the size refusal in the staff screens' words. */
const image: RequestHandler = (req, res, next) => {
  imageBody(req, res, (error?: unknown) => {
    const status = (error as { status?: number } | undefined)?.status;
    if (status === 413) next(new AppError(413, 'image_too_large', IMAGE_TOO_LARGE));
    else next(error as Error | undefined);
  });
};

/**
 * The staff calls (docs/api.md 'Staff'), all under /api/staff and all staff-only (401 signed out, 403 for
 * a client account). Nothing here is cached by a browser.
 */
const anyStaff = requireAnyStaffRole;
const storeManager = requireStaffRole('store_manager');
const pullSheetReaders = requireStaffRole('store_manager', 'finance');
const finance = requireStaffRole('finance');
const owner = requireStaffRole('owner');

export function staffRoutes(deps: StaffRouteDeps): Router {
  const router = express.Router();
  // Staff only, whatever else a route says; then each route names the roles it is for (#33).
  router.use(requireStaff);
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  // The zone staff screens print dates and times in (TZ_STORE, the company's and its stores' zone).
  router.get('/settings', anyStaff, (_req, res) => {
    res.json({ time_zone: deps.config.TZ_STORE });
  });

  // Stores: SPEC §2 'Admin page', §7 'Admin update / delete' (each change answers the full list).
  // Any staff role reads the list: Orders, the pull sheet and the overview pick a store from it (it holds
  // no secret: the publishable key is public and the secret key is only 'has one').
  router.get('/stores', anyStaff, async (_req, res) => {
    res.json({ stores: await listStaffStores(deps) });
  });
  router.post('/stores', storeManager, storePaymentKeysOwnerOnly, async (req, res) => {
    res.status(201).json(await createStore(deps, actorOf(req), req.body));
  });
  router.put('/stores/:id', storeManager, storePaymentKeysOwnerOnly, async (req, res) => {
    res.json(await updateStore(deps, actorOf(req), parseStoreKey(param(req, 'id')), req.body));
  });
  router.post('/stores/:id/active', storeManager, async (req, res) => {
    res.json(await setStoreFlag(deps, actorOf(req), parseStoreKey(param(req, 'id')), 'is_active', req.body));
  });
  router.post('/stores/:id/archive', storeManager, async (req, res) => {
    res.json(
      await setStoreFlag(deps, actorOf(req), parseStoreKey(param(req, 'id')), 'is_archived', req.body),
    );
  });
  router.delete('/stores/:id', storeManager, async (req, res) => {
    res.json(await deleteStore(deps, actorOf(req), parseStoreKey(param(req, 'id'))));
  });
  router.get('/store-images', storeManager, async (_req, res) => {
    res.json({ images: await listStoreImages(deps.config) });
  });
  router.post('/store-images', storeManager, image, async (req, res) => {
    res.status(201).json(await saveStoreImage(deps, actorOf(req), req.body, queryText(req, 'name')));
  });

  // Prices of one store.
  router.get('/stores/:id/prices', storeManager, async (req, res) => {
    res.json({ prices: await listPrices(deps.db, parseStoreKey(param(req, 'id'))) });
  });
  router.put('/stores/:id/prices', storeManager, async (req, res) => {
    res.json({ prices: await setPrices(deps.db, actorOf(req), parseStoreKey(param(req, 'id')), req.body) });
  });
  router.get('/stores/:id/pull-sheet', pullSheetReaders, async (req, res) => {
    res.json(await pullSheet(deps.db, parseStoreKey(param(req, 'id')), req.query));
  });
  // Stock per product of one store (issue #32).
  router.use(stockStaffRoutes(deps));

  // Products, shared by every store.
  router.get('/products', storeManager, async (_req, res) => {
    res.json({ products: await listProducts(deps.db) });
  });
  router.post('/products', storeManager, async (req, res) => {
    res.status(201).json({ products: await createProduct(deps.db, actorOf(req), req.body) });
  });
  router.put('/products/:id', storeManager, async (req, res) => {
    res.json({
      products: await updateProduct(deps.db, actorOf(req), parseProductKey(param(req, 'id')), req.body),
    });
  });
  router.post('/products/reorder', storeManager, async (req, res) => {
    res.json({ products: await reorderProducts(deps.db, actorOf(req), req.body) });
  });
  router.post('/product-images', storeManager, image, async (req, res) => {
    res.status(201).json(await saveProductImage(deps, actorOf(req), req.body, queryText(req, 'name')));
  });

  // Orders.
  router.get('/orders', finance, async (req, res) => {
    res.json({ orders: await listOrders(deps, req.query) });
  });
  router.get('/orders.csv', finance, async (req, res) => {
    const csv = await ordersCsv(deps, req.query);
    const stamp = new Date().toISOString().slice(0, 10);
    // text/csv; charset=utf-8 from the name's extension.
    res.attachment(`orders-${stamp}.csv`).send(csv);
  });
  router.get('/orders/:orderId', finance, async (req, res) => {
    res.json({ order: await orderDetail(deps.db, param(req, 'orderId')) });
  });
  router.post('/orders/:orderId/refunds', finance, async (req, res) => {
    assertFreshSignInForRefund(req, deps.config, Number((req.body as { amount?: unknown })?.amount) || 0);
    const outcome = await refundOrder(
      { ...deps, logger: req.log },
      actorOf(req),
      param(req, 'orderId'),
      req.body,
    );
    res.status(outcome.replayed ? 200 : 201).json(outcome);
  });
  router.post('/orders/:orderId/resend-confirmation', finance, async (req, res) => {
    res.status(202).json(await resendConfirmation(deps, actorOf(req), param(req, 'orderId')));
  });

  router.get('/overview', anyStaff, async (req, res) => {
    res.json(await staffOverview(deps, req.query));
  });

  // Audit log.
  router.get('/audit', owner, async (req, res) => {
    const store = queryText(req, 'store');
    const before = queryText(req, 'before');
    const limit = queryText(req, 'limit');
    const num = (v: string | undefined) => (v !== undefined && /^\d{1,10}$/.test(v) ? Number(v) : undefined);
    res.json({
      entries: await listAudit(deps.db, { storeId: num(store), beforeId: num(before), limit: num(limit) }),
    });
  });

  return router;
}
