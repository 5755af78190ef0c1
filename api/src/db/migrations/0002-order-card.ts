import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * The card an order was paid with, as the receipt names it ('Visa ending in 4242'). Only the brand and the
 * last four digits are ever stored (DESIGN 'Operating contract': never a card number).
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.addColumn(
      'orders',
      'card_brand',
      { type: DataTypes.STRING(32), allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'orders',
      'card_last4',
      { type: DataTypes.STRING(4), allowNull: true },
      { transaction },
    );
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.removeColumn('orders', 'card_last4', { transaction });
    await qi.removeColumn('orders', 'card_brand', { transaction });
  });
}
