import type { PublicProduct } from '@avp/shared';
import type { Database } from '../../db/index.js';
import type { StoreInstance } from '../../db/models/index.js';
import { AppError } from '../../http/errors.js';
import { STORE_NOT_FOUND, storeProducts } from '../store/catalogue.js';
import { freshReads } from '../store/fresh-reads.js';
import { readCounts } from '../stock/ledger.js';
import type { StockCounts } from '../stock/ledger.js';

/**
 * What intent creation reads before it asks the provider for anything: the store, its priced products and
 * its limited stock rows. Under load many buyers of one store create intents at once, and each read its
 * own copy of the same rows (three queries, four round trips with Sequelize's column lookup, per intent:
 * bench:store's profile, issue #34 part 4). Here they share reads through freshReads (store/fresh-reads.ts),
 * which never answers a caller with a read begun before its call: each intent still sees the store as it
 * was when the intent was asked for, as its own query would. The rows are only read; nobody changes them.
 */
export interface IntentReads {
  store(slug: string): Promise<StoreInstance>;
  products(storeId: number): Promise<readonly PublicProduct[]>;
  limitedCounts(storeId: number): Promise<readonly StockCounts[]>;
}

const perDatabase = new WeakMap<Database, IntentReads>();

export function intentReads(db: Database): IntentReads {
  let reads = perDatabase.get(db);
  if (reads === undefined) {
    const store = freshReads((slug) => db.models.Store.findOne({ where: { slug } }));
    const products = freshReads((key) => storeProducts(db, Number(key)));
    const limited = freshReads((key) => readCounts(db, Number(key), { limitedOnly: true }));
    reads = {
      async store(slug) {
        const found = await store(slug);
        // A 404 of its own for each caller: an error object is never shared between requests.
        if (found === null) throw new AppError(404, 'store_not_found', STORE_NOT_FOUND);
        return found;
      },
      products: (storeId) => products(String(storeId)),
      limitedCounts: (storeId) => limited(String(storeId)),
    };
    perDatabase.set(db, reads);
  }
  return reads;
}
