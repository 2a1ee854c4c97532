import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../sql.js';
import { acknowledge, ALARM_ACKS_MAX, workedAlarms } from './alarm-acks.js';
import { audit, AuditQuery, auditTrail } from './audit.js';
import { authorise, refusedHead, sameOrigin, setSessionCookie } from './guard.js';
import { permissionsOf, type Permission } from './roles.js';
import { endSession, openSession, type Session } from './sessions.js';
import { readSettings, Settings, writeSettings } from './settings.js';
import { clientOf, SignInThrottle } from './throttle.js';
import { checkPassword } from './users.js';

export interface BackofficeOptions {
  db: Db;
  /** The clock of sessions: the wall clock, as their times are stored (tests move it). */
  now?: () => number;
  /**
   * The sign-in throttle's clock: a lock is a span of time, so by default a monotonic one that a
   * wall clock stepped forward cannot open nor one stepped back prolong (tests move it).
   */
  throttleNow?: () => number;
  /** Sign-in attempts per client address and minute, before any password is checked. */
  signInPerMinute?: number;
  /** Told of every session a sign-out ended here (the live floor closes its streams at once). */
  sessionEnded?: (id: string) => void;
}

const SignIn = z.strictObject({ name: z.string().max(64), password: z.string().max(1024) });
const Ack = z.strictObject({ note: z.string().trim().min(1).max(1000) });
const AlarmParams = z.strictObject({ id: z.coerce.number().int().positive() });

/**
 * The back office's API under /backoffice/api (docs/backoffice.md): its own sign-in with a
 * cookie session, CSRF on every state-changing request, roles per route, and every sign-in and
 * action in the audit log. `more` adds the routes of the floor and the reports inside the same
 * scope, so every one of them goes through `signedIn`.
 */
export async function registerBackofficeApi(
  app: FastifyInstance,
  options: BackofficeOptions,
  more: (scope: FastifyInstance, signedIn: (req: FastifyRequest, reply: FastifyReply, need: Permission) => Promise<Session | null>) => void = () => {},
): Promise<void> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const throttle = new SignInThrottle(options.throttleNow);
  const signedIn = (req: FastifyRequest, reply: FastifyReply, need: Permission) => authorise(db, req, reply, need, now());

  await app.register(
    async (plain) => {
      const scope = plain.withTypeProvider<ZodTypeProvider>();
      // No text a person sends may hold a NUL: PostgreSQL takes none in text or jsonb, and one that
      // reached it answered 500 with the database's words (a review of 4 December).
      scope.addHook('preValidation', async (req, reply) => {
        if (holdsNul(req.body) || holdsNul(req.query) || holdsNul(req.params))
          return reply.code(400).send({ error: 'bad-request', message: 'a text holds a NUL character, which no field takes' });
      });
      neverAPage(scope);
      scope.register((signIn) => signInRoute(signIn, db, throttle, now, options.signInPerMinute ?? 30));

      scope.register(async (inner) => {
        await inner.register(rateLimit, { max: 1200, timeWindow: 60_000, keyGenerator: (req) => clientOf(req.ip) });
        inner.addHook('onRequest', async (req, reply) => {
          if (refusedHead(req, reply)) return reply;
        });
        const api = inner.withTypeProvider<ZodTypeProvider>();
        api.get('/session', { schema: { hide: true } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'floor');
          if (!s) return reply;
          return { name: s.name, role: s.role, permissions: permissionsOf(s.role), csrf: s.csrf, expiresAt: s.expiresAt.toISOString() };
        });
        api.post('/sign-out', { schema: { hide: true } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'floor');
          if (!s) return reply;
          await endSession(db, s.id, now());
          options.sessionEnded?.(s.id);
          await audit(db, { actor: s.name, address: req.ip, action: 'sign-out' });
          setSessionCookie(req, reply, '', 0);
          return reply.code(204).send();
        });
        api.get('/settings', { schema: { hide: true } }, async (req, reply) => {
          if (!(await signedIn(req, reply, 'floor'))) return reply;
          return readSettings(db);
        });
        api.post('/settings', { schema: { hide: true, body: Settings.partial() } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'configure');
          if (!s) return reply;
          return writeSettings(db, req.body, s.name, req.ip, new Date(now()));
        });
        api.get(
          '/alarms',
          { schema: { hide: true, querystring: z.strictObject({ terminal: z.string().max(64).optional(), open: z.enum(['1']).optional() }) } },
          async (req, reply) => {
            if (!(await signedIn(req, reply, 'floor'))) return reply;
            return workedAlarms(db, { ...(req.query.terminal ? { terminal: req.query.terminal } : {}), open: req.query.open === '1' });
          },
        );
        api.post('/alarms/:id/acknowledge', { schema: { hide: true, params: AlarmParams, body: Ack } }, async (req, reply) => {
          const s = await signedIn(req, reply, 'acknowledge');
          if (!s) return reply;
          const done = await acknowledge(db, req.params.id, s.name, req.ip, req.body.note);
          if (done === 'no-alarm') return reply.code(404).send({ error: 'no-alarm', message: 'no such alarm' });
          if (done === 'full')
            return reply.code(409).send({ error: 'acks-full', message: `the alarm holds ${ALARM_ACKS_MAX} acknowledgements, the most it takes` });
          return { ok: true };
        });
        // A page of the log and the cursor of the next, older one; a query the schema refuses is a 400 that reads nothing.
        api.get('/audit', { schema: { hide: true, querystring: AuditQuery } }, async (req, reply) => {
          if (!(await signedIn(req, reply, 'configure'))) return reply;
          return auditTrail(db, req.query);
        });
        more(inner, signedIn);
      });
    },
    { prefix: '/backoffice/api' },
  );
}

