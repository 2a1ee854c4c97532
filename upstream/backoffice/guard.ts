import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../sql.js';
import { may, type Permission } from './roles.js';
import { COOKIE, cookieValues, findSession, keepAlive, sameToken, SECURE_COOKIE, type Session } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    backoffice?: Session;
  }
}

/** The header every state-changing request carries: the session's CSRF token (synchroniser token). */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser's Origin (or, lacking it, Referer) is this service's own: its scheme, host and
 * port (RFC 6454's origin). A request without either is not a browser's cross-site one (browsers
 * send Origin with every POST), so it passes here and is left to the CSRF token. The host the
 * browser asked is Fastify's `req.host`: the Host header, or behind a proxy the service trusts
 * (`trustProxy`) the X-Forwarded-Host it sets; a proxy that sends its own Host (127.0.0.1:8787) had
 * every POST of the page refused, and a peer the service does not trust names nothing by that
 * header. The scheme is `req.protocol` (X-Forwarded-Proto, from a trusted proxy only): until a
 * review of 6 December the host alone was compared, and a page of the same host over the other
 * scheme (`https://host` for the plain `http://host`, or the reverse) was taken as the back office.
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (origin === undefined) return true;
  try {
    return new URL(origin).origin === new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return false;
  }
}

/**
 * The session of the request's cookie, checked for `need`; a state-changing method also needs its
 * CSRF token and a same-origin Origin. Sends the refusal and answers null when any is missing. A
 * request that has the token (or needs none) has its session's idle expiry moved on (`keepAlive`),
 * and its cookie is sent again to that expiry, which is never past the session's absolute end; one
 * refused for its token or origin moves nothing and renews no cookie.
 */
export async function authorise(sql: Sql, req: FastifyRequest, reply: FastifyReply, need: Permission, now: number): Promise<Session | null> {
  // Over HTTPS the `__Host-` cookie only: the plain name can be set by a page of the same host over
  // HTTP or by a sibling sub-domain, and would sign the user in as whoever planted it.
  const tokens = cookieValues(req.headers.cookie, req.protocol === 'https' ? SECURE_COOKIE : COOKIE);
  // Two of the name: one was planted beside the user's (a page of this host over HTTP, a sibling
  // sub-domain, a longer Path sent first), and taking either may be taking the attacker's session.
  if (tokens.length > 1) {
    await reply.code(401).send({
      error: 'cookie-twice',
      message: "two session cookies: another page of this host or domain set one; clear this site's cookies and sign in again",
    });
    return null;
  }
  const token = tokens[0];
  const found = token ? await findSession(sql, token, now) : null;
  if (!found || !token) {
    await reply.code(401).send({ error: 'signed-out', message: 'sign in first' });
    return null;
  }
  if (!SAFE.has(req.method)) {
    const given = req.headers[CSRF_HEADER];
    if (typeof given !== 'string' || !sameToken(given, found.csrf) || !sameOrigin(req)) {
      await reply.code(403).send({ error: 'csrf', message: 'the request lacks its CSRF token or comes from another origin' });
      return null;
    }
  }
  const session = await keepAlive(sql, found, now);
  // The idle expiry moved on: the browser is told, or it drops the cookie 30 minutes after sign-in.
  setSessionCookie(req, reply, token, Math.floor((session.expiresAt.getTime() - now) / 1000));
  if (!may(session.role, need)) {
    await reply.code(403).send({ error: 'role', message: `the ${session.role} role may not ${need}` });
    return null;
  }
  req.backoffice = session;
  return session;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Path=/; over HTTPS also Secure with the `__Host-` prefix, which a browser keeps only from a
 * secure origin. Max-Age 0 clears it. It is the back office's only cookie: one set later in the
 * same answer replaces the earlier (a sign-out's clearing, the renewal its request had been given).
 */
export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  const secure = req.protocol === 'https';
  const name = secure ? SECURE_COOKIE : COOKIE;
  reply.removeHeader('set-cookie');
  reply.header('set-cookie', `${name}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.max(0, maxAgeSeconds)}${secure ? '; Secure' : ''}`);
}

/** Hijacks a reply (the floor's stream) with its renewed session cookie on the raw head, which gets none of Fastify's headers. */
export function hijackKeepingCookie(reply: FastifyReply): void {
  const cookie = reply.getHeader('set-cookie');
  if (cookie !== undefined) reply.raw.setHeader('set-cookie', cookie);
  reply.hijack();
}

/** The one back-office read whose HEAD is answered: the live floor's stream, with its headers and no stream (index.ts). */
const HEAD_ANSWERED = new Set(['/backoffice/api/floor/events']);

/**
 * HEAD of a back-office read: refused before any work (405, `Allow: GET`), the floor's stream
 * excepted. Fastify answers HEAD of a GET route with the GET's handler and drops the body, so a
 * HEAD of the gaming day's report built it and wrote `report.read` with the digest of bytes nobody
 * received (f7a28971), and until a review of 7 December a HEAD of a table's page, the floor, the
 * alarms or the audit log still did every read for nothing (and moved the session's idle expiry on).
 * A hook of the API's scope, so a read added later is covered without a line of its own.
 */
export function refusedHead(req: FastifyRequest, reply: FastifyReply): boolean {
  if (req.method !== 'HEAD' || HEAD_ANSWERED.has(req.routeOptions.url ?? '')) return false;
  void reply.code(405).header('allow', 'GET').send();
  return true;
}
