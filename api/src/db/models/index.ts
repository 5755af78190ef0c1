import type { Sequelize } from 'sequelize';
import { definePasswordReset, defineSession, defineUser } from './accounts.js';
import { defineContactMessage } from './contact.js';
import { defineAuditLog, defineClientLog, defineRateLimit, defineWebhookEvent } from './operations.js';
import { defineMailOutbox } from './outbox.js';
import {
  defineOrder,
  defineOrderLine,
  defineOrderRefund,
  defineProduct,
  defineStore,
  defineStorePrice,
} from './store.js';
import {
  defineFileImport,
  defineFilePart,
  defineReviewRound,
  defineSubmission,
  defineSubmissionFile,
} from './uploads.js';
import { defineMediaFacts, defineUploadEvent } from './upload-events.js';

export * from './accounts.js';
export * from './contact.js';
export * from './operations.js';
export * from './outbox.js';
export * from './store.js';
export * from './uploads.js';
export * from './upload-events.js';

/**
 * Models are defined per Sequelize instance (sequelize.define, not global classes), so one process can
 * hold two databases at once, as the tests do. The tables themselves come only from migrations.
 */
export function defineModels(sequelize: Sequelize) {
  const models = {
    User: defineUser(sequelize),
    Session: defineSession(sequelize),
    PasswordReset: definePasswordReset(sequelize),
    ContactMessage: defineContactMessage(sequelize),
    Store: defineStore(sequelize),
    Product: defineProduct(sequelize),
    StorePrice: defineStorePrice(sequelize),
    Order: defineOrder(sequelize),
    OrderLine: defineOrderLine(sequelize),
    OrderRefund: defineOrderRefund(sequelize),
    Submission: defineSubmission(sequelize),
    SubmissionFile: defineSubmissionFile(sequelize),
    FilePart: defineFilePart(sequelize),
    FileImport: defineFileImport(sequelize),
    ReviewRound: defineReviewRound(sequelize),
    UploadEvent: defineUploadEvent(sequelize),
    MediaFacts: defineMediaFacts(sequelize),
    MailOutbox: defineMailOutbox(sequelize),
    WebhookEvent: defineWebhookEvent(sequelize),
    AuditLog: defineAuditLog(sequelize),
    RateLimit: defineRateLimit(sequelize),
    ClientLog: defineClientLog(sequelize),
  };
  const m = models;
  // Foreign keys are named explicitly so associations never invent columns the migrations lack.
  m.User.hasMany(m.Session, { foreignKey: 'userId', as: 'sessions' });
  m.Session.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  m.User.hasMany(m.PasswordReset, { foreignKey: 'userId', as: 'passwordResets' });
  m.PasswordReset.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  m.Store.hasMany(m.StorePrice, { foreignKey: 'storeId', as: 'prices' });
  m.StorePrice.belongsTo(m.Store, { foreignKey: 'storeId', as: 'store' });
  m.Product.hasMany(m.StorePrice, { foreignKey: 'productId', as: 'prices' });
  m.StorePrice.belongsTo(m.Product, { foreignKey: 'productId', as: 'product' });
  m.Store.hasMany(m.Order, { foreignKey: 'storeId', as: 'orders' });
  m.Order.belongsTo(m.Store, { foreignKey: 'storeId', as: 'store' });
  m.Order.hasMany(m.OrderLine, { foreignKey: 'orderId', as: 'lines' });
  m.OrderLine.belongsTo(m.Order, { foreignKey: 'orderId', as: 'order' });
  m.OrderLine.belongsTo(m.Product, { foreignKey: 'productId', as: 'product' });
  m.Order.hasMany(m.OrderRefund, { foreignKey: 'orderId', as: 'refunds' });
  m.User.hasMany(m.Submission, { foreignKey: 'userId', as: 'submissions' });
  m.Submission.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  m.Submission.hasMany(m.SubmissionFile, { foreignKey: 'submissionId', as: 'files' });
  m.SubmissionFile.belongsTo(m.Submission, { foreignKey: 'submissionId', as: 'submission' });
  m.SubmissionFile.hasMany(m.FilePart, { foreignKey: 'fileId', as: 'parts' });
  m.FilePart.belongsTo(m.SubmissionFile, { foreignKey: 'fileId', as: 'file' });
  m.SubmissionFile.hasOne(m.FileImport, { foreignKey: 'fileId', as: 'import' });
  m.FileImport.belongsTo(m.SubmissionFile, { foreignKey: 'fileId', as: 'file' });
  m.AuditLog.belongsTo(m.User, { foreignKey: 'actorUserId', as: 'actor' });
  m.ClientLog.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  return models;
}

export type Models = ReturnType<typeof defineModels>;
