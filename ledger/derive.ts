import { canonicalJson } from './canonical.js';
import { account, MONEY_TYPES, parsePayload, type EntryType, type MeterDelta, type Payload, type Posting } from './entries.js';
import { LedgerRefusal } from './refusal.js';
import { deriveTicketJournal, txIdOfTicketJournal, type TicketSink } from './ticket-postings.js';
import { isTransferEntryType, parseTransferEntry, sameTerms, transferTxId, txIdOfTransferEntry, type Transfer } from '../terms/transfer-terms.js';
import { ROUND_ENTRY_TYPES } from '../terms/round-terms.js';

// What an entry means for the accounts, derived from its payload and the ledger as it stands
// before it: the postings, the meter deltas and the station credits before and after. One
// function for the live append (over SQLite, ledger/ledger.ts) and for verification's replay
// (over maps, ledger/replay-state.ts): a journal verifies only if this code, run again on every
// payload, writes every body again byte for byte.

/** An entry as the ledger holds it, for the questions a derivation asks about earlier entries. */
export interface StoredEntry {
  seq: number;
  type: string;
  /** Its canonical body. */
  body: string;
}

/** What deriving an entry reads of the ledger as it stands before that entry. */
export interface LedgerView {
  /** A station's credit in minor units (−balance of its credit account). */
  credit(station: number): number;
  /** Whether a settlement or void of the round is journalled. */
  roundClosed(roundId: string): boolean;
  /** The open round's stakes per station, summed, stations ascending. */
  roundStakes(roundId: string): { station: number; amount: number }[];
  /** A station's credit before its first bet of an open round. */
  creditBefore(roundId: string, station: number): number;
  /** A station's stakes held in play from earlier rounds (−balance of its held-bets account). */
  heldBets(station: number): number;
  /** The entry journalled with a transaction id (a handpay's request). */
  entryByTx(txId: string): StoredEntry | undefined;
  /** Whether a `handpay.confirm` of that request is journalled. */
  handpayPaid(requestTxId: string): boolean;
  /** The entry at a seq (an escrow a credit or return names). */
  entryAt(seq: number): StoredEntry | undefined;
  /** Whether a `bill.credit` or `bill.return` resolving that escrow is journalled. */
  escrowResolved(escrowSeq: number): boolean;
  /** Every meter of a scope, names ascending. */
  meters(scope: string): { name: string; value: number }[];
  /** An account's balance (+ debit, − credit). */
  balance(account: string): number;
}

/** What an entry changes besides balances and meters: an open round's bet, or a round closed. */
export type Projection =
  | { kind: 'bet'; roundId: string; station: number; amount: number; creditBefore: number; bets: Payload<'bet.place'>['bets'] }
  | {
      kind: 'close';
      roundId: string;
      closing: { type: 'round.settle'; payload: Payload<'round.settle'> } | { type: 'round.void'; payload: Payload<'round.void'> };
    }
  | null;

export interface Derived {
  postings: Posting[];
  meters: MeterDelta[];
  /** [station, credit before, credit after] for every station whose credit the entry concerns. */
  credits: [number, number, number][];
  projection: Projection;
}

/** The parsed canonical body of an entry: the caller's payload and what the ledger derived. */
export interface EntryBody {
  v: 1;
  terminal: string;
  seq: number;
  ts: string;
  tzOffsetMin: number;
  type: EntryType;
  txId?: string;
  payload: Record<string, unknown>;
  postings: Posting[];
  meters: MeterDelta[];
  /** [station, credit before, credit after] for every station whose credit this entry concerns. */
  credits?: [number, number, number][];
}

/** Entry types whose `roundId` goes into the journal's round index (terms/round-terms.ts: the upstream reads a round by them too). */
export const ROUND_TYPES: ReadonlySet<string> = ROUND_ENTRY_TYPES;

/** The round an entry belongs to, as the journal's `round_id` column holds it. */
export function roundIdOf(type: EntryType, payload: Record<string, unknown>): string | null {
  return ROUND_TYPES.has(type) && typeof payload.roundId === 'string' ? payload.roundId : null;
}

/**
 * The payload through its type's schema, and the transaction id's rules: a money entry needs
 * one, and it is printable ASCII of at most 128 characters. Throws `LedgerRefusal`.
 */
