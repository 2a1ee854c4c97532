import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Bearer credentials for the non-ingest routes. Two roles, so that a reporting tool that may read
 * the journal cannot issue keys: `admin` enrols and rotates terminal keys (and may also query);
 * `query` reads only. There is no anonymous role and no loopback exception: behind a proxy on
 * the same host every caller is loopback (issue 20).
 */
export type Role = 'admin' | 'query' | 'metrics';

export interface AdminTokens {
  admin: string;
  /** Read-only token for the query routes; without one, queries need the admin token. */
  query?: string;
  /** Token for /metrics only (a Prometheus scraper); without one, /metrics takes the query or admin token. */
  metrics?: string;
}

/** A token shorter than this is refused at start: it could be guessed within the rate limit. */
export const MIN_TOKEN_LENGTH = 24;

export class AdminTokenError extends Error {}

export function checkTokens(tokens: AdminTokens): AdminTokens {
  for (const [role, t] of Object.entries(tokens)) {
    if (typeof t !== 'string' || t.length < MIN_TOKEN_LENGTH || /\s/.test(t)) {
      throw new AdminTokenError(`the ${role} token must be at least ${MIN_TOKEN_LENGTH} characters, without spaces`);
    }
  }
  const given = [tokens.admin, tokens.query, tokens.metrics].filter((t) => t !== undefined);
  if (new Set(given).size !== given.length) throw new AdminTokenError('the admin, query and metrics tokens must all differ');
  return tokens;
}

function sameSecret(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The role the request's `Authorization: Bearer …` grants, or null. */
export function roleOf(req: FastifyRequest, tokens: AdminTokens): Role | null {
  const m = /^Bearer ([^\s]+)$/.exec(req.headers.authorization ?? '');
  if (!m?.[1]) return null;
  if (sameSecret(m[1], tokens.admin)) return 'admin';
  if (tokens.query !== undefined && sameSecret(m[1], tokens.query)) return 'query';
  if (tokens.metrics !== undefined && sameSecret(m[1], tokens.metrics)) return 'metrics';
  return null;
}

/** Whether `role` may call a route that needs `need`: admin includes query, and query includes metrics. */
export function allows(role: Role | null, need: Role): boolean {
  if (role === null) return false;
  if (role === 'admin' || role === need) return true;
  return role === 'query' && need === 'metrics';
}
