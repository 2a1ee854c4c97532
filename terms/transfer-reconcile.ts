import { keyOf, sameTerms, type TableId, type Transfer, type TransferEntry, type TransferId, type TransferSettlement } from './transfer-terms.js';

// Every transfer id paired across the ledgers of the tables it names: what the sender's journal
// says of it beside what the receiver's says. Two honest hosts always agree (docs/transfers.md);
// each disagreement is a host that answered otherwise than it journalled, or journalled what it
// never answered, and is named here with the money it made or lost.

export type SenderSide = 'none' | 'open' | 'completed' | 'reversed';
export type ReceiverSide = 'none' | 'taken' | 'refused';

export const TRANSFER_DISAGREEMENTS = [
  /** The sender completed (it heard "taken") and the receiver's journal has no credit: the station lost it. */
  'completed-not-taken',
  /** The receiver credited it and the sender reversed it (it heard "never took it"): credited twice. */
  'taken-and-reversed',
  /** The sender reversed it and the receiver never journalled its refusal: it could still take it. */
  'reversed-not-refused',
  /** The receiver credited an id its origin never debited. */
  'taken-not-sent',
  /** Both journalled the id, with different terms. */
  'terms-differ',
  /**
   * The receiver credited the id and a refusal of it is journalled too, by any table (issue 50: a
   * sender that recalls at a third table an id it offered to another). Never an honest pair's.
   */
  'taken-and-refused',
  /**
   * A table other than the transfer's receiver refused the id: an honest sender recalls only at its
   * receiver, so its origin asked elsewhere. The refusal is not the receiver's and counts for nothing.
   */
  'refused-by-other',
  /**
   * A table the origin's debit was not offered to credited the id (a review of the upstream, F2: a
   * table whose key leaked crediting an honest table's ids): money made there, counted in `net`.
   */
  'taken-by-other',
  /**
   * A table other than the id's origin journalled a sender's part of it (a debit, a completion, a
   * reversal): only the origin mints its ids, so no honest host ever does. Counts for nothing.
   */
  'sender-part-by-other',
  /**
   * The origin's own entries of the id contradict each other: a second debit, a closing with no
   * debit before it or on other terms, a second closing. Its ledger refuses each; only the first
   * debit and the first closing on its terms count.
   */
  'sender-contradicts',
] as const;
export type TransferDisagreement = (typeof TRANSFER_DISAGREEMENTS)[number];

export interface PairedTransfer {
  readonly id: TransferId;
  /** The sender's terms (its `transfer.out`), else the receiver's. */
  readonly transfer: Transfer;
  readonly sender: SenderSide;
  readonly receiver: ReceiverSide;
  /**
   * The credit this id added across the ledgers, in minor units: 0 when the two sides agree (the
   * debit at the sender is the credit at the receiver, or is still in flight, or came back).
   */
  readonly net: number;
  readonly disagreements: readonly TransferDisagreement[];
  /** Every table that journalled an entry of the id, sorted. */
  readonly tables: readonly TableId[];
  /** The tables that journalled a sender's part of an id not theirs (`sender-part-by-other`), sorted. */
  readonly impostors: readonly TableId[];
  /**
   * The tables whose credit of the id is out of place, sorted: a credit of an id the origin's debit
   * offered to another (`taken-by-other`: no honest table takes an offer not made to it), and a
   * credit with no debit (`taken-not-sent`: the sender lied to it, or it credited itself, which no
   * journal tells apart). The upstream alarms under each. A refusal by another table is not: an
   * honest table refuses an id it never saw when its origin recalls it there (`refused-by-other`,
   * the recall trick), so that alarm stays the sender's.
   */
  readonly outOfPlace: readonly TableId[];
  /** The origin's closing was two people's settlement, not its receiver's word: their names and reference. */
  readonly settled?: TransferSettlement;
}

interface Sides {
  out?: Transfer;
  sender: SenderSide;
  /** Each table's first credit of the id on terms naming it the receiver. */
  credits: Map<TableId, Transfer>;
  /** The tables that journalled a refusal of the id (only the receiver's counts). */
  refusedBy: Set<TableId>;
  tables: Set<TableId>;
  impostors: Set<TableId>;
  /** The origin contradicted itself. */
  contradicts: boolean;
  /** The terms of the first sender's entry seen, believed or not: what a lie with nothing to pair is named by. */
  claimed?: Transfer;
  /** The believed closing's settlement by two people, if it was one. */
  settled?: TransferSettlement;
}

/** A sender's entry (debit or closing) of the id, believed only from its origin, and only in the order its ledger allows. */
function senderEntry(s: Sides, table: TableId, e: TransferEntry & { type: 'transfer.out' | 'transfer.complete' | 'transfer.reverse' }): void {
  const t = e.payload.transfer;
  s.claimed ??= t;
  if (t.id.origin !== table || t.from !== table) {
    s.impostors.add(table);
    return;
  }
  if (e.type === 'transfer.out') {
    if (s.out) s.contradicts = true;
    else Object.assign(s, { out: t, sender: 'open' });
    return;
  }
  if (!s.out || s.sender !== 'open' || !sameTerms(s.out, t)) {
    s.contradicts = true;
    return;
  }
  s.sender = e.type === 'transfer.complete' ? 'completed' : 'reversed';
  if (e.payload.settled) s.settled = e.payload.settled;
}

/**
 * The transfers named in the journals of the given tables, each paired, ids in first-seen order.
 * Each table is believed only about its own part (issue 50): the sender's entries count from the
 * id's origin (its sender, `from`), in the order its ledger allows (a debit, then one closing on its
 * terms), the credit from its receiver (`to`), and a refusal only from the receiver
 * and never over a credit; a credit beside anyone's refusal, or a refusal by another table, is a
 * disagreement. So the order the journals come in changes nothing.
 */
