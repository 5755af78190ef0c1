import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Upload events and media facts (issue #30).
 *
 * upload_events: what staff define per event (days, time zone, upload deadline, a media spec per form
 * type as JSON). name_key is the trimmed, case-folded name; the partial unique index keeps it unique among
 * events not archived, whatever two staff members save at once.
 *
 * media_facts: one row per file and source ('client': what the uploader's reader reported at
 * registration; 'server': what the server read from the stored bytes), with the check against the spec
 * that applied (verdict, issues) and MediaInfoLib's raw JSON. readable = false: the reader gave no facts.
 *
 * submissions.upload_event_id: the event the form's event name matched when the submission was made (or
 * last continued); null for free text. submission_files.check_verdict/check_issues: the check the server
 * computed at registration from the client's facts (a 'warn' is recorded with the file).
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'upload_events',
      {
        id: { type: UUID, primaryKey: true, allowNull: false },
        name: { type: DataTypes.STRING(120), allowNull: false },
        name_key: { type: DataTypes.STRING(120), allowNull: false },
        starts_on: { type: DataTypes.STRING(10), allowNull: false },
        ends_on: { type: DataTypes.STRING(10), allowNull: false },
        time_zone: { type: DataTypes.STRING(64), allowNull: false },
        deadline: { type: DataTypes.DATE, allowNull: false },
        specs: { type: DataTypes.JSON, allowNull: false },
        archived_at: { type: DataTypes.DATE, allowNull: true },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('upload_events', ['name_key'], {
      name: 'upload_events_name_key_open_unique',
      unique: true,
      where: { archived_at: null },
      transaction,
    });
    await qi.createTable(
      'media_facts',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        file_id: {
          type: UUID,
          allowNull: false,
          references: { model: 'submission_files', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        source: { type: DataTypes.STRING(8), allowNull: false },
        readable: { type: DataTypes.BOOLEAN, allowNull: false },
        kind: { type: DataTypes.STRING(8), allowNull: true },
        container: { type: DataTypes.STRING(64), allowNull: true },
        video_codec: { type: DataTypes.STRING(64), allowNull: true },
        width: { type: DataTypes.INTEGER, allowNull: true },
        height: { type: DataTypes.INTEGER, allowNull: true },
        fps: { type: DataTypes.DOUBLE, allowNull: true },
        duration_seconds: { type: DataTypes.DOUBLE, allowNull: true },
        audio_codec: { type: DataTypes.STRING(64), allowNull: true },
        audio_channels: { type: DataTypes.INTEGER, allowNull: true },
        audio_sample_rate: { type: DataTypes.INTEGER, allowNull: true },
        size_bytes: { type: DataTypes.BIGINT, allowNull: true },
        bytes_read: { type: DataTypes.BIGINT, allowNull: true },
        raw: { type: DataTypes.JSON, allowNull: true },
        verdict: { type: DataTypes.STRING(16), allowNull: false },
        issues: { type: DataTypes.JSON, allowNull: false },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { transaction },
    );
    await qi.addIndex('media_facts', ['file_id', 'source'], {
      name: 'media_facts_file_source_unique',
      unique: true,
      transaction,
    });
    // A foreign key on PostgreSQL only: SQLite cannot drop a column that carries one (down() below), and
    // events are archived, never deleted.
    await qi.addColumn(
      'submissions',
      'upload_event_id',
      postgres
        ? {
            type: UUID,
            allowNull: true,
            references: { model: 'upload_events', key: 'id' },
            onDelete: 'SET NULL',
            onUpdate: 'CASCADE',
          }
        : { type: UUID, allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'submission_files',
      'check_verdict',
      { type: DataTypes.STRING(16), allowNull: true },
      { transaction },
    );
    await qi.addColumn(
      'submission_files',
      'check_issues',
      { type: DataTypes.JSON, allowNull: true },
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
    // Not qi.removeColumn: on SQLite it rebuilds the table, and dropping submissions or their files would
    // cascade to the rows that hang off them.
    for (const [table, column] of [
      ['submission_files', 'check_issues'],
      ['submission_files', 'check_verdict'],
      ['submissions', 'upload_event_id'],
    ] as const) {
      await qi.sequelize.query(`ALTER TABLE ${table} DROP COLUMN ${column}`, { transaction });
    }
    await qi.dropTable('media_facts', { transaction });
    await qi.dropTable('upload_events', { transaction });
  });
}
