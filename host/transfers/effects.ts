import type { TableId, TransferAlarmReason, TransferEntry, TransferId } from '../../terms/transfer-terms.js';
import type { TransferMessage } from './messages.js';

export { TRANSFER_ALARMS, type TransferAlarmReason } from '../../terms/transfer-terms.js';

export interface TransferAlarm {
  readonly reason: TransferAlarmReason;
  /** The link the message came over. */
  readonly link: TableId;
  readonly id?: TransferId;
  readonly detail: string;
  /** Already in the step's `journal` (the alarm that marks a transfer disputed): the host journals it no more, outside any budget. */
  readonly journalled?: true;
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
