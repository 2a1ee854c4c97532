import { keyOf, sameTerms, type TableId, type Transfer, type TransferId, type TransferRefusal, type TransferSettlement } from '../../terms/transfer-terms.js';
import { NO_EFFECTS, type Outbound, type TransferAlarmReason, type TransferEffects } from './effects.js';
import { valuesOf } from './id-map.js';
import { homeOf, outgoingOf, outgoingTransfers, type Outgoing, type TransferState } from './state.js';

// The sending side: the host that holds the station's credit debits it (journalled) before it
// asks, asks until it hears an answer it can trust, and closes the transfer once: complete on
// "taken" on its own terms, reversed on "never took it". It never reverses on silence.

/**
 * `unknown-station`: this table has no such station; `away-to-away`: a station away from home
 * sends its credit here only home (its home's peers would refuse it elsewhere: homed-elsewhere).
 */
export type StartRefusal = 'insufficient-credit' | 'to-self' | 'bad-amount' | 'bad-currency' | 'unknown-station' | 'away-to-away' | 'too-many-open';

/**
 * A station's credit moves under way at once (offered or recalled, a disputed one too: none closed).
 * A screen may ask one move after another, each a debit journalled and offered again at every tick
 * until its peer answers: one that sent its credit 1 at a time to a peer that does not answer made
 * as many as it had units. A player following several tables may move to each at once.
 */
export const MAX_OPEN_PER_STATION = 4;

/** A transfer asked for by the host (a bet at another table, a station leaving): the station's credit now is `available`. */
export interface StartTransfer {
  readonly station: number;
  readonly to: TableId;
  readonly amount: number;
  readonly available: number;
}

export function startTransfer(state: TransferState, ask: StartTransfer): TransferEffects & { refused?: StartRefusal } {
  if (!Number.isSafeInteger(ask.amount) || ask.amount <= 0) return { ...NO_EFFECTS, refused: 'bad-amount' };
  if (ask.to === state.self) return { ...NO_EFFECTS, refused: 'to-self' };
  const home = homeOf(state, ask.station);
  if (home === undefined) return { ...NO_EFFECTS, refused: 'unknown-station' };
  if (home !== state.self && ask.to !== home) return { ...NO_EFFECTS, refused: 'away-to-away' };
  if (ask.amount > ask.available) return { ...NO_EFFECTS, refused: 'insufficient-credit' };
  if (openOf(state, ask.station) >= MAX_OPEN_PER_STATION) return { ...NO_EFFECTS, refused: 'too-many-open' };
  const transfer: Transfer = {
    id: { origin: state.self, serial: state.lastSerial + 1 },
    currency: state.currency,
    station: ask.station,
    from: state.self,
    to: ask.to,
    amount: ask.amount,
  };
  return { journal: [{ type: 'transfer.out', payload: { transfer } }], send: [offer(transfer)], alarms: [] };
}

/** How many of the station's credit moves are under way (none closed). */
function openOf(state: TransferState, station: number): number {
  let n = 0;
  for (const o of valuesOf(state.outgoing)) if (o.transfer.station === station && (o.phase === 'offering' || o.phase === 'recalling')) n++;
  return n;
}

/** Ask for an open transfer back: from now on the sender asks the receiver to refuse it, never to take it. */
export function recallTransfer(state: TransferState, id: TransferId): TransferEffects {
  const o = outgoingOf(state, id);
  if (o?.phase !== 'offering') return NO_EFFECTS;
  return { journal: [{ type: 'transfer.recall', payload: { id } }], send: [{ to: o.transfer.to, message: { kind: 'recall', id } }], alarms: [] };
}

/** The timer: every open transfer is asked about again (an offer, or a recall), whatever was lost. */
export function askAgain(state: TransferState): TransferEffects {
  const send: Outbound[] = [];
  for (const o of outgoingTransfers(state)) {
    // A disputed transfer is a person's to settle: asking again would only hear the lie again.
    if (o.disputed) continue;
    if (o.phase === 'offering') send.push(offer(o.transfer));
    else if (o.phase === 'recalling') send.push({ to: o.transfer.to, message: { kind: 'recall', id: o.transfer.id } });
  }
  return { journal: [], send, alarms: [] };
}

function offer(transfer: Transfer): Outbound {
  return { to: transfer.to, message: { kind: 'offer', transfer } };
}

function alarm(link: TableId, reason: TransferAlarmReason, id: TransferId, detail: string): TransferEffects {
  return { journal: [], send: [], alarms: [{ reason, link, id, detail }] };
}

/** The open transfer an answer over `link` may speak for, or the alarm it raises. */
function answered(state: TransferState, link: TableId, id: TransferId): Outgoing | TransferEffects {
  const o = outgoingOf(state, id);
  if (!o) return alarm(link, 'unknown-transfer', id, `an answer for ${keyOf(id)}, which this host never sent`);
  if (o.transfer.to !== link) return alarm(link, 'wrong-peer', id, `an answer for ${keyOf(id)} from ${link}; it went to ${o.transfer.to}`);
  return o;
}

