import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { credentialsFile, readCredentials } from '../../ledger/index.js';
import type { TicketAuthority } from './authority.js';
import { guardAuthority } from './guard.js';
import { UpstreamAuthority } from './upstream-authority.js';

/**
 * The table's validation authority at start (docs/tito.md): the upstream's, signed with the
 * table's sync credentials, behind the guard every authority answers through; null when the
 * table syncs to no upstream (then every ticket inserted goes back `offline`: no one could say it
 * is unpaid).
 */
export function ticketAuthority(
  options: { upstream?: string | undefined; dataDir: string },
  config: { upstream?: string | undefined },
  log: Logger,
): TicketAuthority | null {
  const url = options.upstream ?? config.upstream;
  const file = credentialsFile(options.dataDir);
  if (!url || !existsSync(file)) return null;
  const upstream = new UpstreamAuthority({ url, credentials: readCredentials(file) });
  return guardAuthority(upstream, { onEvent: (e) => log.warn({ event: e }, 'validation authority') });
}
