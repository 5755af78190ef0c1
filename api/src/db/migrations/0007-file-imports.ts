import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Cloud imports (api/src/modules/imports): one row per submission file whose bytes the server copies from
 * a cloud provider. The file's parts are stored and recorded exactly as browser parts are (file_parts),
 * so a copy resumes from the first missing part. The row is the worker's lease (lease_token,
 * lease_expires_at in milliseconds by the database's clock), so of several processes only one copies a
 * file at a time, and one that died passes it on when the lease runs out. access_token is encrypted.
 *
 * submissions.notice_pending marks a sent submission whose staff notice waits for its imports.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'file_imports',
      {
        file_id: {
          type: UUID,
          primaryKey: true,
          allowNull: false,
          references: { model: 'submission_files', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        user_id: {
          type: DataTypes.INTEGER,
          allowNull: false,
          references: { model: 'users', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        provider: { type: DataTypes.STRING(16), allowNull: false },
        source_file_id: { type: DataTypes.STRING(512), allowNull: true },
        source_link: { type: DataTypes.TEXT, allowNull: true },
        access_token: { type: DataTypes.TEXT, allowNull: true },
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'queued' },
        bytes_done: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        bytes_per_second: { type: DataTypes.BIGINT, allowNull: true },
        error: { type: DataTypes.STRING(512), allowNull: true },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        next_attempt_at: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        lease_token: { type: DataTypes.STRING(36), allowNull: true },
        lease_expires_at: { type: DataTypes.BIGINT, allowNull: true },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('file_imports', ['status', 'next_attempt_at'], {
      name: 'file_imports_waiting',
      transaction,
    });
    await qi.addIndex('file_imports', ['user_id', 'created_at'], { name: 'file_imports_user', transaction });
    await qi.addColumn(
      'submissions',
      'notice_pending',
      { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
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
    await qi.removeColumn('submissions', 'notice_pending', { transaction });
    await qi.dropTable('file_imports', { transaction });
  });
}
