import { ENTRY_TYPES } from '../../ledger/index.js';
import { isTiltKind, TILT_KINDS, tiltSpec } from '../tilts/tilt-kinds.js';

export type Severity = 'info' | 'warning' | 'critical';

/**
 * How the event log ranks journal entries: critical = money or records changed by authority or a
 * card anomaly; warning = what an attendant should look at; info = ordinary play. A fault's raise
 * and clear take the severity of the fault's kind (a ledger that failed its check is critical, a
 * closed table is information), so "critical" lists every critical fault.
 */
// A peer table host caught lying about a transfer (host/transfers/) is a credit refused, as a lying acceptor's note is.
const CRITICAL = new Set(['round.void', 'meter.clear', 'misread', 'service.denied', 'bill.refused', 'transfer.alarm']);
const WARNING = new Set([
  'bill.return',
  'cashbox.drop',
  'door.open',
  'door.close',
  'power.reset',
  'config.change',
  'config.refused',
  'credit.cancel',
  'handpay.request',
  'handpay.confirm',
  // Streak stakes given back when the table opened under another game or rule set.
  'held.return',
  'service.action',
  'service.account',
  'station.credential',
  'peer.credential',
  'jackpot.reset',
  // A debit given back: the receiver said it never took it.
  'transfer.reverse',
  // A ticket the printer did not print (the credit went back), and one that went back to the player.
  'ticket.void',
  'ticket.redeem.returned',
]);
export const TILT_TYPES: readonly string[] = ['tilt.raise', 'tilt.clear'];

/** `kind` is a fault entry's kind; an unknown kind (a later version's) counts as a warning. */
export function severityOf(type: string, kind?: string): Severity {
  if (TILT_TYPES.includes(type)) return kind !== undefined && isTiltKind(kind) ? tiltSpec(kind).severity : 'warning';
  return CRITICAL.has(type) ? 'critical' : WARNING.has(type) ? 'warning' : 'info';
}

/** The entry types of a severity, fault entries aside (their severity is their kind's). */
export function typesOfSeverity(severity: Severity): string[] {
  return ENTRY_TYPES.filter((t) => !TILT_TYPES.includes(t) && severityOf(t) === severity);
}

/** The fault kinds of a severity; fault entries of another kind (unknown ones) rank as warnings. */
export function tiltKindsOfSeverity(severity: Severity): string[] {
  return TILT_KINDS.filter((k) => tiltSpec(k).severity === severity);
}
