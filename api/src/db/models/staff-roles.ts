import { DataTypes } from 'sequelize';
import type { Model, ModelStatic, Optional, Sequelize } from 'sequelize';
import type { StaffRole } from '@avp/shared';

/**
 * The tables of migration 0011 (staff roles and invitations; users.deactivated_at is read with plain SQL
 * where needed). Defined on first use per Sequelize instance by `staffRoleModels`, so that the shared
 * model list need not change for them.
 */

export interface StaffRoleAttributes {
  userId: number;
  role: StaffRole;
  createdAt: Date;
}
export type StaffRoleCreation = Optional<StaffRoleAttributes, 'createdAt'>;
export interface StaffRoleInstance
  extends Model<StaffRoleAttributes, StaffRoleCreation>, StaffRoleAttributes {}

export interface StaffInvitationAttributes {
  id: number;
  /** Stored trimmed and lowercased, as users.email is. */
  email: string;
  /** Comma-separated StaffRole values. */
  roles: string;
  /** sha-256 (hex) of the link's token. */
  tokenHash: string;
  invitedBy: number | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
}
export type StaffInvitationCreation = Optional<
  StaffInvitationAttributes,
  'id' | 'createdAt' | 'usedAt' | 'revokedAt'
>;
export interface StaffInvitationInstance
  extends Model<StaffInvitationAttributes, StaffInvitationCreation>, StaffInvitationAttributes {}

export interface StaffRoleModels {
  StaffRole: ModelStatic<StaffRoleInstance>;
  StaffInvitation: ModelStatic<StaffInvitationInstance>;
}

const defined = new WeakMap<Sequelize, StaffRoleModels>();

function define(sequelize: Sequelize): StaffRoleModels {
  const StaffRoleModel = sequelize.define<StaffRoleInstance>(
    'StaffRole',
    {
      userId: { type: DataTypes.INTEGER, primaryKey: true },
      role: { type: DataTypes.STRING(16), primaryKey: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { tableName: 'staff_roles', underscored: true, updatedAt: false },
  );
  const StaffInvitation = sequelize.define<StaffInvitationInstance>(
    'StaffInvitation',
    {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      email: { type: DataTypes.STRING(254), allowNull: false },
      roles: { type: DataTypes.STRING(64), allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      invitedBy: { type: DataTypes.INTEGER, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
    },
    { tableName: 'staff_invitations', underscored: true, updatedAt: false },
  );
  return { StaffRole: StaffRoleModel, StaffInvitation };
}

export function staffRoleModels(sequelize: Sequelize): StaffRoleModels {
  let models = defined.get(sequelize);
  if (models === undefined) {
    models = define(sequelize);
    defined.set(sequelize, models);
  }
  return models;
}
