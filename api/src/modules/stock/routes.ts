import express from 'express';
import type { Request, Router } from 'express';
import type { Database } from '../../db/index.js';
import { requireStaffRole } from '../accounts/index.js';
import { actorOf } from '../staff/audit.js';
import { parseProductKey } from '../staff/catalogue.js';
import { parseStoreKey } from '../staff/stores.js';
import { listStock, setStockLimit } from './staff-stock.js';

const param = (req: Request, name: string) => String(req.params[name] ?? '');

/**
 * The staff stock table (mounted inside the staff router, after its staff-only check):
 *
 *   GET /api/staff/stores/:id/stock              { rows: [{ productId, name, limit, held, sold, left }] }
 *   PUT /api/staff/stores/:id/stock/:productId   { limit: number | null } → the table again
 */
export function stockStaffRoutes(deps: { db: Database }): Router {
  const router = express.Router();
  // Store managers' (#33).
  const storeManager = requireStaffRole('store_manager');
  router.get('/stores/:id/stock', storeManager, async (req, res) => {
    res.json({ rows: await listStock(deps.db, parseStoreKey(param(req, 'id'))) });
  });
  router.put('/stores/:id/stock/:productId', storeManager, async (req, res) => {
    const rows = await setStockLimit(
      deps.db,
      actorOf(req),
      parseStoreKey(param(req, 'id')),
      parseProductKey(param(req, 'productId')),
      req.body,
    );
    res.json({ rows });
  });
  return router;
}
