import type Database from 'better-sqlite3';
import type { CheckpointState } from './checkpoint.js';
import { roundIdOf, type Derived, type LedgerView, type StoredEntry } from './derive.js';
import { account, type EntryType } from './entries.js';
import { ESCROW_KEY, ESCROW_TYPES, HANDPAY_CONFIRM_KEY, HANDPAY_CONFIRM_TYPES } from './migrations.js';
import { correctionOfMisread, roundEntryOfRow, roundRecord, type ClosingEntry, type RoundEntry, type RoundRecord } from '../terms/round-record.js';

/** A bet of an open round, as the `round_bets` projection holds it. */
export interface OpenBet {
  roundId: string;
  station: number;
  seq: number;
  amount: number;
  creditBefore: number;
}

/** An entry the replay accepted, with what it derived. */
export interface ReplayedEntry {
  seq: number;
  ts: string;
  tzOffsetMin: number;
  type: EntryType;
  payload: Record<string, unknown>;
  derived: Derived;
}

/**
 * The ledger's state as verification replays the journal through `derive` (ledger/derive.ts):
 * balances, meters, open bets and the entries of open rounds held in maps, where the live append
 * keeps them in SQLite tables. Replaying into maps costs a few microseconds an entry where a
 * scratch SQLite ledger cost a hundred, and the derivation is the same code either way.
 *
 * Questions about earlier entries (the escrow a credit names, the request a handpay pays, a
 * transaction id journalled before) are answered from the journal being verified, restricted to
 * the entries before the one replayed, which this verification has already checked. Replaying
 * from a checkpoint (`upTo` > 0), what the maps cannot know of the entries up to the checkpoint
 * (a round closed or begun before it, an escrow or handpay resolved before it) is read from the
 * journal the same way: the cost follows the entries after the checkpoint and what they name.
 */
export class ReplayState implements LedgerView {
  readonly balances = new Map<string, number>();
  /** scope → name → value. */
  readonly meterValues = new Map<string, Map<string, number>>();
  /** roundId → its bets, in seq order. */
  readonly openBets = new Map<string, OpenBet[]>();
  readonly #closed = new Set<string>();
  readonly #resolved = new Set<number>();
  readonly #paid = new Set<string>();
  /** The entries of rounds not yet closed, for their records. */
  readonly #roundEntries = new Map<string, RoundEntry[]>();
  /** Rounds asked about the journal up to the checkpoint: closed there, or not. */
  readonly #closedBefore = new Map<string, boolean>();
  /** The seq being replayed: lookups of the journal see only the entries before it. */
  at = 0;
  readonly #q: ReturnType<typeof statements>;

  constructor(
    db: Database.Database,
    /** The checkpoint replayed from (0: genesis). */
    private readonly upTo: number,
  ) {
    this.#q = statements(db);
  }

  /** Stands where the checkpoint stands: its balances, meters and open bets. */
  seed(c: CheckpointState): void {
    for (const [acct, balance] of c.balances) this.balances.set(acct, balance);
    for (const [scope, name, value] of c.meters) this.#meterScope(scope).set(name, value);
    for (const [roundId, station, seq, amount, creditBefore] of c.openBets) this.#betsOf(roundId).push({ roundId, station, seq, amount, creditBefore });
  }

  // LedgerView: what `derive` asks.

  credit(station: number): number {
    return 0 - (this.balances.get(account.stationCredit(station)) ?? 0);
  }

  balance(acct: string): number {
    return this.balances.get(acct) ?? 0;
  }

  heldBets(station: number): number {
    return 0 - (this.balances.get(account.heldBets(station)) ?? 0);
  }