export function reconcile(journals: ReadonlyMap<TableId, readonly TransferEntry[]>): PairedTransfer[] {
  const byId = new Map<string, Sides & { id: TransferId }>();
  const sides = (id: TransferId) => {
    const k = keyOf(id);
    let s = byId.get(k);
    if (!s) byId.set(k, (s = { id, sender: 'none', credits: new Map(), refusedBy: new Set(), tables: new Set(), impostors: new Set(), contradicts: false }));
    return s;
  };
  for (const [table, journal] of journals) {
    for (const e of journal) {
      switch (e.type) {
        case 'transfer.out':
        case 'transfer.complete':
        case 'transfer.reverse':
          senderEntry(sides(e.payload.transfer.id), table, e);
          sides(e.payload.transfer.id).tables.add(table);
          break;
        case 'transfer.in':
          if (e.payload.transfer.to === table && !sides(e.payload.transfer.id).credits.has(table))
            sides(e.payload.transfer.id).credits.set(table, e.payload.transfer);
          sides(e.payload.transfer.id).tables.add(table);
          break;
        case 'transfer.refuse':
          sides(e.payload.id).refusedBy.add(table);
          sides(e.payload.id).tables.add(table);
          break;
        case 'transfer.recall':
        case 'transfer.alarm':
          break;
      }
    }
  }
  const paired: PairedTransfer[] = [];
  for (const s of byId.values()) {
    const { taken, others } = creditsOf(s);
    // A lie with nothing to pair (a debit journalled by another table, a closing with no debit) is named by its own terms.
    const transfer = s.out ?? taken ?? (s.impostors.size > 0 || s.contradicts ? s.claimed : undefined);
    if (!transfer) continue; // a refusal of an id nobody debited or credited: no money, nothing to pair
    const receiver: ReceiverSide = taken ? 'taken' : s.refusedBy.has(transfer.to) ? 'refused' : 'none';
    const d: TransferDisagreement[] = [];
    if (s.sender === 'completed' && receiver !== 'taken') d.push('completed-not-taken');
    if (s.sender === 'reversed' && receiver === 'taken') d.push('taken-and-reversed');
    // Two people settling a transfer as returned found its receiver silent (host/peers/host-transfers.ts):
    // no refusal is the honest pairing then; a credit there is still named (taken-and-reversed).
    if (s.sender === 'reversed' && receiver === 'none' && !s.settled) d.push('reversed-not-refused');
    if (s.sender === 'none' && receiver === 'taken') d.push('taken-not-sent');
    if (s.out && taken && !sameTerms(s.out, taken)) d.push('terms-differ');
    if (others.length > 0) d.push('taken-by-other');
    if (s.credits.size > 0 && s.refusedBy.size > 0) d.push('taken-and-refused');
    const refusedElsewhere = [...s.refusedBy].filter((t) => t !== transfer.to);
    if (refusedElsewhere.length > 0) d.push('refused-by-other');
    if (s.impostors.size > 0) d.push('sender-part-by-other');
    if (s.contradicts) d.push('sender-contradicts');
    const debited = s.out && s.sender !== 'reversed' ? s.out.amount : 0;
    const inFlight = s.out && s.sender === 'open' && receiver !== 'taken' ? s.out.amount : 0;
    const credited = (taken?.amount ?? 0) + others.reduce((sum, [, c]) => sum + c.amount, 0);
    const outOfPlace = new Set([...others.map(([t]) => t), ...(s.sender === 'none' && taken ? [taken.to] : [])]);
    const settled = s.settled ? { settled: s.settled } : {};
    paired.push({
      id: s.id,
      transfer,
      sender: s.sender,
      receiver,
      net: credited + inFlight - debited,
      disagreements: d,
      tables: [...s.tables].sort(),
      impostors: [...s.impostors].sort(),
      outOfPlace: [...outOfPlace].sort(),
      ...settled,
    });
  }
  return paired;
}

/**
 * The receiver's credit of the id, and the credits of tables the id was not offered to. With a
 * debit, its receiver's credit is the one, whatever order the journals were read in (a review of
 * the upstream, F2: the first read was believed, so another table's credit could hide it); with
 * none, the first by table id stands for it, and every other is named too.
 */
function creditsOf(s: Sides): { taken: Transfer | undefined; others: [TableId, Transfer][] } {
  const all = [...s.credits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const receiver = s.out?.to ?? all[0]?.[0];
  return { taken: receiver === undefined ? undefined : s.credits.get(receiver), others: all.filter(([t]) => t !== receiver) };
}

/**
 * The side of a transfer whose journal can still mend its pairing, or null. The table hosts sync
 * their ledgers to the upstream independently, so the upstream may see one end of a transfer
 * before the other; three disagreements are only an entry missing that causally precedes the one
 * seen, and the lagging end's later sync brings it: `taken-not-sent` (the sender journals its
 * `transfer.out` before it offers: awaits the sender), `completed-not-taken` with no decision at
 * the receiver (it journals its `transfer.in` before it answers "taken": awaits the receiver),
 * `reversed-not-refused` (it journals its refusal before it answers: awaits the receiver). A
 * completion the receiver refused, a credit reversed or terms that differ no later entry can
 * mend: null, as for a pairing that agrees.
 */
export function awaitedSide(p: PairedTransfer): 'sender' | 'receiver' | null {
  if (p.disagreements.length !== 1) return null;
  const [d] = p.disagreements;
  if (d === 'taken-not-sent' && p.sender === 'none') return 'sender';
  if ((d === 'completed-not-taken' || d === 'reversed-not-refused') && p.receiver === 'none') return 'receiver';
  return null;
}
