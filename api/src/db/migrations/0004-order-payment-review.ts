import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * What the payment provider actually captured, kept beside the order's own total: an order is paid only
 * when the two agree, and one whose capture differs waits for staff as `needs_review` with both amounts and
 * the reason. `revision` counts cart changes, so two submits racing over one order cannot interleave
 * their provider update and their database write.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.addColumn(
      'orders',
      'amount_received',
      { type: DataTypes.INTEGER, allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'orders',
      'received_currency',
      { type: DataTypes.STRING(3), allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'orders',
      'review_reason',
      { type: DataTypes.STRING(255), allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'orders',
      'revision',
      { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
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
    for (const column of ['revision', 'review_reason', 'received_currency', 'amount_received']) {
      await qi.removeColumn('orders', column, { transaction });
    }
  });
}
