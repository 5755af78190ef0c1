import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

/** One row per payment-gateway event handled: a redelivered webhook is recognised and skipped. */
export interface WebhookEventAttributes {
  id: number;
  gateway: string;
  eventId: string;
  type: string;
  receivedAt: Date;
  processedAt: Date | null;
}
export type WebhookEventCreation = Optional<WebhookEventAttributes, 'id' | 'receivedAt' | 'processedAt'>;
export interface WebhookEventInstance
  extends Model<WebhookEventAttributes, WebhookEventCreation>, WebhookEventAttributes {}

export function defineWebhookEvent(sequelize: Sequelize): ModelStatic<WebhookEventInstance> {
  return sequelize.define<WebhookEventInstance>(
    'WebhookEvent',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      gateway: { type: DataTypes.STRING(32), allowNull: false, unique: 'webhook_events_gateway_event' },
      eventId: { type: DataTypes.STRING(255), allowNull: false, unique: 'webhook_events_gateway_event' },
      type: { type: DataTypes.STRING(255), allowNull: false },
      receivedAt: { type: DataTypes.DATE, allowNull: false },
      processedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { tableName: 'webhook_events', underscored: true, createdAt: 'receivedAt', updatedAt: false },
  );
}

/** A staff action: who did what to which record, with the values before and after. */
export interface AuditLogAttributes {
  id: number;
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** stores.id when the action concerns a store; no foreign key, so history outlives a deleted store. */
  storeId: number | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  createdAt: Date;
}
export type AuditLogCreation = Optional<
  AuditLogAttributes,
  'id' | 'actorUserId' | 'entityId' | 'storeId' | 'before' | 'after' | 'ip' | 'createdAt'
>;
export interface AuditLogInstance extends Model<AuditLogAttributes, AuditLogCreation>, AuditLogAttributes {}

export function defineAuditLog(sequelize: Sequelize): ModelStatic<AuditLogInstance> {
  return sequelize.define<AuditLogInstance>(
    'AuditLog',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      actorUserId: { type: DataTypes.INTEGER, allowNull: true },
      action: { type: DataTypes.STRING(64), allowNull: false },
      entity: { type: DataTypes.STRING(64), allowNull: false },
      entityId: { type: DataTypes.STRING(64), allowNull: true },
      storeId: { type: DataTypes.INTEGER, allowNull: true },
      before: { type: DataTypes.JSON, allowNull: true },
      after: { type: DataTypes.JSON, allowNull: true },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'audit_log', underscored: true, updatedAt: false },
  );
}

/** A fixed-window counter shared by every API process (DESIGN 'Running on more than one machine'). */
export interface RateLimitAttributes {
  key: string;
  count: number;
  resetAt: Date;
}
export interface RateLimitInstance
  extends Model<RateLimitAttributes, RateLimitAttributes>, RateLimitAttributes {}

export function defineRateLimit(sequelize: Sequelize): ModelStatic<RateLimitInstance> {
  return sequelize.define<RateLimitInstance>(
    'RateLimit',
    {
      key: { type: DataTypes.STRING(255), primaryKey: true },
      count: { type: DataTypes.INTEGER, allowNull: false },
      resetAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'rate_limits', underscored: true, timestamps: false },
  );
}

/** A report sent by a page through the spec's log call (SPEC §7 'Log'), kept for staff. */
export interface ClientLogAttributes {
  id: number;
  type: string;
  /** The report's data as JSON text. */
  data: string;
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
}
export type ClientLogCreation = Optional<
  ClientLogAttributes,
  'id' | 'userId' | 'ip' | 'userAgent' | 'createdAt'
>;
export interface ClientLogInstance
  extends Model<ClientLogAttributes, ClientLogCreation>, ClientLogAttributes {}

export function defineClientLog(sequelize: Sequelize): ModelStatic<ClientLogInstance> {
  return sequelize.define<ClientLogInstance>(
    'ClientLog',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      type: { type: DataTypes.STRING(64), allowNull: false },
      data: { type: DataTypes.TEXT, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'client_logs', underscored: true, updatedAt: false },
  );
}
