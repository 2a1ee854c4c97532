import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { credentialsFile, readCredentials, type Ledger } from '../../ledger/index.js';
import { assignedMachineIds } from '../../ledger/machine-id-queries.js';
import { ticketStackedTxId } from '../../ledger/ticket-postings.js';
import { lastTicketInEnd, lastTicketIssued, ticketInEndAt, ticketMachineIds } from '../../ledger/ticket-queries.js';
import type { TicketAuthority } from './authority.js';
import type { FloorClock } from './floor-clock.js';
import { guardAuthority } from './guard.js';
import { journalledSasId, SasAuthority } from './sas-authority.js';
import { keepingFloorId } from './floor-id.js';
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
  ledger: Ledger,
  log: Logger,
  clock?: Pick<FloorClock, 'observe'>,
): TicketAuthority | null {
  const url = options.upstream ?? config.upstream;
  const file = credentialsFile(options.dataDir);
  if (!url || !existsSync(file)) return null;
  const upstream = new UpstreamAuthority({
    url,
    credentials: readCredentials(file),
    ...(clock ? { onServerTime: (serverTime: string, rttMs: number) => clock.observe(serverTime, rttMs) } : {}),
  });
  return keepingFloorId(guardAuthority(upstream, { onEvent: (e) => log.warn({ event: e }, 'validation authority') }), ledger, log);
}

/**
 * The casino's system as the authority (`tickets.authority: sas`, docs/sas.md "Tickets through
 * SAS"): `sas` is what each station's SAS link answers the ticket polls from, `authority` the
 * same behind the guard, for the table host.
 */
export function sasTicketAuthority(
  ledger: Ledger,
  log: Logger,
  configuredId?: number,
  unbelieved: ReadonlySet<number> = new Set(),
): { sas: SasAuthority; authority: TicketAuthority } {
  const sas = new SasAuthority({
    store: journalledSasId(ledger, log),
    lastSequence: () => lastTicketIssued(ledger)?.terms.sequence ?? 0,
    paidHere: (validation) => ledger.byTxId(ticketStackedTxId(validation)) !== undefined,
    // Read only while no id is set (0x4C answers from the journal after): a scan of the journal is rare.
    idTaken: (id) => id === configuredId || ticketMachineIds(ledger).includes(id) || assignedMachineIds(ledger, 'upstream').includes(id),
    ticketEnd: (seq) => ticketInEndAt(ledger, seq),
    lastTicketEnd: (station) => lastTicketInEnd(ledger, station),
    unbelieved,
  });
  return { sas, authority: guardAuthority(sas, { systemNumbers: true, onEvent: (e) => log.warn({ event: e }, 'validation authority (SAS)') }) };
}
