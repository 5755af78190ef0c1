import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** base64 */
  content: string;
}

/**
 * Outgoing mail, written in the same transaction as what caused it and delivered by a worker that
 * claims rows (claimed_by/claimed_at) so that two processes never send the same message.
 */
export interface MailOutboxAttributes {
  id: number;
  toAddress: string;
  cc: string | null;
  bcc: string | null;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  attachments: MailAttachment[] | null;
  status: MailStatus;
  attempts: number;
  nextAttemptAt: Date;
  claimedBy: string | null;
  claimedAt: Date | null;
  lastError: string | null;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
export type MailOutboxCreation = Optional<
  MailOutboxAttributes,
  | 'id'
  | 'cc'
  | 'bcc'
  | 'htmlBody'
  | 'attachments'
  | 'status'
  | 'attempts'
  | 'nextAttemptAt'
  | 'claimedBy'
  | 'claimedAt'
  | 'lastError'
  | 'sentAt'
  | 'createdAt'
  | 'updatedAt'
>;
export interface MailOutboxInstance
  extends Model<MailOutboxAttributes, MailOutboxCreation>, MailOutboxAttributes {}

export function defineMailOutbox(sequelize: Sequelize): ModelStatic<MailOutboxInstance> {
  return sequelize.define<MailOutboxInstance>(
    'MailOutbox',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      toAddress: { type: DataTypes.TEXT, allowNull: false },
      cc: { type: DataTypes.TEXT, allowNull: true },
      bcc: { type: DataTypes.TEXT, allowNull: true },
      subject: { type: DataTypes.STRING(998), allowNull: false },
      textBody: { type: DataTypes.TEXT, allowNull: false },
      htmlBody: { type: DataTypes.TEXT, allowNull: true },
      attachments: { type: DataTypes.JSON, allowNull: true },
      status: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'queued',
        validate: { isIn: [MAIL_STATUSES] },
      },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      nextAttemptAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      claimedBy: { type: DataTypes.STRING(128), allowNull: true },
      claimedAt: { type: DataTypes.DATE, allowNull: true },
      lastError: { type: DataTypes.TEXT, allowNull: true },
      sentAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'mail_outbox', underscored: true },
  );
}
