import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * The names the back office answers to (docs/backoffice.md, "The names it answers to"). Over plain
 * HTTP on the casino's network, a page whose DNS name is rebound to the back office's address is
 * same-origin with it in the browser: the page reads every answer, and the Origin every POST and
 * the sign-in are compared with is the page's own name (guard.ts, `sameOrigin`). So a request
 * under /backoffice is answered only when the host the browser asked (`req.host`: the Host header,
 * or a trusted proxy's X-Forwarded-Host) is one of these names, `localhost`, or an address: an IP
 * literal is never a rebinding page's host, which is always its own name.
 */
const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** One name as configured: a DNS name (no scheme, port, wildcard or trailing dot) or an address. */
export const BackofficeHostName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .refine((name) => isIP(name) !== 0 || name.split('.').every((label) => LABEL.test(label)), {
    message: 'a host name (letters, digits, - and _ in dot-separated labels of at most 63) or an address; no scheme, port or wildcard',
  });
export const BackofficeHosts = z.array(BackofficeHostName).max(256);

/** The configured names, checked, lower case, with `localhost`; throws naming what is wrong. */
export function backofficeHosts(configured: readonly string[] = []): ReadonlySet<string> {
  const parsed = BackofficeHosts.safeParse(configured);
  if (!parsed.success) {
    const said = parsed.error.issues.map((i) => `${JSON.stringify(i.path.length > 0 ? configured[Number(i.path[0])] : configured)}: ${i.message}`);
    throw new Error(`the back office's host names (--backoffice-host) are not all names: ${said.join(' / ')}`);
  }
  return new Set(['localhost', ...parsed.data]);
}

/** Whether `host` (a Host header's value: a name or an address, and a port) is one the back office answers to. */
export function answersTo(host: string | undefined, names: ReadonlySet<string>): boolean {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host ?? '');
  const name = m?.[1]?.toLowerCase();
  if (name === undefined) return false;
  if (name.startsWith('[')) return isIPv6(name.slice(1, -1));
  return isIPv4(name) || names.has(name);
}

/** How often the log is told of refused hosts at most: a flood of them is one line a minute, and never an audit row. */
const LOG_EVERY_MS = 60_000;

/**
 * Refuses, before any route (the rate limits and the sign-in's throttle count nothing), every
 * request under /backoffice whose host is none of `names`: 421 with a body that says why. Not
 * audited: an unauthenticated flood would fill the log, as refused sign-ins did; the server's log
 * says how many at most once a minute.
 */
export function refuseOtherHosts(app: FastifyInstance, names: ReadonlySet<string>, clock: () => number = () => performance.now()): void {
  let refused = 0;
  let lastLogged = -Infinity;
  app.addHook('onRequest', async (req, reply) => {
    if (!underBackoffice(req) || answersTo(req.host, names)) return;
    refused += 1;
    if (clock() - lastLogged >= LOG_EVERY_MS) {
      app.log.warn({ refused, names: [...names] }, 'back office: requests under a host name it does not answer to refused (DNS rebinding?)');
      lastLogged = clock();
      refused = 0;
    }
    return reply
      .code(421)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
      .send({
        error: 'unknown-host',
        message:
          "the back office does not answer to this host name: open it under one of its own names or its address (its administrator names them with --backoffice-host); a page under another name is refused, as a rebound one's would be",
      });
  });
}

/** The back office's routes, and any address under its prefix (a file of the page that is not there). */
function underBackoffice(req: FastifyRequest): boolean {
  return (req.routeOptions.url ?? '').startsWith('/backoffice') || req.url.startsWith('/backoffice');
}
