// Test-only: an upstream with its back office on in-memory PGlite (or, asked, on a PostgreSQL
// cluster of its own: tests/sync/upstream-databases.ts), users with light scrypt
// parameters (the production ones are checked by upstream/backoffice/password.test.ts), and a
// browser's sign-in as `inject` calls.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { signRequest } from '../../ledger/index.js';
import { buildServer, enrolTerminal, putUser, type Db } from '../../upstream/index.js';
import { openDatabase, type Database } from '../sync/upstream-databases.js';

type FastifyInstance = Awaited<ReturnType<typeof buildServer>>;

export const FAST = { N: 2 ** 10, r: 8, p: 1 };
export const PASSWORD = 'correct horse battery';
export const ROLES = ['viewer', 'supervisor', 'accounting', 'administrator'] as const;

export interface BackofficeKit {
  app: FastifyInstance;
  db: Db;
  clock: { now: number };
  close(): Promise<void>;
}

/** One user per role, named after it (`viewer`, `supervisor`…), all with PASSWORD. */
/**
 * `clock` moves the sessions and, unless `throttleOnItsOwnClock`, the sign-in throttle with them;
 * with it, the throttle reads a clock of its own that stands still, as a monotonic clock does while
 * the wall clock is stepped (production's throttle reads `performance.now`).
 */
export async function backofficeKit(
  options: { signInPerMinute?: number; database?: Database; throttleOnItsOwnClock?: boolean; hosts?: string[] } = {},
): Promise<BackofficeKit> {
  const opened = await openDatabase(options.database ?? 'pglite');
  const db = opened.db;
  const clock = { now: Date.UTC(2026, 10, 26, 8, 0, 0) };
  let app: FastifyInstance;
  try {
    for (const role of ROLES) await putUser(db, { name: role, role, password: PASSWORD, by: 'test' }, FAST);
    const still = clock.now;
    const throttle = { throttleNow: options.throttleOnItsOwnClock ? () => still : () => clock.now };
    app = await buildServer({
      db,
      backoffice: { now: () => clock.now, ...throttle, signInPerMinute: options.signInPerMinute ?? 10_000, ...(options.hosts ? { hosts: options.hosts } : {}) },
    });
  } catch (e) {
    await opened.close();
    throw e;
  }
  return {
    app,
    db,
    clock,
    async close() {
      await app.close();
      await opened.close();
    },
  };
}

export interface SignedIn {
  cookie: string;
  csrf: string;
}

/** The kit of a `describe`, with one user signed in: made before its tests (read it inside them), closed after them. */
export function kitOfSuite(role: (typeof ROLES)[number]): { kit: BackofficeKit; who: SignedIn } {
  const held = {} as { kit: BackofficeKit; who: SignedIn };
  before(async () => {
    held.kit = await backofficeKit();
    held.who = await signIn(held.kit.app, role);
  });
  after(() => held.kit.close());
  return held;
}

export async function signIn(app: FastifyInstance, name: string, password = PASSWORD, remoteAddress = '10.1.1.1'): Promise<SignedIn> {
  const r = await app.inject({ method: 'POST', url: '/backoffice/api/sign-in', payload: { name, password }, remoteAddress });
  assert.equal(r.statusCode, 200, r.body);
  const set = String(r.headers['set-cookie']);
  assert.match(set, /HttpOnly/);
  assert.match(set, /SameSite=Strict/);
  const cookie = set.split(';')[0] ?? '';
  const body = z(r.json());
  return { cookie, csrf: body.csrf };
}

function z(v: unknown): { csrf: string } {
  assert.ok(typeof v === 'object' && v !== null && 'csrf' in v && typeof v.csrf === 'string');
  return { csrf: v.csrf };
}

/** A signed-in POST as the page sends it: the cookie, the CSRF token, its own origin. */
export function post(app: FastifyInstance, who: SignedIn, url: string, payload: unknown = {}) {
  return app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, origin: 'http://127.0.0.1:8787', host: '127.0.0.1:8787' },
  });
}

/**
 * A table enrolled at the kit's upstream whose heartbeats are whatever the test sends, signed with
 * its real credentials: how a hostile (or honest) table reaches `/v1/heartbeat`.
 */
export async function enrolledTable(kit: BackofficeKit, terminal: string) {
  const key = Buffer.from((await enrolTerminal(kit.db, terminal, false)).key, 'base64');
  let ts = Date.now();
  return {
    heartbeat(health: unknown) {
      const body = JSON.stringify({ terminalId: terminal, at: new Date().toISOString(), health });
      ts += 1;
      return kit.app.inject({
        method: 'POST',
        url: '/v1/heartbeat',
        payload: body,
        headers: {
          'content-type': 'application/json',
          'x-etg-terminal': terminal,
          'x-etg-timestamp': String(ts),
          'x-etg-signature': signRequest(key, 'POST', '/v1/heartbeat', terminal, ts, body),
        },
      });
    },
  };
}
