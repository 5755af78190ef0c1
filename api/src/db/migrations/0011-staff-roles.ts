import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import { dateParam } from '../bind.js';
import type { Dialect } from '../connection.js';
import type { MigrationContext } from './types.js';

/**
 * Staff roles, invitations and deactivation (issue #33).
 *
 * staff_roles: one row per staff member and role ('owner', 'store_manager', 'finance', 'media'); a member
 * may hold several. Every staff account that exists before this migration becomes an owner, so nobody who
 * could do everything yesterday is locked out today.
 * staff_invitations: an owner's invitation by e-mail with the roles chosen (comma-separated); only the
 * sha-256 of the link's token is kept. Valid until expires_at (72 h), spent once (used_at), or withdrawn
 * (revoked_at).
 * users.deactivated_at: a deactivated member cannot sign in; their sessions and tokens were ended then.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const date = (allowNull = false) => ({ type: DataTypes.DATE, allowNull });
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'staff_roles',
      {
        user_id: {
          type: DataTypes.INTEGER,
          allowNull: false,
          primaryKey: true,
          references: { model: 'users', key: 'id' },
          onDelete: 'CASCADE',
          onUpdate: 'CASCADE',
        },
        role: { type: DataTypes.STRING(16), allowNull: false, primaryKey: true },
        created_at: date(),
      },
      { transaction },
    );

    await qi.createTable(
      'staff_invitations',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        email: { type: DataTypes.STRING(254), allowNull: false },
        roles: { type: DataTypes.STRING(64), allowNull: false },
        token_hash: { type: DataTypes.STRING(64), allowNull: false, unique: true },
        invited_by: {
          type: DataTypes.INTEGER,
          allowNull: true,
          references: { model: 'users', key: 'id' },
          onDelete: 'SET NULL',
          onUpdate: 'CASCADE',
        },
        created_at: date(),
        expires_at: date(),
        used_at: date(true),
        revoked_at: date(true),
      },
      { transaction },
    );
    await qi.addIndex('staff_invitations', ['email'], { name: 'staff_invitations_email', transaction });

    await qi.addColumn('users', 'deactivated_at', date(true), { transaction });

    await qi.sequelize.query(
      `INSERT INTO staff_roles (user_id, role, created_at) SELECT id, 'owner', $1 FROM users WHERE role = 'staff'`,
      { bind: [dateParam(qi.sequelize.getDialect() as Dialect, new Date())], transaction },
    );
  });
}

export async function down({
  context: { queryInterface: qi },
}: {
  context: MigrationContext;
}): Promise<void> {
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    // Not qi.removeColumn: on SQLite it rebuilds the table, and dropping users would cascade to everything.
    await qi.sequelize.query('ALTER TABLE users DROP COLUMN deactivated_at', { transaction });
    await qi.dropTable('staff_invitations', { transaction });
    await qi.dropTable('staff_roles', { transaction });
  });
}
