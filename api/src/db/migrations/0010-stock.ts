import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Stock per store and product, and the holds that keep an order's units while it is being paid (#32).
 *
 * `stock` has one row per store and product: `stock_limit` (NULL = unlimited), `held` (units kept for
 * orders not yet paid) and `sold` (units of paid orders). It is the unit of truth: every change is one
 * conditional UPDATE on it (api/src/modules/stock/ledger.ts), and the CHECK below is the last line should
 * any code path ever try to hand out more than the limit.
 *
 * `stock_holds` has one row per order that reached payment: its state says whether the order's lines
 * (order_lines, which change only together with the hold) are counted in `held` ('held'), in `sold`
 * ('committed'), in neither ('released' after expiry or a change, 'short' when paid after expiry with the
 * units gone, 'returned' after a refund put them back). `expires_at` is milliseconds since the epoch.
 *
 * `stock_sweeps` is one row: the next time an expiry sweep is due, claimed by one process at a time.
 *
 * Orders paid before this migration are counted as sold and have committed holds, so a limit set later
 * cannot be below what was already sold and a refund can put their units back.
 */
export async function up({ context: { sequelize } }: { context: MigrationContext }): Promise<void> {
  const postgres = sequelize.getDialect() === 'postgres';
  const uuid = postgres ? 'UUID' : 'VARCHAR(36)';
  await sequelize.transaction(async (transaction: Transaction) => {
    const run = (sql: string) => sequelize.query(sql, { transaction });
    await run(`CREATE TABLE stock (
      store_id INTEGER NOT NULL REFERENCES stores (id) ON DELETE CASCADE ON UPDATE CASCADE,
      product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE ON UPDATE CASCADE,
      stock_limit INTEGER NULL,
      held INTEGER NOT NULL DEFAULT 0,
      sold INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (store_id, product_id),
      CONSTRAINT stock_counts_within_limit CHECK (
        held >= 0 AND sold >= 0 AND (stock_limit IS NULL OR (stock_limit >= 0 AND sold + held <= stock_limit))
      )
    )`);
    await run(`CREATE TABLE stock_holds (
      order_id ${uuid} NOT NULL PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE ON UPDATE CASCADE,
      store_id INTEGER NOT NULL REFERENCES stores (id) ON DELETE CASCADE ON UPDATE CASCADE,
      state VARCHAR(16) NOT NULL,
      expires_at BIGINT NOT NULL,
      reason VARCHAR(255) NULL,
      CONSTRAINT stock_holds_state CHECK (state IN ('held', 'released', 'committed', 'short', 'returned'))
    )`);
    await run('CREATE INDEX stock_holds_state_expires_at ON stock_holds (state, expires_at)');
    await run(`CREATE TABLE stock_sweeps (
      id INTEGER NOT NULL PRIMARY KEY,
      next_at BIGINT NOT NULL,
      swept_by VARCHAR(128) NULL
    )`);
    await run('INSERT INTO stock_sweeps (id, next_at) VALUES (1, 0)');

    const settled = "('paid', 'partially_refunded')";
    await run(`INSERT INTO stock (store_id, product_id, held, sold)
      SELECT o.store_id, l.product_id, 0, SUM(l.quantity)
        FROM orders o JOIN order_lines l ON l.order_id = o.id
       WHERE o.status IN ${settled}
       GROUP BY o.store_id, l.product_id`);
    await run(`INSERT INTO stock_holds (order_id, store_id, state, expires_at)
      SELECT id, store_id, 'committed', 0 FROM orders WHERE status IN ${settled}`);
  });
}

export async function down({ context: { sequelize } }: { context: MigrationContext }): Promise<void> {
  await sequelize.transaction(async (transaction: Transaction) => {
    for (const table of ['stock_sweeps', 'stock_holds', 'stock']) {
      await sequelize.query(`DROP TABLE ${table}`, { transaction });
    }
  });
}