  roundClosed(roundId: string): boolean {
    if (this.#closed.has(roundId)) return true;
    if (this.upTo === 0) return false;
    let before = this.#closedBefore.get(roundId);
    if (before === undefined) {
      before = this.#q.closedBefore.get(roundId, this.upTo) !== undefined;
      this.#closedBefore.set(roundId, before);
    }
    return before;
  }

  roundStakes(roundId: string): { station: number; amount: number }[] {
    const per = new Map<number, number>();
    for (const b of this.openBets.get(roundId) ?? []) per.set(b.station, (per.get(b.station) ?? 0) + b.amount);
    return [...per].sort((a, b) => a[0] - b[0]).map(([station, amount]) => ({ station, amount }));
  }

  creditBefore(roundId: string, station: number): number {
    const first = this.openBets.get(roundId)?.find((b) => b.station === station);
    if (!first) throw new Error(`station ${station} has no bet in round ${roundId}`);
    return first.creditBefore;
  }

  entryByTx(txId: string): StoredEntry | undefined {
    const e = this.#q.byTx.get(txId) as StoredEntry | undefined;
    return e && e.seq < this.at ? e : undefined;
  }

  handpayPaid(requestTxId: string): boolean {
    return this.#paid.has(requestTxId) || (this.upTo > 0 && this.#q.confirmedBefore.get(this.upTo, requestTxId) !== undefined);
  }

  entryAt(seq: number): StoredEntry | undefined {
    return seq < this.at ? (this.#q.bySeq.get(seq) as StoredEntry | undefined) : undefined;
  }

  escrowResolved(escrowSeq: number): boolean {
    return this.#resolved.has(escrowSeq) || (escrowSeq <= this.upTo && this.#q.resolvedBefore.get(this.upTo, escrowSeq) !== undefined);
  }

  meters(scope: string): { name: string; value: number }[] {
    return [...(this.meterValues.get(scope) ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([name, value]) => ({ name, value }));
  }

  /** The seq of the entry journalled with this transaction id, if any (at this entry: not a duplicate). */
  txSeq(txId: string): number | undefined {
    return this.#q.txSeq.get(txId) as number | undefined;
  }

  /**
   * Applies an accepted entry as the live append writes it (balances, meters, open bets, the
   * round's entries) and returns the record of the round it closes, if it closes one.
   */
  apply(e: ReplayedEntry): RoundRecord | null {
    const d = e.derived;
    for (const [acct, amount] of d.postings) this.balances.set(acct, (this.balances.get(acct) ?? 0) + amount);
    for (const [scope, name, delta] of d.meters) {
      const m = this.#meterScope(scope);
      m.set(name, (m.get(name) ?? 0) + delta);
    }
    const escrowSeq = e.payload.escrowSeq;
    if ((e.type === 'bill.credit' || e.type === 'bill.return') && typeof escrowSeq === 'number') this.#resolved.add(escrowSeq);
    const requestTxId = e.payload.requestTxId;
    if (e.type === 'handpay.confirm' && typeof requestTxId === 'string') this.#paid.add(requestTxId);

    const roundId = roundIdOf(e.type, e.payload);
    if (roundId !== null && !this.roundClosed(roundId)) {
      const entries = this.#entriesOf(roundId);
      const p = d.projection;
      const correction = e.type === 'misread' ? correctionOfMisread(e.payload) : undefined;
      entries.push(p?.kind === 'bet' ? { seq: e.seq, bet: { station: p.station, bets: p.bets } } : correction ? { seq: e.seq, correction } : { seq: e.seq });
    }
    const p = d.projection;
    if (p?.kind === 'bet') this.#betsOf(p.roundId).push({ roundId: p.roundId, station: p.station, seq: e.seq, amount: p.amount, creditBefore: p.creditBefore });
    if (p?.kind !== 'close') return null;
    const closing: ClosingEntry = { seq: e.seq, ts: e.ts, tzOffsetMin: e.tzOffsetMin, credits: d.credits, ...p.closing };
    const record = roundRecord(closing, this.#roundEntries.get(p.roundId) ?? []);
    this.#roundEntries.delete(p.roundId);
    this.openBets.delete(p.roundId);
    this.#closed.add(p.roundId);
    return record;
  }

  #meterScope(scope: string): Map<string, number> {
    let m = this.meterValues.get(scope);
    if (!m) this.meterValues.set(scope, (m = new Map()));
    return m;
  }

  #betsOf(roundId: string): OpenBet[] {
    let b = this.openBets.get(roundId);
    if (!b) this.openBets.set(roundId, (b = []));
    return b;
  }

  /** A round's entries so far: from a checkpoint, those up to it are read from the journal once. */
  #entriesOf(roundId: string): RoundEntry[] {
    let entries = this.#roundEntries.get(roundId);
    if (!entries) {
      entries = [];
      if (this.upTo > 0) {
        for (const r of this.#q.roundBefore.all(roundId, this.upTo) as { seq: number; type: string; body: string }[]) {
          entries.push(roundEntryOfRow(r));
        }
      }
      this.#roundEntries.set(roundId, entries);
    }
    return entries;
  }
}

function statements(db: Database.Database) {
  return {
    bySeq: db.prepare('SELECT seq, type, body FROM journal WHERE seq = ?'),
    byTx: db.prepare('SELECT seq, type, body FROM journal WHERE tx_id = ?'),
    // Answered from the index on tx_id alone (it holds the seq).
    txSeq: db.prepare('SELECT seq FROM journal WHERE tx_id = ?').pluck(),
    closedBefore: db.prepare("SELECT 1 FROM journal WHERE round_id = ? AND seq <= ? AND type IN ('round.settle', 'round.void') LIMIT 1"),
    roundBefore: db.prepare('SELECT seq, type, body FROM journal WHERE round_id = ? AND seq <= ? ORDER BY seq'),
    resolvedBefore: db.prepare(`SELECT 1 FROM journal WHERE ${ESCROW_TYPES} AND seq <= ? AND ${ESCROW_KEY} = ? LIMIT 1`),
    confirmedBefore: db.prepare(`SELECT 1 FROM journal WHERE ${HANDPAY_CONFIRM_TYPES} AND seq <= ? AND ${HANDPAY_CONFIRM_KEY} = ? LIMIT 1`),
  };
}
