import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

export const USER_ROLES = ['client', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface UserAttributes {
  id: number;
  /** Always stored trimmed and lowercased, so the unique index is case-insensitive on both engines. */
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  company: string | null;
  phone: string | null;
  role: UserRole;
  createdAt: Date;
  updatedAt: Date;
  lastLoginAt: Date | null;
}
export type UserCreation = Optional<
  UserAttributes,
  'id' | 'company' | 'phone' | 'role' | 'createdAt' | 'updatedAt' | 'lastLoginAt'
>;
export interface UserInstance extends Model<UserAttributes, UserCreation>, UserAttributes {}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function defineUser(sequelize: Sequelize): ModelStatic<UserInstance> {
  return sequelize.define<UserInstance>(
    'User',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      email: {
        type: DataTypes.STRING(254),
        allowNull: false,
        unique: true,
        set(value: string) {
          this.setDataValue('email', normaliseEmail(value));
        },
      },
      passwordHash: { type: DataTypes.STRING(255), allowNull: false },
      firstName: { type: DataTypes.STRING(100), allowNull: false },
      lastName: { type: DataTypes.STRING(100), allowNull: false },
      company: { type: DataTypes.STRING(200), allowNull: true },
      phone: { type: DataTypes.STRING(40), allowNull: true },
      role: {
        type: DataTypes.STRING(16),
        allowNull: false,
        defaultValue: 'client',
        validate: { isIn: [USER_ROLES] },
      },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
      lastLoginAt: { type: DataTypes.DATE, allowNull: true },
    },
    { tableName: 'users', underscored: true },
  );
}

export interface SessionAttributes {
  /** sha-256 (hex) of the cookie's token: a leaked table cannot be replayed as cookies. */
  id: string;
  userId: number;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
  /** When the holder last proved who they are (#33 fresh sign-in); null: at createdAt. */
  provenAt: Date | null;
  /** The owner's second-factor rule applied at sign-in and this staff member had no factor yet (#33). */
  factorSetupRequired: boolean;
}
export type SessionCreation = Optional<
  SessionAttributes,
  'createdAt' | 'lastSeenAt' | 'ip' | 'userAgent' | 'provenAt' | 'factorSetupRequired'
>;
export interface SessionInstance extends Model<SessionAttributes, SessionCreation>, SessionAttributes {}

export function defineSession(sequelize: Sequelize): ModelStatic<SessionInstance> {
  return sequelize.define<SessionInstance>(
    'Session',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      lastSeenAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(512), allowNull: true },
      provenAt: { type: DataTypes.DATE, allowNull: true },
      factorSetupRequired: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    },
    { tableName: 'sessions', underscored: true, updatedAt: false },
  );
}

export interface PasswordResetAttributes {
  id: number;
  userId: number;
  /** sha-256 (hex) of the token mailed to the user. */
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}
export type PasswordResetCreation = Optional<PasswordResetAttributes, 'id' | 'usedAt' | 'createdAt'>;
export interface PasswordResetInstance
  extends Model<PasswordResetAttributes, PasswordResetCreation>, PasswordResetAttributes {}

export function definePasswordReset(sequelize: Sequelize): ModelStatic<PasswordResetInstance> {
  return sequelize.define<PasswordResetInstance>(
    'PasswordReset',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'password_resets', underscored: true, updatedAt: false },
  );
}
