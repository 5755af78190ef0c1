import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';
import type { OrderStatus as OrderStatusAnswered } from '@avp/shared';

/** A calendar date as 'YYYY-MM-DD' (DATEONLY): deadlines are days, read in TZ_STORE. */
export type DateOnly = string;

export interface StoreAttributes {
  id: number;
  /**
   * The store's name in URLs, which SPEC §3 calls `storeId` (/exhibitor_order/{storeId}) and the API's
   * answers keep calling so. Named `slug` here because every other `storeId` in the models is the numeric
   * key of a store's row (prices, orders, the audit log); the column stays `store_id`.
   */
  slug: string;
  name: string;
  isActive: boolean;
  isArchived: boolean;
  image: string | null;
  /** Last day of early-bird pricing. */
  deadline: DateOnly;
  /** Last day orders are taken; null means the deadline (DESIGN deviation 6). */
  orderCutoff: DateOnly | null;
  startDate: DateOnly;
  endDate: DateOnly;
  emailText: string | null;
  storeText: string | null;
  bcc: string | null;
  stripePublishableKey: string | null;
  /** Encrypted at rest; never sent to a browser (DESIGN deviation 3). */
  stripeSecretKeyEnc: string | null;
  /** Raised with every change to what the store's page shows (modules/store/cache.ts). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}
export type StoreCreation = Optional<
  StoreAttributes,
  | 'id'
  | 'isActive'
  | 'isArchived'
  | 'image'
  | 'orderCutoff'
  | 'emailText'
  | 'storeText'
  | 'bcc'
  | 'stripePublishableKey'
  | 'stripeSecretKeyEnc'
  | 'version'
  | 'createdAt'
  | 'updatedAt'
>;
export interface StoreInstance extends Model<StoreAttributes, StoreCreation>, StoreAttributes {}

export function defineStore(sequelize: Sequelize): ModelStatic<StoreInstance> {
  return sequelize.define<StoreInstance>(
    'Store',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      slug: { type: DataTypes.STRING(64), allowNull: false, unique: true, field: 'store_id' },
      name: { type: DataTypes.STRING(255), allowNull: false },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      isArchived: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      image: { type: DataTypes.STRING(255), allowNull: true },
      deadline: { type: DataTypes.DATEONLY, allowNull: false },
      orderCutoff: { type: DataTypes.DATEONLY, allowNull: true },
      startDate: { type: DataTypes.DATEONLY, allowNull: false },
      endDate: { type: DataTypes.DATEONLY, allowNull: false },
      emailText: { type: DataTypes.TEXT, allowNull: true },
      storeText: { type: DataTypes.TEXT, allowNull: true },
      bcc: { type: DataTypes.TEXT, allowNull: true },
      stripePublishableKey: { type: DataTypes.STRING(255), allowNull: true },
      stripeSecretKeyEnc: { type: DataTypes.TEXT, allowNull: true },
      version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'stores', underscored: true },
  );
}

export interface ProductAttributes {
  id: number;
  name: string;
  description: string;
  images: string[];
  /** The spec's metadata.order: position in the store's product list. */
  sortOrder: number;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export type ProductCreation = Optional<
  ProductAttributes,
  'id' | 'description' | 'images' | 'sortOrder' | 'isActive' | 'createdAt' | 'updatedAt'
>;
export interface ProductInstance extends Model<ProductAttributes, ProductCreation>, ProductAttributes {}

export function defineProduct(sequelize: Sequelize): ModelStatic<ProductInstance> {
  return sequelize.define<ProductInstance>(
    'Product',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      name: { type: DataTypes.STRING(255), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      images: { type: DataTypes.JSON, allowNull: false, defaultValue: [] },
      sortOrder: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      isActive: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'products', underscored: true },
  );
}

export interface StorePriceAttributes {
  id: number;
  /** stores.id (the numeric key, not the slug). */
  storeId: number;
  productId: number;
  /** Integer cents. */
  unitAmount: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}
export type StorePriceCreation = Optional<
  StorePriceAttributes,
  'id' | 'currency' | 'createdAt' | 'updatedAt'
>;
export interface StorePriceInstance
  extends Model<StorePriceAttributes, StorePriceCreation>, StorePriceAttributes {}

export function defineStorePrice(sequelize: Sequelize): ModelStatic<StorePriceInstance> {
  return sequelize.define<StorePriceInstance>(
    'StorePrice',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      storeId: { type: DataTypes.INTEGER, allowNull: false, unique: 'store_prices_store_product' },
      productId: { type: DataTypes.INTEGER, allowNull: false, unique: 'store_prices_store_product' },
      unitAmount: { type: DataTypes.INTEGER, allowNull: false, validate: { min: 0 } },
      currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'usd' },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'store_prices', underscored: true },
  );
}

export const ORDER_STATUSES = [
  'pending',
  'paid',
  'failed',
  'refunded',
  'partially_refunded',
  'canceled',
  'needs_review',
] as const satisfies readonly OrderStatusAnswered[]; // the statuses the staff answers name
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface OrderAttributes {
  id: string;
  storeId: number;
  status: OrderStatus;
  confirmation: string | null;
  /** sha-256 of the token that lets the buyer's browser read its own receipt. */
  accessTokenHash: string | null;
  gateway: string;
  gatewayIntentId: string | null;
  /** SPEC §3 'Order customer info', as submitted and validated. */
  customer: Record<string, unknown>;
  email: string;
  subtotal: number;
  discount: number;
  fee: number;
  total: number;
  refundedAmount: number;
  currency: string;
  earlyBird: boolean;
  paidAt: Date | null;
  /** The card's brand and last four digits ('visa', '4242'), never its number. */
  cardBrand: string | null;
  cardLast4: string | null;
  /** What the provider captured, once it reports a capture (cents, and its currency). */
  amountReceived: number | null;
  receivedCurrency: string | null;
  /** Why a `needs_review` order is held for staff. */
  reviewReason: string | null;
  /** Bumped by every cart change: a change applies only to the revision it read. */
  revision: number;
  createdAt: Date;
  updatedAt: Date;
}
export type OrderCreation = Optional<
  OrderAttributes,
  | 'id'
  | 'status'
  | 'confirmation'
  | 'accessTokenHash'
  | 'gatewayIntentId'
  | 'refundedAmount'
  | 'currency'
  | 'paidAt'
  | 'cardBrand'
  | 'cardLast4'
  | 'amountReceived'
  | 'receivedCurrency'
  | 'reviewReason'
  | 'revision'
  | 'createdAt'
  | 'updatedAt'
