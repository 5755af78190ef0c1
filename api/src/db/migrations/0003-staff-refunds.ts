import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Refunds issued by staff. One row per refund asked for, keyed by (order, request key): the
 * staff screen draws a key when its refund dialog opens, so a repeated click or a retried request finds
 * the row already there and never refunds twice. `status` is 'pending' while the gateway is asked,
 * then 'succeeded' or 'failed'.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'order_refunds',
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
        order_id: {
          type: UUID,
          allowNull: false,
          references: { model: 'orders', key: 'id' },
          onDelete: 'RESTRICT',
          onUpdate: 'CASCADE',
        },
        request_key: { type: DataTypes.STRING(64), allowNull: false },
        amount: { type: DataTypes.INTEGER, allowNull: false },
        currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'usd' },
        reason: { type: DataTypes.STRING(500), allowNull: false },
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'pending' },
        gateway: { type: DataTypes.STRING(32), allowNull: false },
        gateway_refund_id: { type: DataTypes.STRING(255), allowNull: true },
        failure: { type: DataTypes.STRING(500), allowNull: true },
        actor_user_id: { type: DataTypes.INTEGER, allowNull: true },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('order_refunds', ['order_id', 'request_key'], {
      name: 'order_refunds_order_id_request_key_unique',
      unique: true,
      transaction,
    });
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.dropTable('order_refunds', { transaction });
  });
}
