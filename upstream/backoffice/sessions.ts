import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db, Sql } from '../sql.js';
import { BackofficeRole } from './roles.js';
import type { BackofficeUser, CheckedUser } from './users.js';

/** A session ends after this long without a request… */
export const IDLE_MS = 30 * 60_000;
/** …and this long after sign-in whatever happens (a shift, with margin). */
export const ABSOLUTE_MS = 12 * 60 * 60_000;

/** The cookie's name; `__Host-` (Secure, Path=/, no Domain) when the page is served over HTTPS. */
export const COOKIE = 'etg_backoffice';
export const SECURE_COOKIE = `__Host-${COOKIE}`;

export interface Session extends BackofficeUser {
  /** The SHA-256 of the cookie's secret: the database never holds the secret itself. */
  id: string;
  csrf: string;
  expiresAt: Date;
  /** Its absolute end: the idle expiry is never moved past it. */
  endsBy: Date;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new session: the cookie's secret (sent once, in the Set-Cookie) and its CSRF token. */
export async function openSession(db: Db, user: CheckedUser, address: string, now: number): Promise<{ token: string; session: Session } | null> {
  const token = randomBytes(32).toString('base64url');
  const csrf = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now + IDLE_MS);
  const endsBy = new Date(now + ABSOLUTE_MS);
  // Only while the password is still the one checked, and the user enabled: the check takes
  // scrypt's time, and a password replaced meanwhile ended the sessions open then, not this one,
  // which lived its 12 hours on the old password (a review of 4 December). The row is held until
  // the session is in, so a replacement waits for it, and then ends it with the others.
  const opened = await db.transaction(async (tx) => {
    const still = await tx.query('SELECT 1 FROM backoffice_users WHERE name = $1 AND password_hash = $2 AND disabled_at IS NULL FOR UPDATE', [
      user.name,
      user.checked,
    ]);
    if (still.rows.length === 0) return false;
    await tx.query(
      `INSERT INTO backoffice_sessions (token_hash, user_name, csrf, address, created_at, expires_at, ends_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [digest(token), user.name, csrf, address, new Date(now), expiresAt, endsBy],
    );
    return true;
  });
  return opened ? { token, session: { name: user.name, role: user.role, id: digest(token), csrf, expiresAt, endsBy } } : null;
}

/**
 * The live session of a cookie's secret, as it stands (its idle expiry not moved: `keepAlive` does,
 * once the request is taken); null when there is none: never opened, signed out, expired, or its
 * user disabled since.
 */
export async function findSession(sql: Sql, token: string, now: number): Promise<Session | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const id = digest(token);
  const r = await sql.query<{ user_name: string; role: string; csrf: string; expires_at: Date; ends_by: Date }>(
    `SELECT s.user_name, u.role, s.csrf, s.expires_at, s.ends_by FROM backoffice_sessions s JOIN backoffice_users u ON u.name = s.user_name
     WHERE s.token_hash = $1 AND s.ended_at IS NULL AND u.disabled_at IS NULL`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return null;
  const expiresAt = new Date(row.expires_at);
  const endsBy = new Date(row.ends_by);
  if (expiresAt.getTime() <= now || endsBy.getTime() <= now) return null;
  const role = BackofficeRole.safeParse(row.role);
  if (!role.success) return null;
  return { id, name: row.user_name, role: role.data, csrf: row.csrf, expiresAt, endsBy };
}

/**
 * A request of the session taken: its idle expiry moved on to IDLE_MS from now, never past its
 * absolute end. Only a request the guard took is activity; one refused for its CSRF token or its
 * origin (another page posting at the back office) moved it too until a review of 6 December, so
 * such a page could keep a session alive for its 12 hours.
 */
export async function keepAlive(sql: Sql, session: Session, now: number): Promise<Session> {
  const expiresAt = new Date(Math.min(now + IDLE_MS, session.endsBy.getTime()));
  await sql.query('UPDATE backoffice_sessions SET expires_at = $2 WHERE token_hash = $1', [session.id, expiresAt]);
  return { ...session, expiresAt };
}

/**
 * Which of these sessions (by id, the SHA-256 of their secret) are still live at `now`: not ended,
 * not expired, their user not disabled. Unlike `findSession` it moves no expiry: asking whether a
 * session is alive is not activity (the live floor asks it at every push).
 */
export async function liveSessions(sql: Sql, ids: readonly string[], now: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const r = await sql.query<{ token_hash: string }>(
    `SELECT s.token_hash FROM backoffice_sessions s JOIN backoffice_users u ON u.name = s.user_name
     WHERE s.token_hash = ANY($1::text[]) AND s.ended_at IS NULL AND u.disabled_at IS NULL AND s.expires_at > $2 AND s.ends_by > $2`,
    [[...ids], new Date(now)],
  );
  return new Set(r.rows.map((x) => x.token_hash));
}

/** Ends a session for good: its cookie is worth nothing from now on, whoever holds a copy. */
export async function endSession(sql: Sql, id: string, now: number): Promise<void> {
  await sql.query('UPDATE backoffice_sessions SET ended_at = $2 WHERE token_hash = $1 AND ended_at IS NULL', [id, new Date(now)]);
}

export function sameToken(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Every value of one cookie in a Cookie header (RFC 6265 §5.4: `name=value` pairs split by `;`), in
 * the order sent. A browser sends one per path and domain it holds under the name, and another page
 * of the host over HTTP, or a sibling sub-domain, can add its own, sent first when its path is longer.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  const found: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) found.push(part.slice(eq + 1).trim());
  }
  return found;
}