/** The receiver says it took the transfer on `terms`. */
export function onTaken(state: TransferState, link: TableId, terms: Transfer): TransferEffects {
  const o = answered(state, link, terms.id);
  if (!('phase' in o)) return o;
  if (!sameTerms(o.transfer, terms)) return mismatch(link, o, terms);
  if (o.phase === 'completed') return NO_EFFECTS;
  if (o.phase === 'reversed')
    return alarm(link, 'contradiction', terms.id, `"taken" after "never took it": the credit went back to station ${o.transfer.station}`);
  return { journal: [{ type: 'transfer.complete', payload: { transfer: o.transfer } }], send: [], alarms: [] };
}

/**
 * "Taken" on other terms than the debit. The first about an open transfer is journalled in the
 * step, with the terms claimed, and marks it disputed (state.ts): held in flight for a person,
 * asked about no more. The same lie again changes nothing; another is an alarm (within the
 * link's budget), as is any about a closed transfer.
 */
function mismatch(link: TableId, o: Outgoing, terms: Transfer): TransferEffects {
  if (o.disputed && sameTerms(o.disputed, terms)) return NO_EFFECTS;
  const detail = `"taken" for ${terms.amount} ${terms.currency} to station ${terms.station} (${terms.from} to ${terms.to}); debited ${o.transfer.amount} ${o.transfer.currency} of station ${o.transfer.station} (${o.transfer.from} to ${o.transfer.to})`;
  if (o.disputed || o.phase === 'completed' || o.phase === 'reversed') return alarm(link, 'terms-mismatch', terms.id, detail);
  const reason = 'terms-mismatch' as const;
  const held = `${detail}: disputed, its credit held in flight for a person`.slice(0, 500);
  return {
    journal: [{ type: 'transfer.alarm', payload: { link, reason, id: terms.id, detail: held, claimed: terms } }],
    send: [],
    alarms: [{ reason, link, id: terms.id, detail: held, journalled: true }],
  };
}

/**
 * The receiver says it never took the transfer and never will; `locked` whether a station is under
 * the casino system's AFT game lock now.
 */
export function onRefused(
  state: TransferState,
  link: TableId,
  id: TransferId,
  reason: TransferRefusal,
  locked: (station: number) => boolean = () => false,
): TransferEffects {
  const o = answered(state, link, id);
  if (!('phase' in o)) return o;
  if (o.phase === 'reversed') return NO_EFFECTS;
  if (o.phase === 'completed') return alarm(link, 'contradiction', id, `"never took it" after "taken": the transfer stays complete`);
  // The reversal puts the credit back on the station: not between the casino system's 0x74 and its
  // 0x72 (SAS 6.02 §8.4; docs/sas.md, "The game lock"). The refusal waits, nothing journalled: the
  // receiver journalled it and answers it again at each ask (offer or recall, every tick), so the
  // first answer after the lock (at most 99.99 s) reverses the debit.
  if (locked(o.transfer.station)) return NO_EFFECTS;
  return { journal: [{ type: 'transfer.reverse', payload: { transfer: o.transfer, reason } }], send: [], alarms: [] };
}

/**
 * Why two people's settlement of a transfer is refused: `unknown-transfer`, this host never sent
 * it; `closed`, its journal already closes it; `receiver-answers`, it is open, not disputed, and
 * its receiver can still answer (recall it and wait: its answer decides, not a person's guess);
 * `station-locked`, a reversal while the casino system holds the station's AFT game lock.
 */
export type SettleRefusal = 'unknown-transfer' | 'closed' | 'receiver-answers' | 'station-locked';

/** Two people's settlement of an open transfer (service mode): `receiverAnswers`, its receiver's link is up. */
export interface SettleTransfer {
  readonly id: TransferId;
  readonly as: 'completed' | 'reversed';
  readonly settled: TransferSettlement;
  readonly receiverAnswers: boolean;
}

/**
 * Closes an open transfer on two people's word, as its receiver's answer would have: one held
 * disputed, or one whose receiver cannot answer (gone, unreachable, no longer a peer). Journalled
 * as the closing with their names (`settled`). Nothing asks the receiver about it again: the
 * upstream's reconciliation checks it against the receiver's ledger (a disagreement with its money).
 */
export function settleTransfer(
  state: TransferState,
  s: SettleTransfer,
  locked: (station: number) => boolean = () => false,
): TransferEffects & { settleRefused?: SettleRefusal } {
  const o = outgoingOf(state, s.id);
  if (!o) return { ...NO_EFFECTS, settleRefused: 'unknown-transfer' };
  if (o.phase === 'completed' || o.phase === 'reversed') return { ...NO_EFFECTS, settleRefused: 'closed' };
  if (!o.disputed && s.receiverAnswers) return { ...NO_EFFECTS, settleRefused: 'receiver-answers' };
  // A reversal puts the credit back on the station: not between the casino system's 0x74 and its
  // 0x72, as a refusal heard then waits (onRefused). A completion moves nothing onto it.
  if (s.as === 'reversed' && locked(o.transfer.station)) return { ...NO_EFFECTS, settleRefused: 'station-locked' };
  const entry =
    s.as === 'completed'
      ? ({ type: 'transfer.complete', payload: { transfer: o.transfer, settled: s.settled } } as const)
      : ({ type: 'transfer.reverse', payload: { transfer: o.transfer, settled: s.settled } } as const);
  return { journal: [entry], send: [], alarms: [] };
}
