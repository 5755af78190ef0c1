import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * stores.version: raised by every staff change to what a store's page shows (the store, its prices, the
 * products it sells), in the change's own transaction. Each API process keeps the store page's answer in
 * memory and checks it against this column on every request, so an edit made through one process is seen
 * at once by all of them (api/src/modules/store/cache.ts). The unique index on store_id serves the check.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.addColumn(
      'stores',
      'version',
      { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      { transaction },
    );
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  // Not qi.removeColumn: on SQLite it rebuilds the table, and dropping stores would cascade to its prices.
  await qi.sequelize.query('ALTER TABLE stores DROP COLUMN version');
}
