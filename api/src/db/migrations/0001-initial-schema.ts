import { DataTypes } from 'sequelize';
import type { ModelAttributeColumnOptions, Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * The first schema: every table of DESIGN 'Data'. Written against QueryInterface (not the models) so that it
 * stays frozen history while models evolve, and portable between SQLite and PostgreSQL: enumerations are
 * short strings checked by the models and the zod schemas, JSON is JSON (text on SQLite), sizes are BIGINT.
 */

type Columns = Record<string, ModelAttributeColumnOptions>;

const TABLES_IN_DROP_ORDER = [
  'rate_limits',
  'audit_log',
  'webhook_events',
  'mail_outbox',
  'file_parts',
  'submission_files',
  'submissions',
  'order_lines',
  'orders',
  'store_prices',
  'products',
  'stores',
  'contact_messages',
  'password_resets',
  'sessions',
  'users',
];

export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  // SQLite would give a column declared UUID numeric affinity; VARCHAR keeps the text as text.
  const UUID = postgres ? DataTypes.UUID : DataTypes.STRING(36);

  const id = (): ModelAttributeColumnOptions => ({
    type: DataTypes.INTEGER,
    autoIncrement: true,
    primaryKey: true,
    allowNull: false,
  });
  const uuid = (): ModelAttributeColumnOptions => ({ type: UUID, primaryKey: true, allowNull: false });
  const required = (type: ModelAttributeColumnOptions['type']): ModelAttributeColumnOptions => ({
    type,
    allowNull: false,
  });
  const optional = (type: ModelAttributeColumnOptions['type']): ModelAttributeColumnOptions => ({
    type,
    allowNull: true,
  });
  const fk = (
    table: string,
    onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL',
    type: ModelAttributeColumnOptions['type'] = DataTypes.INTEGER,
  ): ModelAttributeColumnOptions => ({
    type,
    allowNull: onDelete === 'SET NULL',
    references: { model: table, key: 'id' },
    onDelete,
    onUpdate: 'CASCADE',
  });
  const created = { created_at: required(DataTypes.DATE) };
  const timestamps = { created_at: required(DataTypes.DATE), updated_at: required(DataTypes.DATE) };

  await qi.sequelize.transaction(async (transaction: Transaction) => {
    const table = (name: string, columns: Columns) => qi.createTable(name, columns, { transaction });
    const index = (name: string, fields: string[], unique = false) =>
      qi.addIndex(name, fields, {
        name: `${name}_${fields.join('_')}${unique ? '_unique' : ''}`,
        unique,
        transaction,
      });

    await table('users', {
      id: id(),
      email: { ...required(DataTypes.STRING(254)), unique: true },
      password_hash: required(DataTypes.STRING(255)),
      first_name: required(DataTypes.STRING(100)),
      last_name: required(DataTypes.STRING(100)),
      company: optional(DataTypes.STRING(200)),
      phone: optional(DataTypes.STRING(40)),
      role: { ...required(DataTypes.STRING(16)), defaultValue: 'client' },
      ...timestamps,
      last_login_at: optional(DataTypes.DATE),
    });

    await table('sessions', {
      id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
      user_id: fk('users', 'CASCADE'),
      ...created,
      expires_at: required(DataTypes.DATE),
      last_seen_at: required(DataTypes.DATE),
      ip: optional(DataTypes.STRING(64)),
      user_agent: optional(DataTypes.STRING(512)),
    });
    await index('sessions', ['user_id']);
    await index('sessions', ['expires_at']);

    await table('password_resets', {
      id: id(),
      user_id: fk('users', 'CASCADE'),
      token_hash: { ...required(DataTypes.STRING(64)), unique: true },
      expires_at: required(DataTypes.DATE),
      used_at: optional(DataTypes.DATE),
      ...created,
    });

    await table('contact_messages', {
      id: id(),
      email: required(DataTypes.STRING(254)),
      first_name: required(DataTypes.STRING(100)),
      last_name: required(DataTypes.STRING(100)),
      company: optional(DataTypes.STRING(200)),
      phone: optional(DataTypes.STRING(40)),
      title: optional(DataTypes.STRING(200)),
      message: optional(DataTypes.TEXT),
      subject: required(DataTypes.STRING(255)),
      hottrends: { ...required(DataTypes.STRING(3)), defaultValue: 'NO' },
      ip: optional(DataTypes.STRING(64)),
      ...created,
    });
    await index('contact_messages', ['created_at']);

    await table('stores', {
      id: id(),
      store_id: { ...required(DataTypes.STRING(64)), unique: true },
      name: required(DataTypes.STRING(255)),
      is_active: { ...required(DataTypes.BOOLEAN), defaultValue: true },
      is_archived: { ...required(DataTypes.BOOLEAN), defaultValue: false },
      image: optional(DataTypes.STRING(255)),
      deadline: required(DataTypes.DATEONLY),
      order_cutoff: optional(DataTypes.DATEONLY),
      start_date: required(DataTypes.DATEONLY),
      end_date: required(DataTypes.DATEONLY),
      email_text: optional(DataTypes.TEXT),
      store_text: optional(DataTypes.TEXT),
      bcc: optional(DataTypes.TEXT),
      stripe_publishable_key: optional(DataTypes.STRING(255)),
      stripe_secret_key_enc: optional(DataTypes.TEXT),
      ...timestamps,
    });

    await table('products', {
      id: id(),
      name: required(DataTypes.STRING(255)),
      description: { ...required(DataTypes.TEXT), defaultValue: '' },
      images: required(DataTypes.JSON),
      sort_order: { ...required(DataTypes.INTEGER), defaultValue: 0 },
      is_active: { ...required(DataTypes.BOOLEAN), defaultValue: true },
      ...timestamps,
    });

    await table('store_prices', {
      id: id(),
      store_id: fk('stores', 'CASCADE'),
      // A product that is priced somewhere cannot vanish: take it off sale (is_active) instead.
      product_id: fk('products', 'RESTRICT'),
      unit_amount: required(DataTypes.INTEGER),
      currency: { ...required(DataTypes.STRING(3)), defaultValue: 'usd' },
      ...timestamps,
    });
    await index('store_prices', ['store_id', 'product_id'], true);
    await index('store_prices', ['product_id']);

    await table('orders', {
      id: uuid(),
      // Orders are financial records: a store that has taken orders is archived, never deleted.
      store_id: fk('stores', 'RESTRICT'),
      status: { ...required(DataTypes.STRING(24)), defaultValue: 'pending' },
      confirmation: { ...optional(DataTypes.STRING(32)), unique: true },
      access_token_hash: optional(DataTypes.STRING(64)),
      gateway: required(DataTypes.STRING(32)),
      gateway_intent_id: { ...optional(DataTypes.STRING(255)), unique: true },
      customer: required(DataTypes.JSON),
      email: required(DataTypes.STRING(254)),
      subtotal: required(DataTypes.INTEGER),
      discount: required(DataTypes.INTEGER),
      fee: required(DataTypes.INTEGER),
      total: required(DataTypes.INTEGER),
      refunded_amount: { ...required(DataTypes.INTEGER), defaultValue: 0 },
      currency: { ...required(DataTypes.STRING(3)), defaultValue: 'usd' },
      early_bird: required(DataTypes.BOOLEAN),
      paid_at: optional(DataTypes.DATE),
      ...timestamps,
    });
    await index('orders', ['store_id']);
    await index('orders', ['status']);
    await index('orders', ['created_at']);

    await table('order_lines', {
      id: id(),
      order_id: fk('orders', 'CASCADE', UUID),
      product_id: fk('products', 'RESTRICT'),
      name: required(DataTypes.STRING(255)),
      unit_amount: required(DataTypes.INTEGER),
      quantity: required(DataTypes.INTEGER),
      line_total: required(DataTypes.INTEGER),
    });
    await index('order_lines', ['order_id']);

    await table('submissions', {
      id: uuid(),
      // Received uploads are business records with files in storage: a user who has sent some is not
      // deleted by a cascade that would orphan those files.
      user_id: fk('users', 'RESTRICT'),
      form_type: required(DataTypes.STRING(16)),
      fields: required(DataTypes.JSON),
      status: { ...required(DataTypes.STRING(16)), defaultValue: 'open' },
      submitted_at: optional(DataTypes.DATE),
      handled_at: optional(DataTypes.DATE),
      ...timestamps,
    });
    await index('submissions', ['user_id']);
    await index('submissions', ['status', 'submitted_at']);

    await table('submission_files', {
      id: uuid(),
      submission_id: fk('submissions', 'CASCADE', UUID),
      name: required(DataTypes.STRING(255)),
      size: required(DataTypes.BIGINT),
      type: { ...required(DataTypes.STRING(255)), defaultValue: '' },
      last_modified: optional(DataTypes.BIGINT),
      sha256: optional(DataTypes.STRING(64)),
      part_size: required(DataTypes.INTEGER),
      part_count: required(DataTypes.INTEGER),
      storage_key: required(DataTypes.STRING(512)),
      storage_upload_id: optional(DataTypes.STRING(1024)),
      status: { ...required(DataTypes.STRING(16)), defaultValue: 'uploading' },
      completed_at: optional(DataTypes.DATE),
      ...timestamps,
    });
    await index('submission_files', ['submission_id']);

    await table('file_parts', {
      id: id(),
      file_id: fk('submission_files', 'CASCADE', UUID),
      part_number: required(DataTypes.INTEGER),
      size: required(DataTypes.INTEGER),
      etag: optional(DataTypes.STRING(255)),
      ...created,
    });
    await index('file_parts', ['file_id', 'part_number'], true);

    await table('mail_outbox', {
      id: id(),
      to_address: required(DataTypes.TEXT),
      cc: optional(DataTypes.TEXT),
      bcc: optional(DataTypes.TEXT),
      subject: required(DataTypes.STRING(998)),
      text_body: required(DataTypes.TEXT),
      html_body: optional(DataTypes.TEXT),
      attachments: optional(DataTypes.JSON),
      status: { ...required(DataTypes.STRING(16)), defaultValue: 'queued' },
      attempts: { ...required(DataTypes.INTEGER), defaultValue: 0 },
      next_attempt_at: required(DataTypes.DATE),
      claimed_by: optional(DataTypes.STRING(128)),
      claimed_at: optional(DataTypes.DATE),
      last_error: optional(DataTypes.TEXT),
      sent_at: optional(DataTypes.DATE),
      ...timestamps,
    });
    await index('mail_outbox', ['status', 'next_attempt_at']);

    await table('webhook_events', {
      id: id(),
      gateway: required(DataTypes.STRING(32)),
      event_id: required(DataTypes.STRING(255)),
      type: required(DataTypes.STRING(255)),
      received_at: required(DataTypes.DATE),
      processed_at: optional(DataTypes.DATE),
    });
    await index('webhook_events', ['gateway', 'event_id'], true);

    await table('audit_log', {
      id: id(),
      actor_user_id: fk('users', 'SET NULL'),
      action: required(DataTypes.STRING(64)),
      entity: required(DataTypes.STRING(64)),
      entity_id: optional(DataTypes.STRING(64)),
      store_id: optional(DataTypes.INTEGER),
      before: optional(DataTypes.JSON),
      after: optional(DataTypes.JSON),
      ip: optional(DataTypes.STRING(64)),
      ...created,
    });
    await index('audit_log', ['created_at']);
    await index('audit_log', ['store_id']);

    await table('rate_limits', {
      key: { type: DataTypes.STRING(255), primaryKey: true, allowNull: false },
      count: required(DataTypes.INTEGER),
      reset_at: required(DataTypes.DATE),
    });
    await index('rate_limits', ['reset_at']);
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    for (const name of TABLES_IN_DROP_ORDER) await qi.dropTable(name, { transaction });
  });
}
