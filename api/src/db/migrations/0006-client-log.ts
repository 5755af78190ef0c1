import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * What the original pages report through the spec's log call (SPEC §7 'Log': type and data), kept for
 * staff to read: one row per report, with who sent it when they were signed in. `data` is the report as
 * JSON text, bounded by the call; old rows are pruned by the legacy module.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'client_logs',
      {
        id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true, allowNull: false },
        type: { type: DataTypes.STRING(64), allowNull: false },
        data: { type: DataTypes.TEXT, allowNull: false },
        user_id: {
          type: DataTypes.INTEGER,
          allowNull: true,
          references: { model: 'users', key: 'id' },
          onDelete: 'SET NULL',
          onUpdate: 'CASCADE',
        },
        ip: { type: DataTypes.STRING(64), allowNull: true },
        user_agent: { type: DataTypes.STRING(512), allowNull: true },
        created_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('client_logs', ['created_at'], { name: 'client_logs_created_at', transaction });
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.dropTable('client_logs', { transaction });
  });
}
