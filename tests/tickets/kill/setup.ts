// What the ticket kill campaign's host process (./host-child.ts) and its driver (./campaign.ts)
// share: the table's configuration (station 1 with a TCL printer and an ID-003 acceptor, station 2
// with an ID-003 acceptor, each a simulator served over TCP by the campaign, so the devices outlive
// the host as a real printer and acceptor outlive a killed host), the real host start, and the
// kill points.
import path from 'node:path';
import pino from 'pino';
import { z } from 'zod';
import { simulatedTableConfig, TableConfig } from '../../../host/config/table-config.js';
import { startHost, type RunningHost } from '../../../host/start-host.js';

export const CASHIER = 1;
export const REDEEMER = 2;
/** The note the player puts in at station 1, cashed out to one ticket (minor units, MOP 500). */
export const NOTE = 500;
export const NOTE_MINOR = NOTE * 100;

/**
 * The devices' TCP ports on the loopback (the campaign's simulators), and the validation id the
 * upstream assigned the table: in its configuration, the first cash-out asks no one for it (asked
 * over HTTP on a loaded machine, a slow answer makes that cash-out a handpay, which tests nothing here).
 */
export const Ports = z.object({
  printer: z.number().int(),
  cashierAcceptor: z.number().int(),
  redeemerAcceptor: z.number().int(),
  machineId: z.number().int(),
});
export type Ports = z.infer<typeof Ports>;

/**
 * Where the host dies. Each is a point in the journal of a ticket's issue or redemption, killed
 * inside the journal's write of that entry before or after its commit (the host kills itself:
 * the moment a power cut or an OOM kill would leave the ticket half done), except `printing`,
 * the campaign's own SIGKILL from outside once the printer has the print command.
 */
export const KILL_POINTS = [
  // issue: `ticket.issue` journalled, the print command not yet sent
  'issue-journalled',
  // issue: the printer is printing
  'printing',
  // issue: the printer said printed, `ticket.printed` not yet journalled
  'printed-not-journalled',
  // redemption: the barcode in escrow, `ticket.redeem.request` journalled, the authority being asked
  'escrow-asking',
  // redemption: the authority approved (`ticket.redeem.approved` journalled), STACK not yet sent
  'approved-not-stacked',
  // redemption: the acceptor stacked, `ticket.redeem.stacked` (the credit) not yet journalled
  'stacked-not-credited',
] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

/** The arm of a kill the host does itself: the first entry of that type, before or after its commit. */
export const KillArm = z.object({
  type: z.enum(['ticket.issue', 'ticket.printed', 'ticket.redeem.request', 'ticket.redeem.approved', 'ticket.redeem.stacked']),
  at: z.enum(['before-commit', 'after-commit']),
});
export type KillArm = z.infer<typeof KillArm>;

export const ARMS: Record<KillPoint, KillArm | null> = {
  'issue-journalled': { type: 'ticket.issue', at: 'after-commit' },
  printing: null,
  'printed-not-journalled': { type: 'ticket.printed', at: 'before-commit' },
  'escrow-asking': { type: 'ticket.redeem.request', at: 'after-commit' },
  'approved-not-stacked': { type: 'ticket.redeem.approved', at: 'after-commit' },
  'stacked-not-credited': { type: 'ticket.redeem.stacked', at: 'before-commit' },
};

export function ticketKillConfig(ports: Ports): TableConfig {
  const c = simulatedTableConfig('war');
  return TableConfig.parse({
    ...c,
    // Devices over TCP make the table a live one, which opens only under an authorisation reference (host/config/authorisation.ts).
    profileAuthorisation: 'TEST-TICKET-KILL',
    profileAuthorisationEffective: '2026-01-01',
    tickets: { ...c.tickets, machineId: ports.machineId },
    stations: [
      { station: CASHIER, seat: 1, billAcceptor: `tcp:127.0.0.1:${ports.cashierAcceptor}`, billProtocol: 'id003', printer: `tcp:127.0.0.1:${ports.printer}` },
      { station: REDEEMER, seat: 2, billAcceptor: `tcp:127.0.0.1:${ports.redeemerAcceptor}`, billProtocol: 'id003' },
    ],
  });
}

/** The real host start on the trial's data folder, syncing to the campaign's upstream (its credentials in the folder). */
export function startTicketHost(dataDir: string, ports: Ports, upstream: string): Promise<RunningHost> {
  return startHost({
    dataDir,
    rendererDir: path.join(dataDir, 'none'),
    logger: pino({ level: 'silent' }),
    config: ticketKillConfig(ports),
    simulatedDealer: false,
    upstream,
  });
}
