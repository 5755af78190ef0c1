import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * File reviews, versions and posters (issue #31).
 *
 * submission_files gains its review (review_state 'new' | 'accepted' | 'needs_new_version', the staff
 * message, when and by whom), its version (1, 2, …) with replaces_file_id naming the previous version
 * (which is kept), and its poster (poster_state null: not tried; 'made' with poster_key; 'none': nothing
 * could be drawn).
 *
 * review_rounds: the review changes of one submission that one client e-mail reports. A round's mail is
 * queued in the outbox when the round starts and pushed back on each further change while it has not
 * left (mail_id); `changes` holds the latest state and message per file of the round.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    const columns = {
      review_state: { type: DataTypes.STRING(24), allowNull: false, defaultValue: 'new' },
      review_message: { type: DataTypes.TEXT, allowNull: true },
      reviewed_at: { type: DataTypes.DATE, allowNull: true },
      reviewed_by: { type: DataTypes.INTEGER, allowNull: true },
      version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      replaces_file_id: { type: UUID, allowNull: true },
      poster_state: { type: DataTypes.STRING(8), allowNull: true },
      poster_key: { type: DataTypes.STRING(512), allowNull: true },
    };
    for (const [name, spec] of Object.entries(columns)) {
      await qi.addColumn('submission_files', name, spec, { transaction });
    }
    // The inbox asks "is there a newer version of this file?" of every row it lists.
    await qi.addIndex('submission_files', ['replaces_file_id'], {
      name: 'submission_files_replaces_file_id',
      transaction,
    });
    await qi.addIndex('submission_files', ['submission_id', 'review_state'], {
      name: 'submission_files_submission_review',
      transaction,
    });
    await qi.createTable(
      'review_rounds',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        submission_id: {
          type: UUID,
          allowNull: false,
          references: { model: 'submissions', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        mail_id: { type: DataTypes.INTEGER, allowNull: true },
        changes: { type: DataTypes.JSON, allowNull: false },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('review_rounds', ['submission_id'], { name: 'review_rounds_submission', transaction });
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.dropTable('review_rounds', { transaction });
    await qi.removeIndex('submission_files', 'submission_files_submission_review', { transaction });
    await qi.removeIndex('submission_files', 'submission_files_replaces_file_id', { transaction });
    // Not qi.removeColumn: on SQLite it rebuilds the table, and dropping it would cascade to the rows
    // that hang off the files.
    for (const column of [
      'poster_key',
      'poster_state',
      'replaces_file_id',
      'version',
      'reviewed_by',
      'reviewed_at',
      'review_message',
      'review_state',
    ]) {
      await qi.sequelize.query(`ALTER TABLE submission_files DROP COLUMN ${column}`, { transaction });
    }
  });
}
