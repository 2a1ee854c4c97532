import type { Db, Sql } from '../sql.js';
import { audit } from './audit.js';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword, type ScryptParams } from './password.js';
import { BackofficeRole, UserName } from './roles.js';

export class UserError extends Error {}

export interface BackofficeUser {
  name: string;
  role: BackofficeRole;
}

/** Makes a user (or, with `replace`, sets an existing one's role and password); audited as done by `by`. */
export async function putUser(
  db: Db,
  u: { name: string; role: string; password: string; replace?: boolean; enable?: boolean; by: string },
  params?: ScryptParams,
): Promise<BackofficeUser & { disabled: boolean }> {
  const name = UserName.safeParse(u.name);
  if (!name.success) throw new UserError('a user name is 2 to 32 of a-z 0-9 . _ - (starting with a letter or digit)');
  const role = BackofficeRole.safeParse(u.role);
  if (!role.success) throw new UserError(`the role must be one of ${BackofficeRole.options.join(', ')}`);
  if ([...u.password].length < MIN_PASSWORD_LENGTH) throw new UserError(`a password has at least ${MIN_PASSWORD_LENGTH} characters`);
  const hash = await hashPassword(u.password, params);
  return db.transaction(async (tx) => {
    // Held until the transaction ends: its disabled state is read once, and kept unless `enable`.
    const row = (
      await tx.query<{ disabled: boolean }>('SELECT disabled_at IS NOT NULL AS disabled FROM backoffice_users WHERE name = $1 FOR UPDATE', [name.data])
    ).rows[0];
    if (row && !u.replace) throw new UserError(`user ${name.data} exists (--replace sets a new password and role)`);
    if (!row) {
      await tx.query('INSERT INTO backoffice_users (name, role, password_hash) VALUES ($1, $2, $3)', [name.data, role.data, hash]);
      await audit(tx, { actor: u.by, address: null, action: 'user.add', detail: { name: name.data, role: role.data } });
      return { name: name.data, role: role.data, disabled: false };
    }
    // A disabled user stays so through a new password (someone who left, their password reset by
    // an administrator, must not get the back office back by it): enabled again only when asked.
    const wasDisabled = row.disabled;
    const enable = wasDisabled && u.enable === true;
    await tx.query('UPDATE backoffice_users SET role = $2, password_hash = $3, disabled_at = CASE WHEN $4 THEN NULL ELSE disabled_at END WHERE name = $1', [
      name.data,
      role.data,
      hash,
      enable,
    ]);
    // A new password ends every session the old one opened.
    await tx.query('UPDATE backoffice_sessions SET ended_at = now() WHERE user_name = $1 AND ended_at IS NULL', [name.data]);
    const state = !wasDisabled ? {} : enable ? { enabled: true } : { disabled: true };
    await audit(tx, { actor: u.by, address: null, action: 'user.replace', detail: { name: name.data, role: role.data, ...state } });
    return { name: name.data, role: role.data, disabled: wasDisabled && !enable };
  });
}

/** Disables a user and ends their sessions; audited. */
export async function disableUser(db: Db, name: string, by: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const r = await tx.query('UPDATE backoffice_users SET disabled_at = now() WHERE name = $1 AND disabled_at IS NULL', [name]);
    if (r.rowCount === 0) return false;
    await tx.query('UPDATE backoffice_sessions SET ended_at = now() WHERE user_name = $1 AND ended_at IS NULL', [name]);
    await audit(tx, { actor: by, address: null, action: 'user.disable', detail: { name } });
    return true;
  });
}

export async function listUsers(sql: Sql): Promise<{ name: string; role: string; disabled: boolean }[]> {
  const r = await sql.query<{ name: string; role: string; disabled: boolean }>(
    'SELECT name, role, disabled_at IS NOT NULL AS disabled FROM backoffice_users ORDER BY name',
  );
  return r.rows;
}

let decoy: Promise<string> | undefined;

/**
 * The user whose password this is, or null. An unknown or disabled name costs the same scrypt
 * as a wrong password (a decoy hash), so the answer's time does not say which names exist.
 */
export async function checkPassword(sql: Sql, name: string, password: string): Promise<CheckedUser | null> {
  const r = await sql.query<{ name: string; role: string; password_hash: string }>(
    'SELECT name, role, password_hash FROM backoffice_users WHERE name = $1 AND disabled_at IS NULL',
    [name],
  );
  const row = r.rows[0];
  if (!row) {
    decoy ??= hashPassword('not a password of anyone');
    await verifyPassword(password, await decoy);
    return null;
  }
  if (!(await verifyPassword(password, row.password_hash))) return null;
  const role = BackofficeRole.safeParse(row.role);
  return role.success ? { name: row.name, role: role.data, checked: row.password_hash } : null;
}

/** A user whose password was checked, and the stored hash it was checked against (a session opens only while it is still the one). */
export interface CheckedUser extends BackofficeUser {
  readonly checked: string;
}
