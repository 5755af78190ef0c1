import { DataTypes } from 'sequelize';
import type { Transaction } from 'sequelize';
import type { MigrationContext } from './types.js';

/**
 * Passkeys and a second factor (issue #33).
 *
 * passkeys: one row per WebAuthn credential (credential_id and public_key base64url, the signature counter,
 * the transports the browser reported as JSON, the name its owner gave it, when it was last used).
 * totp_secrets: at most one per user; the secret is sealed at rest (AES-256-GCM under a key derived from
 * SESSION_SECRET), confirmed_at is null until a first code proved the authenticator app has it, last_step
 * is the 30-second step of the last code accepted (a code is never accepted twice).
 * recovery_codes: ten per set, sha-256 of the code only, used_at once spent.
 * pending_sign_ins: a password was right for an account that needs a second factor: the short-lived token
 * (its sha-256 as id) that the factor step presents; no session exists until that step succeeds.
 * webauthn_challenges: each registration or authentication ceremony's challenge, spent once, so any API
 * process can verify the answer to a challenge another one made.
 * app_settings: settings an owner changes from the staff screens, one row per key.
 * sessions.proven_at: when the session's holder last proved who they are (password, passkey, second
 * factor), for the fresh sign-in rule; null reads as the session's creation. sessions.factor_setup_required:
 * the owner requires staff to have a passkey or a second factor and this staff member had none at sign-in:
 * the session may only set one up until then.
 */
export async function up({ context: { queryInterface: qi } }: { context: MigrationContext }): Promise<void> {
  const user = (allowNull = false) => ({
    type: DataTypes.INTEGER,
    allowNull,
    references: { model: 'users', key: 'id' },
    onDelete: 'CASCADE',
    onUpdate: 'CASCADE',
  });
  const date = (allowNull = false) => ({ type: DataTypes.DATE, allowNull });
  await qi.sequelize.transaction(async (transaction: Transaction) => {
    await qi.createTable(
      'passkeys',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        user_id: user(),
        credential_id: { type: DataTypes.STRING(512), allowNull: false, unique: true },
        public_key: { type: DataTypes.TEXT, allowNull: false },
        counter: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        transports: { type: DataTypes.STRING(255), allowNull: true },
        name: { type: DataTypes.STRING(100), allowNull: false },
        created_at: date(),
        last_used_at: date(true),
      },
      { transaction },
    );
    await qi.addIndex('passkeys', ['user_id'], { name: 'passkeys_user_id', transaction });

    await qi.createTable(
      'totp_secrets',
      {
        user_id: { ...user(), primaryKey: true },
        secret_sealed: { type: DataTypes.STRING(255), allowNull: false },
        confirmed_at: date(true),
        last_step: { type: DataTypes.BIGINT, allowNull: true },
        created_at: date(),
      },
      { transaction },
    );

    await qi.createTable(
      'recovery_codes',
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true, allowNull: false },
        user_id: user(),
        code_hash: { type: DataTypes.STRING(64), allowNull: false },
        used_at: date(true),
        created_at: date(),
      },
      { transaction },
    );
    await qi.addIndex('recovery_codes', ['user_id', 'code_hash'], {
      name: 'recovery_codes_user_id_code_hash_unique',
      unique: true,
      transaction,
    });

    await qi.createTable(
      'pending_sign_ins',
      {
        id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
        user_id: user(),
        via: { type: DataTypes.STRING(8), allowNull: false },
        expires_at: date(),
        created_at: date(),
      },
      { transaction },
    );
    await qi.addIndex('pending_sign_ins', ['expires_at'], {
      name: 'pending_sign_ins_expires_at',
      transaction,
    });

    await qi.createTable(
      'webauthn_challenges',
      {
        id: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
        user_id: user(true),
        purpose: { type: DataTypes.STRING(16), allowNull: false },
        challenge: { type: DataTypes.STRING(128), allowNull: false },
        expires_at: date(),
      },
      { transaction },
    );
    await qi.addIndex('webauthn_challenges', ['expires_at'], {
      name: 'webauthn_challenges_expires_at',
      transaction,
    });

    await qi.createTable(
      'app_settings',
      {
        key: { type: DataTypes.STRING(64), primaryKey: true, allowNull: false },
        value: { type: DataTypes.STRING(255), allowNull: false },
        updated_at: date(),
        updated_by: { ...user(true), onDelete: 'SET NULL' },
      },
      { transaction },
    );
    await qi.bulkInsert(
      'app_settings',
      [{ key: 'staff_second_factor_required', value: 'false', updated_at: new Date(), updated_by: null }],
      { transaction },
    );

    await qi.addColumn('sessions', 'proven_at', date(true), { transaction });
    await qi.addColumn(
      'sessions',
      'factor_setup_required',
      { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
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
    await qi.removeColumn('sessions', 'factor_setup_required', { transaction });
    await qi.removeColumn('sessions', 'proven_at', { transaction });
    for (const table of [
      'app_settings',
      'webauthn_challenges',
      'pending_sign_ins',
      'recovery_codes',
      'totp_secrets',
      'passkeys',
    ]) {
      await qi.dropTable(table, { transaction });
    }
  });
}
