import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sql } from '../sql.js';
import { may, type Permission } from './roles.js';
import { COOKIE, cookieValue, findSession, sameToken, SECURE_COOKIE, type Session } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    backoffice?: Session;
  }
}

/** The header every state-changing request carries: the session's CSRF token (synchroniser token). */
export const CSRF_HEADER = 'x-csrf-token';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser's Origin (or, lacking it, Referer) is this service's own. A request without
 * either is not a browser's cross-site one (browsers send Origin with every POST), so it passes
 * here and is left to the CSRF token.
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * The session of the request's cookie, checked for `need`; a state-changing method also needs its
 * CSRF token and a same-origin Origin. Sends the refusal and answers null when any is missing.
 */
export async function authorise(sql: Sql, req: FastifyRequest, reply: FastifyReply, need: Permission, now: number): Promise<Session | null> {
  const token = cookieValue(req.headers.cookie, SECURE_COOKIE) ?? cookieValue(req.headers.cookie, COOKIE);
  const session = token ? await findSession(sql, token, now) : null;
  if (!session) {
    await reply.code(401).send({ error: 'signed-out', message: 'sign in first' });
    return null;
  }
  if (!SAFE.has(req.method)) {
    const given = req.headers[CSRF_HEADER];
    if (typeof given !== 'string' || !sameToken(given, session.csrf) || !sameOrigin(req)) {
      await reply.code(403).send({ error: 'csrf', message: 'the request lacks its CSRF token or comes from another origin' });
      return null;
    }
  }
  if (!may(session.role, need)) {
    await reply.code(403).send({ error: 'role', message: `the ${session.role} role may not ${need}` });
    return null;
  }
  req.backoffice = session;
  return session;
}
