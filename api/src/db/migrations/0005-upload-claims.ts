import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Write claims on uploads (api/src/modules/uploads/claims.ts): one row per part being stored, and part 0
 * for a file being completed, so that two writes of the same part never overlap and no part is written
 * while its file is completed, whichever processes the requests reach. A claim is a lease: `expires_at`
 * (milliseconds since the epoch, by the database's clock) is pushed on while its holder makes progress,
 * and a claim left by a process that died passes to the next writer once it runs out.
 *
 * `file_parts.write_id` names the write (its claim's token) that stored a part's current bytes, so a
 * running checksum can tell whether the parts it hashed are still the ones in storage.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'upload_claims',
      {
        file_id: {
          type: UUID,
          primaryKey: true,
          allowNull: false,
          references: { model: 'submission_files', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        part_number: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
        token: { type: DataTypes.STRING(36), allowNull: false },
        expires_at: { type: DataTypes.BIGINT, allowNull: false },
      },
      { transaction },
    );
    await qi.addColumn(
      'file_parts',
      'write_id',
      { type: DataTypes.STRING(36), allowNull: true },
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
    await qi.removeColumn('file_parts', 'write_id', { transaction });
    await qi.dropTable('upload_claims', { transaction });
  });
}
