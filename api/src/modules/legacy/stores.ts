import express from 'express';
import type { Request, RequestHandler, Router } from 'express';
import { STORE_ID_PATTERN } from '@avp/shared';
import type { PublicStore } from '@avp/shared';
import { AppError } from '../../http/errors.js';
import { requireStaffRole, storePaymentKeysOwnerOnly } from '../accounts/index.js';
import {
  actorOf,
  createStore,
  deleteStore,
  listStaffStores,
  parseStoreKey,
  STORE_NOT_FOUND_STAFF,
  updateStore,
} from '../staff/index.js';
import { getPublicStore, listStores } from '../store/index.js';
import { decodeFields } from './encoding.js';
import type { LegacyDeps } from './routes.js';

/**
 * The store calls of SPEC §7 on the store and staff-stores services: getStoreData.php, getAllStores.php,
 * and the staff's updateStore.php and deleteStore.php (each answering the full updated list). A public
 * answer never carries a secret key, the BCC list or the e-mail text (DESIGN deviation 3).
 */

/** SPEC §3 'Store': these three travel base64-encoded and are decoded on receipt. */
export const BASE64_STORE_FIELDS = ['email_text', 'store_text', 'bcc'] as const;
export const STORE_ID_REQUIRED = 'store_id names the store.';

/** The call's fields, from the JSON body or, for a GET, the query (the spec does not say which). */
function payload(req: Request): Record<string, unknown> {
  const source = req.method === 'GET' ? req.query : req.body;
  return typeof source === 'object' && source !== null ? { ...(source as Record<string, unknown>) } : {};
}

/** The original pages may send the flags as 1/0 or 'true'/'false'; the service takes booleans. */
function flag(value: unknown): unknown {
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false') return false;
  return value;
}

/** stores.id from a number, else the store with that URL slug, else a digit string as stores.id. */
async function storeKeyOf(deps: LegacyDeps, value: unknown): Promise<number> {
  if (typeof value === 'number') return parseStoreKey(String(value));
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError(404, 'store_not_found', STORE_NOT_FOUND_STAFF);
  }
  const text = value.trim();
  if (STORE_ID_PATTERN.test(text)) {
    const store = await deps.db.models.Store.findOne({ attributes: ['id'], where: { slug: text } });
    if (store) return store.id;
  }
  return parseStoreKey(text);
}

/**
 * The store as getStoreData.php has always answered it: the API's own store answer now spells these two
 * additions in the store's snake_case (early_bird, time_zone); this call keeps their first names.
 */
function legacyStoreAnswer({ early_bird, time_zone, ...store }: PublicStore) {
  return { ...store, earlyBird: early_bird, timeZone: time_zone };
}

const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

export function legacyStoreRoutes(deps: LegacyDeps): Router {
  const router = express.Router();
  // Changing stores is the store manager's (#33).
  const storeManager = requireStaffRole('store_manager');

  const storeData: RequestHandler = async (req, res) => {
    const fields = payload(req);
    const storeId = fields.store_id ?? fields.storeId;
    if (typeof storeId !== 'string' || storeId.trim() === '') {
      throw new AppError(400, 'validation_failed', STORE_ID_REQUIRED, { store_id: STORE_ID_REQUIRED });
    }
    res.set('Cache-Control', 'no-cache').json(legacyStoreAnswer(await getPublicStore(deps, storeId.trim())));
  };
  router.get('/getStoreData.php', storeData);
  router.post('/getStoreData.php', storeData);

  // SPEC §7: the staff screen asks with an empty payload and gets every store; anyone else (or any
  // other payload) gets the selector's list of active stores.
  const allStores: RequestHandler = async (req, res) => {
    const fields = payload(req);
    delete fields.token;
    if (req.user?.role === 'staff' && Object.keys(fields).length === 0) {
      res.set('Cache-Control', 'no-store').json({ stores: await listStaffStores(deps) });
      return;
    }
    res.set('Cache-Control', 'no-cache').json({ stores: await listStores(deps) });
  };
  router.get('/getAllStores.php', allStores);
  router.post('/getAllStores.php', allStores);

  router.post('/updateStore.php', storeManager, storePaymentKeysOwnerOnly, noStore, async (req, res) => {
    const body = decodeFields(req.body, BASE64_STORE_FIELDS);
    delete body.token;
    body.is_active = flag(body.is_active);
    body.is_archived = flag(body.is_archived);
    const id = body.id;
    if (id === undefined || id === null || id === '') {
      delete body.id;
      res.status(201).json(await createStore(deps, actorOf(req), body));
      return;
    }
    const key = parseStoreKey(String(id));
    res.json(await updateStore(deps, actorOf(req), key, { ...body, id: key }));
  });

  router.post('/deleteStore.php', storeManager, noStore, async (req, res) => {
    const body = payload(req);
    const key = await storeKeyOf(deps, body.storeId ?? body.id ?? body.store_id);
    res.json(await deleteStore(deps, actorOf(req), key));
  });

  return router;
}
