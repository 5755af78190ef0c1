import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';

/**
 * The tables of migration 0012 (passkeys, TOTP, recovery codes, pending sign-ins, WebAuthn challenges,
 * owner settings). Defined on first use per Sequelize instance by `secondFactorModels`, so that the
 * shared model list need not change for them.
 */

export interface PasskeyAttributes {
  id: number;
  userId: number;
  /** base64url, as WebAuthn names the credential. */
  credentialId: string;
  /** base64url of the COSE public key. */
  publicKey: string;
  counter: number;
  /** JSON array of the transports the browser reported, or null. */
  transports: string | null;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}
export type PasskeyCreation = Optional<PasskeyAttributes, 'id' | 'transports' | 'lastUsedAt' | 'counter'>;
export interface PasskeyInstance extends Model<PasskeyAttributes, PasskeyCreation>, PasskeyAttributes {}

export interface TotpSecretAttributes {
  userId: number;
  secretSealed: string;
  confirmedAt: Date | null;
  /** The 30-second step of the last code accepted; a code of that step or earlier is a replay. */
  lastStep: number | null;
  createdAt: Date;
}
export type TotpSecretCreation = Optional<TotpSecretAttributes, 'confirmedAt' | 'lastStep'>;
export interface TotpSecretInstance
  extends Model<TotpSecretAttributes, TotpSecretCreation>, TotpSecretAttributes {}

export interface RecoveryCodeAttributes {
  id: number;
  userId: number;
  codeHash: string;
  usedAt: Date | null;
  createdAt: Date;
}
export type RecoveryCodeCreation = Optional<RecoveryCodeAttributes, 'id' | 'usedAt'>;
export interface RecoveryCodeInstance
  extends Model<RecoveryCodeAttributes, RecoveryCodeCreation>, RecoveryCodeAttributes {}

export interface PendingSignInAttributes {
  /** sha-256 (hex) of the pending token the client holds. */
  id: string;
  userId: number;
  via: 'cookie' | 'bearer';
  expiresAt: Date;
  createdAt: Date;
}
export interface PendingSignInInstance
  extends Model<PendingSignInAttributes, PendingSignInAttributes>, PendingSignInAttributes {}

export interface WebauthnChallengeAttributes {
  /** sha-256 (hex) of the handle the client holds for the ceremony. */
  id: string;
  userId: number | null;
  purpose: 'register' | 'authenticate' | 'reauthenticate';
  challenge: string;
  expiresAt: Date;
}
export type WebauthnChallengeCreation = Optional<WebauthnChallengeAttributes, 'userId'>;
export interface WebauthnChallengeInstance
  extends Model<WebauthnChallengeAttributes, WebauthnChallengeCreation>, WebauthnChallengeAttributes {}

export interface AppSettingAttributes {
  key: string;
  value: string;
  updatedAt: Date;
  updatedBy: number | null;
}
export type AppSettingCreation = Optional<AppSettingAttributes, 'updatedBy'>;
export interface AppSettingInstance
  extends Model<AppSettingAttributes, AppSettingCreation>, AppSettingAttributes {}

export interface SecondFactorModels {
  Passkey: ModelStatic<PasskeyInstance>;
  TotpSecret: ModelStatic<TotpSecretInstance>;
  RecoveryCode: ModelStatic<RecoveryCodeInstance>;
  PendingSignIn: ModelStatic<PendingSignInInstance>;
  WebauthnChallenge: ModelStatic<WebauthnChallengeInstance>;
  AppSetting: ModelStatic<AppSettingInstance>;
}

const defined = new WeakMap<Sequelize, SecondFactorModels>();

function define(sequelize: Sequelize): SecondFactorModels {
  const options = (tableName: string) => ({ tableName, underscored: true, timestamps: false });
  const Passkey = sequelize.define<PasskeyInstance>(
    'Passkey',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      credentialId: { type: DataTypes.STRING(512), allowNull: false, unique: true },
      publicKey: { type: DataTypes.TEXT, allowNull: false },
      counter: {
        type: DataTypes.BIGINT,
        allowNull: false,
        defaultValue: 0,
        get() {
          return Number(this.getDataValue('counter'));
        },
      },
      transports: { type: DataTypes.STRING(255), allowNull: true },
      name: { type: DataTypes.STRING(100), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
    },
    options('passkeys'),
  );
  const TotpSecret = sequelize.define<TotpSecretInstance>(
    'TotpSecret',
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      secretSealed: { type: DataTypes.STRING(255), allowNull: false },
      confirmedAt: { type: DataTypes.DATE, allowNull: true },
      lastStep: {
        type: DataTypes.BIGINT,
        allowNull: true,
        // PostgreSQL hands BIGINT back as a string; a time step stays far below 2^53.
        get() {
          const value = this.getDataValue('lastStep') as number | string | null;
          return value === null ? null : Number(value);
        },
      },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    options('totp_secrets'),
  );
  const RecoveryCode = sequelize.define<RecoveryCodeInstance>(
    'RecoveryCode',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      codeHash: { type: DataTypes.STRING(64), allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    options('recovery_codes'),
  );
  const PendingSignIn = sequelize.define<PendingSignInInstance>(
    'PendingSignIn',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      via: { type: DataTypes.STRING(8), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    options('pending_sign_ins'),
  );
  const WebauthnChallenge = sequelize.define<WebauthnChallengeInstance>(
    'WebauthnChallenge',
    {
      id: { type: DataTypes.STRING(64), primaryKey: true },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      purpose: { type: DataTypes.STRING(16), allowNull: false },
      challenge: { type: DataTypes.STRING(128), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
    },
    options('webauthn_challenges'),
  );
  const AppSetting = sequelize.define<AppSettingInstance>(
    'AppSetting',
    {
      key: { type: DataTypes.STRING(64), primaryKey: true },
      value: { type: DataTypes.STRING(255), allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
      updatedBy: { type: DataTypes.INTEGER, allowNull: true },
    },
    options('app_settings'),
  );
  return { Passkey, TotpSecret, RecoveryCode, PendingSignIn, WebauthnChallenge, AppSetting };
}

export function secondFactorModels(sequelize: Sequelize): SecondFactorModels {
  let models = defined.get(sequelize);
  if (models === undefined) {
    models = define(sequelize);
    defined.set(sequelize, models);
  }
  return models;
}
