import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { pendingHandpays, type Ledger, type NewEntry, type PendingHandpay } from '../../ledger/index.js';
import type { CashoutState } from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import type { Outcome } from '../../engine/table/game.js';
import { inEnglish, serviceSaid, type Said } from '../config/refusal-words.js';

/** A confirmation refused: what it says to a person (`say`, a key of the catalogues), the same in English for the log (`reason`). */
export type HandpayRefusal = { ok: false; reason: string; say: Said };

function handpayRefusal(say: Said): HandpayRefusal {
  return { ok: false, reason: inEnglish(say), say };
}

export interface HandpayDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** Whether the station has chips on its spots or bets in the round in play. */
  hasBets: (station: number) => boolean;
  /** A station's credit or lock changed: its screen must be told. */
  onChanged: (station: number) => void;
  /** A handpay was paid (its confirmation journalled): a jackpot's round may be collected (Portugal rule 49). */
  onPaid?: (requestTxId: string) => void;
}

/**
 * Cash-out by handpay (issue 7 item 2). The station's whole credit is journalled as cancelled
 * credits (`credit.cancel`, GLI "cancelled credits": credit → handpay owed) and the station locks
 * until an attendant pays it and confirms in service mode (`handpay.confirm`: handpay owed →
 * cage). Above the table's two-person amount the confirmation names a witness. Pending handpays
 * are the journal's: rebuilt by query after a restart, so a lock survives a kill.
 */
export class Handpays {
  /** The journal's pending handpays, read again after every write of this class (screens read it often). */
  private cache: PendingHandpay[] | null = null;

  constructor(private readonly deps: HandpayDeps) {}

  /** Reads the pending handpays from the journal again (at start; after another writer's handpay). */
  refresh(): void {
    this.cache = null;
  }

  /**
   * The station asks to cash out its whole credit. `txId`: the id the handpay must go under (a
   * cash-out that asked the casino system first: `validationTxId(request, 'handpay')`), else a new
   * one. `upTo`: the amount that request told the casino system; the handpay under its id pays no
   * more (the restart rule's amount, docs/sas.md), and credit beyond it stays on the station.
   */
  cashOut(station: number, txId?: string, upTo?: number): Outcome<{ requestTxId: string; amount: number }> {
    const refused = this.refusal(station);
    if (refused) return refused;
    const credit = this.deps.ledger.credit(station);
    const amount = upTo === undefined ? credit : Math.min(upTo, credit);
    // A request that held nothing pays nothing: refused here, not left to the journal's schema to throw at the station.
    if (!Number.isSafeInteger(amount) || amount <= 0)
      return { ok: false, reason: `station ${station}: a cash-out of ${amount} pays nothing`, refusal: 'cash-out-empty' };
    // Unique across restarts and tables: the ledger refuses a reused id with other content.
    const requestTxId = txId ?? `${this.deps.config.tableId}:cashout:${station}:${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    this.deps.ledger.append({
      type: 'credit.cancel',
      payload: { station, amount, reason: 'cash-out by handpay', currency: this.deps.config.currency },
      txId: requestTxId,
    });
    this.cache = null;
    this.deps.log.info({ station, amount, requestTxId }, 'cash-out: credit cancelled, handpay pending');
    this.deps.onChanged(station);
    return { ok: true, requestTxId, amount };
  }

  /** Why the station cannot cash out now, by handpay or by ticket; null when it can. */
  refusal(station: number): Extract<Outcome, { ok: false }> | null {
    if (this.pendingAt(station)) return { ok: false, reason: `station ${station} already has a handpay waiting`, refusal: 'cash-out-pending' };
    if (this.deps.hasBets(station)) return { ok: false, reason: `station ${station} has bets on the table`, refusal: 'bets-in-play' };
    if (this.deps.ledger.credit(station) <= 0) return { ok: false, reason: `station ${station} has no credit`, refusal: 'cash-out-empty' };
    return null;
  }

  /** Every handpay waiting for an attendant (cash-outs and jackpot/limit handpays), oldest first. */
  pending(): (PendingHandpay & { needsWitness: boolean })[] {
    return this.all().map((p) => ({ ...p, needsWitness: this.needsWitness(p.amount) }));
  }

  /** The station's pending handpay, if any: it locks the station. */
  pendingAt(station: number): PendingHandpay | null {
    return this.all().find((p) => p.station === station) ?? null;
  }

  isLocked(station: number): boolean {
    return this.pendingAt(station) !== null;
  }

  /** What the station's screen shows of its cash-out. */
  state(station: number): CashoutState {
    const p = this.pendingAt(station);
    return { pending: p ? { amount: p.amount, requestTxId: p.requestTxId } : null };
  }

  /**
   * The attendant paid the handpay: journalled, and the station unlocks. Above the two-person
   * amount a witness other than the attendant must confirm too. `also` (service mode's record of
   * who confirmed it) is journalled in the same transaction: both or neither, never a payment the
   * person is told failed.
   */
  confirm(
    requestTxId: string,
    attendant: string,
    witness?: string,
    also: readonly NewEntry[] = [],
  ): { ok: true; station: number; amount: number } | HandpayRefusal {
    const p = this.all().find((x) => x.requestTxId === requestTxId);
    if (!p) return handpayRefusal(serviceSaid('handpayNotPending', { request: requestTxId }));
    const who = attendant.trim();
    if (!who) return handpayRefusal(serviceSaid('handpayNoAttendant'));
    const second = witness?.trim();
    if (this.needsWitness(p.amount)) {
      const { handpayTwoPersonAbove: above, currency } = this.deps.config;
      if (!second) return handpayRefusal(serviceSaid('handpayNeedsWitness', { above, currency }));
      if (second === who) return handpayRefusal(serviceSaid('handpaySameWitness'));
    }
    this.deps.ledger.appendMany([
      {
        type: 'handpay.confirm',
        payload: {
          station: p.station,
          requestTxId,
          amount: p.amount,
          attendant: who,
          ...(second ? { witness: second } : {}),
          // The request's currency: one asked for before a change of currency is paid in its own.
          currency: p.currency ?? this.deps.config.currency,
        },
        txId: `${requestTxId}:paid`,
      },
      ...also,
    ]);
    this.cache = null;
    this.deps.log.info({ station: p.station, amount: p.amount, requestTxId, attendant: who, witness: second }, 'handpay paid');
    this.deps.onChanged(p.station);
    this.deps.onPaid?.(requestTxId);
    return { ok: true, station: p.station, amount: p.amount };
  }

  private all(): PendingHandpay[] {
    this.cache ??= pendingHandpays(this.deps.ledger);
    return this.cache;
  }

  /** Whether an attendant's settlement of `amount` names a second person (above the table's two-person amount; a held ticket settled by hand too). */
  needsWitness(amount: number): boolean {
    return amount > this.deps.config.handpayTwoPersonAbove;
  }
}
