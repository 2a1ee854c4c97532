import type { TableId, TransferEntry, TransferId } from '../../ledger/transfer-terms.js';
import type { TransferMessage } from './messages.js';

/** Why a host distrusted a message (a security event the host journals and shows; nothing else changes). */
export const TRANSFER_ALARMS = [
  /** Not a transfer message at all. */
  'malformed',
  /** A transfer offered or recalled over a link that is not its sender's (its id's origin, its `from`). */
  'wrong-link',
  /** A transfer offered to this host that names another as its receiver. */
  'not-for-us',
  /** An id offered again with other terms than the ones taken or refused. */
  'terms-changed',
  /** An answer for a transfer this host never sent. */
  'unknown-transfer',
  /** An answer over another link than the transfer's receiver's. */
  'wrong-peer',
  /** "Taken" on other terms than the ones this host debited. */
  'terms-mismatch',
  /** An answer that contradicts the one this host already acted on ("taken" after "never took it", or the reverse). */
  'contradiction',
] as const;
export type TransferAlarmReason = (typeof TRANSFER_ALARMS)[number];

export interface TransferAlarm {
  readonly reason: TransferAlarmReason;
  /** The link the message came over. */
  readonly link: TableId;
  readonly id?: TransferId;
  readonly detail: string;
}

export interface Outbound {
  readonly to: TableId;
  readonly message: TransferMessage;
}

/**
 * What a step asks of the host, in this order: append `journal` (one transaction, durable), and
 * only then send `send` and raise `alarms`. A host killed before the append has done nothing; one
 * killed after it sends again from its journal on the next tick.
 */
export interface TransferEffects {
  readonly journal: readonly TransferEntry[];
  readonly send: readonly Outbound[];
  readonly alarms: readonly TransferAlarm[];
}

export const NO_EFFECTS: TransferEffects = { journal: [], send: [], alarms: [] };