export function admitEntry(type: EntryType, payload: unknown, txId: string | undefined): Record<string, unknown> {
  let parsed: Record<string, unknown>;
  try {
    parsed = parsePayload(type, payload) as Record<string, unknown>;
  } catch (err) {
    throw new LedgerRefusal('invalid-payload', `${type}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (MONEY_TYPES.has(type) && !txId) throw new LedgerRefusal('tx-id-required', `${type} moves credit and needs a transaction id`);
  if (txId !== undefined && !/^[\x21-\x7e]{1,128}$/.test(txId)) throw new LedgerRefusal('bad-tx-id', `bad transaction id "${txId}"`);
  // A transfer's entries go under the ids its steps share (a decision, a closing), so a second one is refused.
  if (isTransferEntryType(type)) {
    const expected = txIdOfTransferEntry(parseTransferEntry(type, parsed));
    if (txId !== expected) throw new LedgerRefusal('bad-tx-id', `${type} goes under transaction id ${expected}, not ${txId ?? 'none'}`);
  }
  // A ticket's steps share ids too (ledger/ticket-postings.ts): printed and voided one end, one credit per ticket.
  const expected = txIdOfTicketJournal(type, parsed);
  if (expected !== undefined && txId !== expected)
    throw new LedgerRefusal('bad-tx-id', `${type} goes under transaction id ${expected ?? '?'}, not ${txId ?? 'none'}`);
  return parsed;
}

/** The body's canonical JSON, exactly as the journal stores and hashes it. */
export function bodyText(
  terminal: string,
  head: { seq: number; ts: string; tzOffsetMin: number; type: EntryType; txId: string | undefined },
  payload: Record<string, unknown>,
  d: Derived,
): string {
  const body: EntryBody = {
    v: 1,
    terminal,
    seq: head.seq,
    ts: head.ts,
    tzOffsetMin: head.tzOffsetMin,
    type: head.type,
    ...(head.txId ? { txId: head.txId } : {}),
    payload,
    postings: d.postings,
    meters: d.meters,
    ...(d.credits.length ? { credits: d.credits } : {}),
  };
  return canonicalJson(body);
}

function sum(xs: readonly number[]): number {
  let t = 0;
  for (const x of xs) {
    t += x;
    if (!Number.isSafeInteger(t)) throw new LedgerRefusal('overflow', 'amount overflows safe integers');
  }
  return t;
}

/**
 * The postings (which balance), meter deltas and credits of an entry whose payload `admitEntry`
 * checked, against the ledger as `view` shows it before the entry. Throws `LedgerRefusal` for
 * what the accounts forbid (a credit below zero, a bet on a closed round, a settlement that does
 * not settle every stake, a handpay paid twice…).
 */
export function derive(view: LedgerView, type: EntryType, payload: Record<string, unknown>): Derived {
  const deriver = Object.hasOwn(DERIVERS, type) ? (DERIVERS[type] as AnyDeriver) : undefined;
  if (!deriver) throw new LedgerRefusal('unknown-type', `unknown entry type ${String(type)}`);
  const d = new Derivation(view);
  deriver(d, payload, type);
  return { postings: d.postings, meters: d.meters, credits: d.credits, projection: d.projection };
}

/** What one entry's derivation has written so far, against the ledger before it. */
class Derivation {
  readonly postings: Posting[] = [];
  readonly meters: MeterDelta[] = [];
  readonly credits: [number, number, number][] = [];
  projection: Projection = null;

  constructor(readonly view: LedgerView) {}

  /** A meter of the station and the same of the table. */
  both(station: number, name: string, delta: number): void {
    if (delta === 0) return;
    this.meters.push([`station:${station}`, name, delta], ['table', name, delta]);
  }

  post(acct: string, amount: number): void {
    if (amount !== 0) this.postings.push([acct, amount]);
  }

  /** The station's credit moves by `change`, refused below zero; `before`: its credit before, when not now's (a round's bets are journalled already). */
  creditChange(station: number, change: number, before = this.view.credit(station)): void {
    const now = this.view.credit(station);
    const after = now + change;
    if (after < 0) throw new LedgerRefusal('insufficient-credit', `station ${station} has ${now}, needs ${-change}`);
    this.credits.push([station, before, after]);
  }

  /** The ticket entries' view of it (ledger/ticket-postings.ts). */
  ticketSink(): TicketSink {
    return {
      post: (acct, amount) => this.post(acct, amount),
      both: (station, name, delta) => this.both(station, name, delta),
      creditChange: (station, change) => this.creditChange(station, change),
      stationCredit: account.stationCredit,
    };
  }
}

/** What an entry of type `T` derives, into `d`. */
type Deriver<T extends EntryType> = (d: Derivation, p: Payload<T>, type: T) => void;
type AnyDeriver = (d: Derivation, p: Record<string, unknown>, type: EntryType) => void;

/** Journalled, never accounting. */
const nothing = (): void => {};

const tableMeter =
  (name: string) =>
  (d: Derivation): void => {
    d.meters.push(['table', name, 1]);
  };

const ticketEntry = (d: Derivation, p: Record<string, unknown>, type: Parameters<typeof deriveTicketJournal>[1]): void =>
  deriveTicketJournal(d.view, type, p, d.ticketSink());

/** Each entry type's derivation. */
const DERIVERS: { readonly [T in EntryType]: Deriver<T> } = {
  // Journalled, never accounting (with service mode's and AFT registration's, 0x73: docs/sas.md).
  'bill.escrow': nothing,
  'bill.refused': nothing,
  'door.close': nothing,
  'tilt.raise': nothing,
  'tilt.clear': nothing,
  'aft.register': nothing,
  'service.enter': nothing,
  'service.exit': nothing,
  'service.denied': nothing,
  'service.account': nothing,
  'station.credential': nothing,
  'peer.credential': nothing,
  'service.test': nothing,
  'service.action': nothing,
  'bill.return': (d, p) => checkEscrow(d.view, p),
  'cashbox.drop': (d, p) => checkDrop(p),
  'bill.credit': billCredit,
  'bet.place': placeBet,
  'round.settle': closeRound,
  'round.void': closeRound,
  misread: tableMeter('misreads'),
  'jackpot.reset': resetJackpot,
  'jackpot.settle': settleJackpot,
  'held.return': returnHeld,
  'credit.cancel': cancelCredit,
  'handpay.request': requestHandpay,
  'handpay.confirm': confirmHandpay,
  'door.open': (d, p) => {
    if (p.station !== undefined) d.both(p.station, 'doorOpens', 1);
    else d.meters.push(['table', 'doorOpens', 1]);
  },
  'power.reset': tableMeter('powerResets'),
  'config.change': tableMeter('configChanges'),
  // The rule set's authorisation on record, a change refused: no money, no meter.
  'rules.record': nothing,
  'config.refused': nothing,
  // Round progress for recovery: no money, no meter (the settlement counts the games).
  'card.read': nothing,
  'round.decision': nothing,
  'shoe.change': nothing,
  'table.input': nothing,
  'transfer.out': sendTransfer,
  'transfer.recall': (d, p) => {
    openTransfer(d.view, p.id);
  },
  'transfer.complete': closeTransfer,
  'transfer.reverse': closeTransfer,
  'transfer.in': receiveTransfer,
  'transfer.alarm': nothing,
  'aft.in': aftTransfer,
  'aft.out': aftTransfer,
  'transfer.refuse': (d, p) => {
    if (d.view.entryByTx(transferTxId('decide', p.id))) throw new LedgerRefusal('transfer-decided', `${transferTxId('decide', p.id)} is already decided`);
  },
  'ticket.issue': ticketEntry,
  'ticket.printed': ticketEntry,
  'ticket.void': ticketEntry,
  'ticket.redeem.request': ticketEntry,
  'ticket.redeem.approved': ticketEntry,
  'ticket.redeem.stacked': ticketEntry,
  'ticket.redeem.returned': ticketEntry,
  'ticket.validation.request': ticketEntry,
  'ticket.validation.end': ticketEntry,
  // The validation id an authority gave the table: a record the numbering reads, no money.
  'ticket.machine-id': nothing,
  'meter.clear': (d, p) => {
    for (const m of d.view.meters(p.scope)) {
      if (m.value !== 0) d.meters.push([p.scope, m.name, -m.value]);
    }
  },
};

function billCredit(d: Derivation, p: Payload<'bill.credit'>): void {
  checkEscrow(d.view, p);
  d.creditChange(p.station, p.denomination);
  d.post(account.cashbox(p.station, p.denomination), p.denomination);
  d.post(account.stationCredit(p.station), -p.denomination);
  d.both(p.station, `billsIn.${p.denomination}`, 1);
  d.both(p.station, 'totalBillsIn', p.denomination);
  d.both(p.station, 'totalIn', p.denomination);
}

function placeBet(d: Derivation, p: Payload<'bet.place'>): void {
  if (d.view.roundClosed(p.roundId)) throw new LedgerRefusal('round-closed', `round ${p.roundId} is already closed`);
  const total = sum(p.bets.map((b) => b.amount));
  const before = d.view.credit(p.station);
  d.creditChange(p.station, -total);
  d.post(account.stationCredit(p.station), total);
  d.post(account.wagers(p.station), -total);
  d.both(p.station, 'creditsWagered', total);
  d.projection = { kind: 'bet', roundId: p.roundId, station: p.station, amount: total, creditBefore: before, bets: p.bets };
}

/**
 * Per station of a closing round: the stake back from this round's wagers, the stake back from
 * held bets (carried lines), the net, what of this round's wagers stays held past it, and what
 * of the return an attendant pays by hand (a jackpot award above the table's handpay amount).
 */
interface Returned {
  stake: number;
  carried: number;
  net: number;
  heldOut: number;
  handpay: number;
  /** False for a station the settlement names not dealt in (`notDealtIn`): no game of its own is counted. */
  dealt: boolean;
}

function closeRound(d: Derivation, p: Payload<'round.settle'> | Payload<'round.void'>, type: 'round.settle' | 'round.void'): void {
  const closing = type === 'round.settle' ? { type, payload: p as Payload<'round.settle'> } : { type, payload: p as Payload<'round.void'> };
  if (d.view.roundClosed(p.roundId)) throw new LedgerRefusal('round-closed', `round ${p.roundId} is already closed`);
  const wagered = new Map(d.view.roundStakes(p.roundId).map((b) => [b.station, b.amount]));
  const returned = closing.type === 'round.settle' ? settledReturns(closing.payload, wagered) : voidedReturns(wagered);
  for (const [s, amount] of wagered) {
    const r = returned.get(s);
    if (!r || sum([r.stake, r.heldOut]) !== amount) {
      throw new LedgerRefusal(
        'unbalanced-round',
        `station ${s} wagered ${amount} in round ${p.roundId} but the lines stake ${r?.stake ?? 0}${r?.heldOut ? ` and ${r.heldOut} stays held` : ''}`,
      );
    }
  }
  postReturns(d, type, p.roundId, wagered, returned);
  d.projection = { kind: 'close', roundId: p.roundId, closing };
}

/** What a settlement's lines and held stakes return per station. */
function settledReturns(p: Payload<'round.settle'>, wagered: ReadonlyMap<number, number>): Map<number, Returned> {
  const returned = new Map<number, Returned>();
  const of = (s: number) => returned.get(s) ?? { stake: 0, carried: 0, net: 0, heldOut: 0, handpay: 0, dealt: true };
  for (const l of p.lines) {
    if (l.net < -l.stake) throw new LedgerRefusal('bad-line', `seat ${l.seat} ${l.bet}: loses more than its stake`);
    if (!wagered.has(l.station) && !l.carried) throw new LedgerRefusal('bad-line', `station ${l.station} has no bet in round ${p.roundId}`);
    const handpay = l.handpay ?? 0;
    if (handpay > l.stake + l.net) throw new LedgerRefusal('bad-line', `seat ${l.seat} ${l.bet}: hand pays ${handpay}, more than the line returns`);
    const r = of(l.station);
    const paid = { net: sum([r.net, l.net]), handpay: sum([r.handpay, handpay]) };
    returned.set(l.station, l.carried ? { ...r, ...paid, carried: sum([r.carried, l.stake]) } : { ...r, ...paid, stake: sum([r.stake, l.stake]) });
  }
  for (const h of p.held ?? []) {
    if (!wagered.has(h.station)) throw new LedgerRefusal('bad-line', `station ${h.station} holds a stake but has no bet in round ${p.roundId}`);
    const r = of(h.station);
    returned.set(h.station, { ...r, heldOut: sum([r.heldOut, h.amount]) });
  }
  if (p.notDealtIn !== undefined) markNotDealtIn(p, wagered, returned);
  return returned;
}

/**
 * The stations a settlement names not dealt in: each has lines and bet nothing in the round, and
 * they are all of those (a settlement that names any names every one), ascending. A settlement
 * without the list (the journals written before it) counts a game for every station with a line.
 */
function markNotDealtIn(p: Payload<'round.settle'>, wagered: ReadonlyMap<number, number>, returned: Map<number, Returned>): void {
  const listed = p.notDealtIn ?? [];
  const expected = [...returned.keys()].filter((s) => !wagered.has(s)).sort((a, b) => a - b);
  if (listed.join() !== expected.join())
    throw new LedgerRefusal(
      'bad-line',
      `round ${p.roundId} names stations ${listed.join(', ')} not dealt in; the stations with lines and no bet are ${expected.join(', ') || 'none'}`,
    );
  for (const s of listed) {
    const r = returned.get(s);
    if (r) returned.set(s, { ...r, dealt: false });
  }
}

/** A void returns every stake. */
function voidedReturns(wagered: ReadonlyMap<number, number>): Map<number, Returned> {
  const returned = new Map<number, Returned>();
  for (const [s, amount] of wagered) returned.set(s, { stake: amount, carried: 0, net: 0, heldOut: 0, handpay: 0, dealt: true });
  return returned;
}

/** A closing round's returns to each station's credit, stations ascending, and the house's side. */
function postReturns(
  d: Derivation,
  type: 'round.settle' | 'round.void',
  roundId: string,
  wagered: ReadonlyMap<number, number>,
  returned: ReadonlyMap<number, Returned>,
): void {
  const view = d.view;
  let house = 0;
  for (const [s, r] of [...returned].sort((a, b) => a[0] - b[0])) {
    if (r.carried > view.heldBets(s))
      throw new LedgerRefusal('bad-line', `station ${s} has ${view.heldBets(s)} held, not the ${r.carried} its carried lines stake`);
    const back = sum([r.stake, r.carried, r.net]);
    // What is paid by hand stays with the house here; its `handpay.request` moves it to the attendant.
    const credited = sum([back, -r.handpay]);
    d.creditChange(s, credited, wagered.has(s) ? view.creditBefore(roundId, s) : undefined);
    d.post(account.wagers(s), sum([r.stake, r.heldOut]));
    d.post(account.heldBets(s), sum([r.carried, -r.heldOut]));
    d.post(account.stationCredit(s), -credited);
    house = sum([house, r.net, -r.handpay]);
    if (type === 'round.settle') {
      // What the lines paid back is coin out whether or not the station played: a stake held from an
      // earlier round (its coin in then) comes back through the credit meter here.
      d.both(s, 'creditsWon', credited);
      // A game is one the station wagered on (SAS's games played): a station not dealt in played none.
      if (r.dealt) {
        d.meters.push([`station:${s}`, 'gamesPlayed', 1]);
        d.meters.push([`station:${s}`, r.net > 0 ? 'gamesWon' : r.net < 0 ? 'gamesLost' : 'gamesTied', 1]);
      }
    } else {
      d.both(s, 'voidRefunds', r.stake);
    }
  }
  d.post(account.house, house);
  d.meters.push(['table', type === 'round.settle' ? 'gamesPlayed' : 'voidedRounds', 1]);
}

/**
 * Held stakes given back to the credit outside a round (the table opened afresh): at most what the
 * station holds. Metered as a refund of a wager (`voidRefunds`): the game they were wagered on was
 * never decided.
 */
function returnHeld(d: Derivation, p: Payload<'held.return'>): void {
  const held = d.view.heldBets(p.station);
  if (p.amount > held) throw new LedgerRefusal('bad-line', `station ${p.station} has ${held} held, not the ${p.amount} returned`);
  d.creditChange(p.station, p.amount);
  d.post(account.heldBets(p.station), p.amount);
  d.post(account.stationCredit(p.station), -p.amount);
  d.both(p.station, 'voidRefunds', p.amount);
}

function resetJackpot(d: Derivation, p: Payload<'jackpot.reset'>): void {
  if (p.witness === p.who) throw new LedgerRefusal('jackpot-mismatch', 'a jackpot reset needs two people');
  const acct = account.jackpotPool(p.level);
  const pool = -d.view.balance(acct);
  // What the pool holds is the players': a reset only adds to it.
  if (p.to < pool) throw new LedgerRefusal('jackpot-mismatch', `level ${p.level} holds ${pool}: a reset to ${p.to} would take from the players`);
  const delta = p.to - pool;
  d.post(acct, -delta);
  d.post(account.house, delta);
  if (delta > 0) d.meters.push(['table', `progressiveSeeds.${p.level}`, delta]);
  d.meters.push(['table', `progressiveResets.${p.level}`, 1]);
}

function settleJackpot(d: Derivation, p: Payload<'jackpot.settle'>): void {
  if (!d.view.roundClosed(p.roundId)) throw new LedgerRefusal('jackpot-mismatch', `round ${p.roundId} is not settled: its jackpot cannot be`);
  let house = 0;
  for (const l of p.levels) {
    const acct = account.jackpotPool(l.level);
    const pool = -d.view.balance(acct);
    if (sum([pool, l.funded]) !== l.before)
      throw new LedgerRefusal('jackpot-mismatch', `level ${l.level}: the ledger holds ${pool} (+${l.funded} funded now), the table ${l.before}`);
    // Rounding equal shares up (rule 50 b)) costs the house less than one unit a sharer.
    const rounding = l.rounding ?? 0;
    if (rounding > 0 && rounding >= l.hits) throw new LedgerRefusal('jackpot-mismatch', `level ${l.level}: a rounding of ${rounding} for ${l.hits} hits`);
    if (l.award > sum([l.before, l.contribution, rounding])) throw new LedgerRefusal('jackpot-mismatch', `level ${l.level}: awards ${l.award} exceed the pool`);
    if (sum([l.before, l.contribution, rounding, -l.award, l.seed]) !== l.after)
      throw new LedgerRefusal('jackpot-mismatch', `level ${l.level}: ${l.before} + ${l.contribution} + ${rounding} − ${l.award} + ${l.seed} is not ${l.after}`);
    // The pool grows by what the house moves to it: funding, the chips' increment, the rounding
    // of shared awards and the reset seed; it pays the awards back to the house, which paid them.
    const delta = sum([l.funded, l.contribution, rounding, -l.award, l.seed]);
    d.post(acct, -delta);
    house = sum([house, delta]);
    const m = (name: string, v: number) => {
      if (v !== 0) d.meters.push(['table', `${name}.${l.level}`, v]);
    };
    m('progressiveContributions', l.contribution);
    m('progressiveHits', l.hits);
    m('progressiveWins', l.award);
    m('progressiveSeeds', sum([l.funded, l.seed]));
    m('progressiveRounding', rounding);
  }
  d.post(account.house, house);
}

function cancelCredit(d: Derivation, p: Payload<'credit.cancel'>): void {
  d.creditChange(p.station, -p.amount);
  d.post(account.stationCredit(p.station), p.amount);
  d.post(account.handpayPending(p.station), -p.amount);
  d.both(p.station, 'cancelledCredits', p.amount);
}

function requestHandpay(d: Derivation, p: Payload<'handpay.request'>): void {
  d.post(account.house, p.amount);
  d.post(account.handpayPending(p.station), -p.amount);
}

function confirmHandpay(d: Derivation, p: Payload<'handpay.confirm'>): void {
  const req = d.view.entryByTx(p.requestTxId);
  if (!req || (req.type !== 'credit.cancel' && req.type !== 'handpay.request')) {
    throw new LedgerRefusal('no-handpay', `no pending handpay with transaction id ${p.requestTxId}`);
  }
  const rp = (JSON.parse(req.body) as EntryBody).payload as { station: number; amount: number };
  if (rp.station !== p.station || rp.amount !== p.amount) {
    throw new LedgerRefusal('handpay-mismatch', `handpay ${p.requestTxId} is ${rp.amount} at station ${rp.station}`);
  }
  if (d.view.handpayPaid(p.requestTxId)) throw new LedgerRefusal('handpay-paid', `handpay ${p.requestTxId} was already paid`);
  d.post(account.handpayPending(p.station), p.amount);
  d.post(account.cage, -p.amount);
  d.both(p.station, 'handpays', 1);
  d.both(p.station, req.type === 'credit.cancel' ? 'handpaidCancelledCredits' : 'jackpotHandpays', p.amount);
  d.both(p.station, 'totalOut', p.amount);
}

function sendTransfer(d: Derivation, p: Payload<'transfer.out'>): void {
  const t = p.transfer;
  d.creditChange(t.station, -t.amount);
  d.post(account.stationCredit(t.station), t.amount);
  d.post(account.transferInFlight(t.to), -t.amount);
}

function closeTransfer(d: Derivation, p: Payload<'transfer.complete'>, type: 'transfer.complete' | 'transfer.reverse'): void {
  const t = p.transfer;
  const debited = openTransfer(d.view, t.id);
  if (!sameTerms(debited, t)) throw new LedgerRefusal('transfer-mismatch', `${type} names other terms than the transfer.out of ${transferTxId('out', t.id)}`);
  d.post(account.transferInFlight(t.to), t.amount);
  if (type === 'transfer.complete') {
    d.post(account.tableSettlement(t.to), -t.amount);
  } else {
    d.creditChange(t.station, t.amount);
    d.post(account.stationCredit(t.station), -t.amount);
  }
}

function receiveTransfer(d: Derivation, p: Payload<'transfer.in'>): void {
  const t = p.transfer;
  if (d.view.entryByTx(transferTxId('decide', t.id))) throw new LedgerRefusal('transfer-decided', `${transferTxId('decide', t.id)} is already decided`);
  d.creditChange(t.station, t.amount);
  d.post(account.tableSettlement(t.from), t.amount);
  d.post(account.stationCredit(t.station), -t.amount);
}

/** AFT (docs/sas.md): the casino system's cashless account and the station's credit, each transfer once (its txId). */
function aftTransfer(d: Derivation, p: Payload<'aft.in'>, type: 'aft.in' | 'aft.out'): void {
  const into = type === 'aft.in' ? 1 : -1;
  d.creditChange(p.station, into * p.amount);
  d.post(account.aft(p.station), into * p.amount);
  d.post(account.stationCredit(p.station), -into * p.amount);
  d.both(p.station, type === 'aft.in' ? 'aftInAmount' : 'aftOutAmount', p.amount);
  d.both(p.station, type === 'aft.in' ? 'aftIn' : 'aftOut', 1);
}

/** The terms of a transfer this ledger debited and has not closed; else a refusal. */
function openTransfer(view: LedgerView, id: Transfer['id']): Transfer {
  const out = view.entryByTx(transferTxId('out', id));
  if (out?.type !== 'transfer.out') throw new LedgerRefusal('no-transfer', `no transfer.out under ${transferTxId('out', id)}`);
  if (view.entryByTx(transferTxId('close', id))) throw new LedgerRefusal('transfer-closed', `${transferTxId('close', id)} is already journalled`);
  return parsePayload('transfer.out', (JSON.parse(out.body) as EntryBody).payload).transfer;
}

/** A drop count's totals are its notes' sums, and its difference theirs: the record says one thing. */
function checkDrop(p: Payload<'cashbox.drop'>): void {
  const counted = sum(p.notes.map((n) => n.counted * n.denomination));
  const credited = sum(p.notes.map((n) => n.credited * n.denomination));
  if (new Set(p.notes.map((n) => n.denomination)).size !== p.notes.length) throw new LedgerRefusal('bad-drop', 'a face value is counted twice');
  if (counted !== p.counted || credited !== p.credited || p.difference !== counted - credited)
    throw new LedgerRefusal(
      'bad-drop',
      `the drop's totals (${p.counted} counted, ${p.credited} credited, ${p.difference}) are not its notes' (${counted}, ${credited})`,
    );
}

/** A credit or return that names its escrow must match it, and an escrow resolves once. */
function checkEscrow(view: LedgerView, p: { station: number; denomination: number; escrowSeq?: number | undefined }): void {
  if (p.escrowSeq === undefined) return;
  const e = view.entryAt(p.escrowSeq);
  if (!e || e.type !== 'bill.escrow') throw new LedgerRefusal('no-escrow', `entry ${p.escrowSeq} is not a bill escrow`);
  const ep = (JSON.parse(e.body) as EntryBody).payload as { station: number; denomination: number };
  if (ep.station !== p.station || ep.denomination !== p.denomination) {
    throw new LedgerRefusal('escrow-mismatch', `escrow ${p.escrowSeq} held ${ep.denomination} at station ${ep.station}`);
  }
  if (view.escrowResolved(p.escrowSeq)) throw new LedgerRefusal('escrow-resolved', `escrow ${p.escrowSeq} was already resolved`);
}