>;
export interface OrderInstance extends Model<OrderAttributes, OrderCreation>, OrderAttributes {}

export function defineOrder(sequelize: Sequelize): ModelStatic<OrderInstance> {
  // A fresh object per column: Sequelize writes each column's name into its definition object, so one
  // object shared by four columns made all four the same column (only `subtotal` was ever written).
  const cents = () => ({ type: DataTypes.INTEGER, allowNull: false, validate: { min: 0 } });
  return sequelize.define<OrderInstance>(
    'Order',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      storeId: { type: DataTypes.INTEGER, allowNull: false },
      status: {
        type: DataTypes.STRING(24),
        allowNull: false,
        defaultValue: 'pending',
        validate: { isIn: [ORDER_STATUSES] },
      },
      confirmation: { type: DataTypes.STRING(32), allowNull: true, unique: true },
      accessTokenHash: { type: DataTypes.STRING(64), allowNull: true },
      gateway: { type: DataTypes.STRING(32), allowNull: false },
      gatewayIntentId: { type: DataTypes.STRING(255), allowNull: true, unique: true },
      customer: { type: DataTypes.JSON, allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      subtotal: cents(),
      discount: cents(),
      fee: cents(),
      total: cents(),
      refundedAmount: { ...cents(), defaultValue: 0 },
      currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'usd' },
      earlyBird: { type: DataTypes.BOOLEAN, allowNull: false },
      paidAt: { type: DataTypes.DATE, allowNull: true },
      cardBrand: { type: DataTypes.STRING(32), allowNull: true },
      cardLast4: { type: DataTypes.STRING(4), allowNull: true },
      amountReceived: { type: DataTypes.INTEGER, allowNull: true },
      receivedCurrency: { type: DataTypes.STRING(3), allowNull: true },
      reviewReason: { type: DataTypes.STRING(255), allowNull: true },
      revision: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'orders', underscored: true },
  );
}

export interface OrderLineAttributes {
  id: number;
  orderId: string;
  productId: number;
  /** The product's name when ordered: receipts must not change when the catalogue does. */
  name: string;
  unitAmount: number;
  quantity: number;
  lineTotal: number;
}
export type OrderLineCreation = Optional<OrderLineAttributes, 'id'>;
export interface OrderLineInstance
  extends Model<OrderLineAttributes, OrderLineCreation>, OrderLineAttributes {}

export function defineOrderLine(sequelize: Sequelize): ModelStatic<OrderLineInstance> {
  return sequelize.define<OrderLineInstance>(
    'OrderLine',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      orderId: { type: DataTypes.UUID, allowNull: false },
      productId: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(255), allowNull: false },
      unitAmount: { type: DataTypes.INTEGER, allowNull: false },
      quantity: { type: DataTypes.INTEGER, allowNull: false, validate: { min: 1 } },
      lineTotal: { type: DataTypes.INTEGER, allowNull: false },
    },
    { tableName: 'order_lines', underscored: true, timestamps: false },
  );
}

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** A refund staff asked for (migration 0003-staff-refunds); (orderId, requestKey) is unique. */
export interface OrderRefundAttributes {
  id: number;
  orderId: string;
  /** Drawn by the staff screen per refund dialog: the same key twice is the same refund. */
  requestKey: string;
  amount: number;
  currency: string;
  reason: string;
  status: RefundStatus;
  gateway: string;
  gatewayRefundId: string | null;
  failure: string | null;
  actorUserId: number | null;
  createdAt: Date;
  updatedAt: Date;
}
export type OrderRefundCreation = Optional<
  OrderRefundAttributes,
  'id' | 'currency' | 'status' | 'gatewayRefundId' | 'failure' | 'actorUserId' | 'createdAt' | 'updatedAt'
>;
export interface OrderRefundInstance
  extends Model<OrderRefundAttributes, OrderRefundCreation>, OrderRefundAttributes {}

export function defineOrderRefund(sequelize: Sequelize): ModelStatic<OrderRefundInstance> {
  return sequelize.define<OrderRefundInstance>(
    'OrderRefund',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      orderId: { type: DataTypes.UUID, allowNull: false, unique: 'order_refunds_order_request' },
      requestKey: { type: DataTypes.STRING(64), allowNull: false, unique: 'order_refunds_order_request' },
      amount: { type: DataTypes.INTEGER, allowNull: false, validate: { min: 1 } },
      currency: { type: DataTypes.STRING(3), allowNull: false, defaultValue: 'usd' },
      reason: { type: DataTypes.STRING(500), allowNull: false },
      status: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'pending',
        validate: { isIn: [REFUND_STATUSES] },
      },
      gateway: { type: DataTypes.STRING(32), allowNull: false },
      gatewayRefundId: { type: DataTypes.STRING(255), allowNull: true },
      failure: { type: DataTypes.STRING(500), allowNull: true },
      actorUserId: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'order_refunds', underscored: true },
  );
}