/**
 * Nothing the back office answers is for a cache or another site's frame, nor ever a page: an
 * answer carries what tables and people wrote (alarm details, a round's entries), and a browser
 * sent to its address must neither sniff it as HTML nor run anything in it. An address under the
 * API that names no route is answered in the scope, with the same headers.
 */
function neverAPage(scope: FastifyInstance): void {
  scope.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  });
  // A route, not a not-found handler: with the page built, the page's files answer every address
  // under /backoffice/ (its wildcard), this scope's included, and this one is the nearer match.
  scope.all('/*', { schema: { hide: true } }, (_req, reply) => reply.code(404).send({ error: 'no-route', message: 'no such route' }));
}

/** Sign-in, behind its own per-address limit and the throttle of wrong passwords; every attempt audited. */
async function signInRoute(signIn: FastifyInstance, db: Db, throttle: SignInThrottle, now: () => number, perMinute: number): Promise<void> {
  // Per client as the throttle counts one (clientOf): the limiter's own reading of req.ip took a port a proxy wrote (v4:port, [v6]:port) as a client of its own.
  await signIn.register(rateLimit, { max: perMinute, timeWindow: 60_000, keyGenerator: (req) => clientOf(req.ip) });
  signIn.withTypeProvider<ZodTypeProvider>().post('/sign-in', { schema: { hide: true, body: SignIn } }, async (req, reply) => {
    const { name, password } = req.body;
    const address = req.ip;
    // Login CSRF: another site's page signing the browser in under the attacker's name, so that the
    // victim's next actions are done, and read, in that account. Refused like any state change from
    // another origin (a review of 6 December found it signed in), before the throttle counts anything.
    if (!sameOrigin(req)) {
      await audit(db, { actor: name, address, action: 'sign-in.refused', detail: { reason: 'cross-site' } });
      return reply.code(403).send({ error: 'csrf', message: 'a sign-in from another origin is refused' });
    }
    const begun = throttle.begin(name, address);
    if ('waitMs' in begun) {
      const wait = begun.waitMs;
      // `by: 'account'`: held by the account's failures from every address (throttle.ts, AccountTotals), not this address's.
      await audit(db, {
        actor: name,
        address,
        action: 'sign-in.refused',
        detail: { reason: 'throttled', waitMs: wait, ...(begun.by ? { by: begun.by } : {}) },
      });
      reply.header('retry-after', String(Math.ceil(wait / 1000)));
      const why = begun.by === 'account' ? 'too many wrong passwords for this account' : 'too many wrong passwords from here';
      return reply.code(429).send({ error: 'throttled', message: `${why}: wait`, retryAfterSeconds: Math.ceil(wait / 1000) });
    }
    let user: Awaited<ReturnType<typeof checkPassword>>;
    try {
      user = await checkPassword(db, name, password);
    } catch (e) {
      begun.attempt.abandoned();
      throw e;
    }
    if (!user) {
      begun.attempt.failed();
      await audit(db, { actor: name, address, action: 'sign-in.refused', detail: { reason: 'wrong-name-or-password' } });
      return reply.code(401).send({ error: 'wrong-name-or-password', message: 'wrong name or password' });
    }
    const opened = await openSession(db, user, address, now());
    if (!opened) {
      // Its password was replaced (or the user disabled) while it was checked: as a wrong password, never a session on the old one.
      begun.attempt.abandoned();
      await audit(db, { actor: name, address, action: 'sign-in.refused', detail: { reason: 'changed-while-checked' } });
      return reply.code(401).send({ error: 'wrong-name-or-password', message: 'wrong name or password' });
    }
    begun.attempt.succeeded();
    const { token, session } = opened;
    await audit(db, { actor: user.name, address, action: 'sign-in', detail: { role: user.role } });
    setSessionCookie(req, reply, token, Math.floor((session.expiresAt.getTime() - now()) / 1000));
    return { name: user.name, role: user.role, permissions: permissionsOf(user.role), csrf: session.csrf };
  });
}

/** Whether any text (a value or a key) in a parsed request part holds a NUL: walked with a stack of its own, so no nesting overflows the call stack. */
function holdsNul(part: unknown): boolean {
  const stack: unknown[] = [part];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push(k, x);
  }
  return false;
}
