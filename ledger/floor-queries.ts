import type Database from 'better-sqlite3';
import { tiltSaid, type TiltSaidPayload } from '../terms/said.js';
import { tableCurrency } from '../terms/payload-fields.js';
import { account, PAYLOADS } from './entries.js';
import { connectionOf, type EntryBody, type Ledger } from './ledger.js';
import { ESCROW_KEY, ESCROW_RESOLVED_SQL, ESCROW_TYPES } from './migrations.js';

// Read-only queries of the journal that the table host rebuilds its floor state from at start:
// the faults still raised, the handpays not yet paid, the configuration changes. The journal is
// the only record, so whatever was current at a kill is current again after the restart.

export interface OpenTilt {
  seq: number;
  ts: string;
  kind: string;
  station?: number;
  detail?: string;
  /** The detail as a key of the catalogues and its parameters, where the host worded it (terms/said.ts `tiltSaid`). */
  say?: TiltSaidPayload;
}

/** `tilt.raise` entries no `tilt.clear` names, oldest first. */
export function openTilts(ledger: Ledger): OpenTilt[] {
  return openTiltsOn(connectionOf(ledger));
}

/** `openTilts` on a connection of its own: a reader beside the host (ledger/reader.ts) asks it too. */
export function openTiltsOn(db: Database.Database): OpenTilt[] {
  const rows = db
    .prepare(
      `SELECT seq, ts, body FROM journal WHERE type = 'tilt.raise' AND seq NOT IN (
    SELECT json_extract(body, '$.payload.raisedSeq') FROM journal WHERE type = 'tilt.clear') ORDER BY seq`,
    )
    .all() as { seq: number; ts: string; body: string }[];
  return rows.map((r) => {
    const p = (JSON.parse(r.body) as EntryBody).payload as { kind: string; station?: number; detail?: string; say?: unknown };
    const say = p.say === undefined ? undefined : tiltSaid.safeParse(p.say);
    return {
      seq: r.seq,
      ts: r.ts,
      kind: p.kind,
      ...(p.station !== undefined ? { station: p.station } : {}),
      ...(p.detail !== undefined ? { detail: p.detail } : {}),
      ...(say?.success ? { say: say.data } : {}),
    };
  });
}

export interface PendingHandpay {
  requestTxId: string;
  seq: number;
  ts: string;
  station: number;
  amount: number;
  /** `credit.cancel` (a cash-out) or `handpay.request` (a jackpot, a win above the limit). */
  type: 'credit.cancel' | 'handpay.request';
  /** The currency the request named (absent before 7 December 2026): its payment names the same, whatever the table's is now. */
  currency?: string;
}

/** Cancelled credits and handpay requests with no `handpay.confirm`, oldest first. */
export function pendingHandpays(ledger: Ledger): PendingHandpay[] {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT seq, ts, type, tx_id, body FROM journal WHERE type IN ('credit.cancel', 'handpay.request')
    AND tx_id NOT IN (SELECT json_extract(body, '$.payload.requestTxId') FROM journal WHERE type = 'handpay.confirm') ORDER BY seq`,
    )
    .all() as { seq: number; ts: string; type: PendingHandpay['type']; tx_id: string; body: string }[];
  return rows.map((r) => {
    const p = (JSON.parse(r.body) as EntryBody).payload as { station: number; amount: number; currency?: unknown };
    const currency = tableCurrency.safeParse(p.currency);
    return {
      requestTxId: r.tx_id,
      seq: r.seq,
      ts: r.ts,
      type: r.type,
      station: p.station,
      amount: p.amount,
      ...(currency.success ? { currency: currency.data } : {}),
    };
  });
}

export interface JournalledConfigChange {
  seq: number;
  ts: string;
  key: string;
  before: unknown;
  after: unknown;
  who: string;
  witness?: string;
  authorisation: string;
  /** The day a rule set's authorisation takes effect, when the change gave one (issue 51). */
  effective?: string;
}

/** Every `config.change`, in order. */
export function configChanges(ledger: Ledger): JournalledConfigChange[] {
  const rows = connectionOf(ledger).prepare("SELECT seq, ts, body FROM journal WHERE type = 'config.change' ORDER BY seq").all() as {
    seq: number;
    ts: string;
    body: string;
  }[];
  return rows.map((r) => {
    const p = (JSON.parse(r.body) as EntryBody).payload as Omit<JournalledConfigChange, 'seq' | 'ts'>;
    return { seq: r.seq, ts: r.ts, ...p };
  });
}

export interface OpenServiceSession {
  /** The `service.enter` entry. */
  seq: number;
  who: string;
  staff: string;
}

/**
 * Service sessions entered and never exited: what a kill or a power cut left open. An exit names
 * its entry (`enterSeq`); an exit of an earlier version without one closes the latest open entry
 * of the same staff number.
 */
export function openServiceSessions(ledger: Ledger): OpenServiceSession[] {
  const rows = connectionOf(ledger).prepare("SELECT seq, type, body FROM journal WHERE type IN ('service.enter', 'service.exit') ORDER BY seq").all() as {
    seq: number;
    type: string;
    body: string;
  }[];
  const open: OpenServiceSession[] = [];
  for (const r of rows) {
    const p = (JSON.parse(r.body) as EntryBody).payload as { who: string; staff: string; enterSeq?: number };
    if (r.type === 'service.enter') {
      open.push({ seq: r.seq, who: p.who, staff: p.staff });
      continue;
    }
    const at = p.enterSeq !== undefined ? open.findIndex((o) => o.seq === p.enterSeq) : open.findLastIndex((o) => o.staff === p.staff);
    if (at >= 0) open.splice(at, 1);
  }
  return open;
}

/**
 * Devices a technician disabled in service mode and did not enable again: the last `service.test`
 * enable/disable of each device decides (only a done action is journalled).
 */
export function serviceDisabledDevices(ledger: Ledger): string[] {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT json_extract(body, '$.payload.device') AS device, json_extract(body, '$.payload.test') AS test
    FROM journal WHERE type = 'service.test' AND json_extract(body, '$.payload.test') IN ('enable', 'disable') ORDER BY seq`,
    )
    .all() as { device: string; test: string }[];
  const last = new Map<string, string>();
  for (const r of rows) last.set(r.device, r.test);
  return [...last].filter(([, test]) => test === 'disable').map(([device]) => device);
}

export interface PendingTableHold {
  seq: number;
  ts: string;
  /** The hold's reason as journalled (`extra-card`, `inventory`, `unreadable`, `ledger`…). */
  reason: string;
  card?: string;
  shoeSequence?: number;
  /** Reads that left the shoe after the hold began (`misread` with `duringHold`), in order. */
  readsDuringHold: HeldRead[];
}

/** A card, or an unreadable read (no card), that left the shoe while the table was on hold. */
export interface HeldRead {
  card?: string;
  shoeSequence?: number;
}

/**
 * The hold of the table outside any round (a `misread` with no round id) that nothing resolved
 * yet, or null. Only one hold stands at a time, so the newest such entry decides: `pending`, or
 * its resolution (`card-entered`, `round-void`). A hold of a round is the round's, rebuilt with it.
 *
 * Journals written before the lifting of such a hold was itself journalled show it only by what
 * came after: a supervisor's `void-round` service action, or bets of a later round (a held table
 * takes none).
 */
export function pendingTableHold(ledger: Ledger): PendingTableHold | null {
  // Reads during a hold are not holds of their own: the hold is the newest other entry.
  // Between rounds: no round, or the round just settled, whose results a late card held (its
  // hold carries that round's id: Macau 2009 Art. 6 1), Portugal rule 19).
  const row = connectionOf(ledger)
    .prepare(
      `SELECT seq, ts, round_id, body FROM journal WHERE type = 'misread'
    AND (round_id IS NULL OR round_id IN (SELECT round_id FROM rounds)) AND json_extract(body, '$.payload.duringHold') IS NULL
    ORDER BY seq DESC LIMIT 1`,
    )
    .get() as { seq: number; ts: string; round_id: string | null; body: string } | undefined;
  if (!row) return null;
  const p = (JSON.parse(row.body) as EntryBody).payload as { detail: string; resolution: string; card?: string; shoeSequence?: number[] };
  if (p.resolution !== 'pending') return null;
  const lifted = connectionOf(ledger)
    .prepare(
      `SELECT 1 FROM journal WHERE seq > ? AND (type = 'bet.place'
    OR (type = 'service.action' AND json_extract(body, '$.payload.action') = 'void-round')) LIMIT 1`,
    )
    .get(row.seq);
  if (lifted) return null;
  const shoeSequence = p.shoeSequence?.[0];
  const reads = (
    connectionOf(ledger)
      .prepare(
        `SELECT body FROM journal WHERE type = 'misread' AND seq > ?
    AND round_id IS ? AND json_extract(body, '$.payload.duringHold') = 1 ORDER BY seq`,
      )
      .all(row.seq, row.round_id) as { body: string }[]
  ).map((r) => heldRead((JSON.parse(r.body) as EntryBody).payload as { card?: string; shoeSequence?: number[] }));
  return {
    seq: row.seq,
    ts: row.ts,
    reason: p.detail,
    ...(p.card ? { card: p.card } : {}),
    ...(shoeSequence !== undefined ? { shoeSequence } : {}),
    readsDuringHold: reads,
  };
}

/** A `misread` entry of a read during a hold, as the card and the shoe's sequence number. */
export function heldRead(p: { card?: string; shoeSequence?: number[] }): HeldRead {
  const shoeSequence = p.shoeSequence?.[0];
  return { ...(p.card ? { card: p.card } : {}), ...(shoeSequence !== undefined ? { shoeSequence } : {}) };
}

/**
 * The back office's requests this journal has answered (issue 49 item 6): carried out
 * (`config.change` naming the order) or refused (`config.refused`). An order already answered is
 * never carried out again, whoever delivers it again.
 */
export function answeredOrders(ledger: Ledger): Set<number> {
  const rows = connectionOf(ledger)
    .prepare(
      "SELECT json_extract(body, '$.payload.order') AS o FROM journal WHERE type IN ('config.change', 'config.refused') AND json_extract(body, '$.payload.order') IS NOT NULL",
    )
    .all() as { o: number }[];
  return new Set(rows.map((r) => Number(r.o)));
}

/**
 * Whether the journal holds back-office order `id` made: its `config.change`, and when
 * `withRecord`, the `rules.record` that names that change (a rule set switched at a shoe is put in
 * effect only after both are journalled: host/config/config-changes.ts `switchRuleSet`). Asked when
 * a write failed part way through making the order (host/floor/remote-config.ts).
 */
export function orderJournalled(ledger: Ledger, id: number, withRecord: boolean): boolean {
  const db = connectionOf(ledger);
  const changes = db.prepare("SELECT seq FROM journal WHERE type = 'config.change' AND json_extract(body, '$.payload.order') = ?").all(id) as { seq: number }[];
  if (!withRecord) return changes.length > 0;
  const record = db.prepare("SELECT 1 FROM journal WHERE type = 'rules.record' AND json_extract(body, '$.payload.changeSeq') = ? LIMIT 1");
  return changes.some((c) => record.get(c.seq) !== undefined);
}

/**
 * The newest back-office order made of each setting: the highest order id a `config.change` of
 * that key names. An older order of the same setting, delivered after it (held back on the way),
 * would undo the newer one: the table refuses it (host/floor/remote-config.ts).
 */
export function newestOrderMade(ledger: Ledger): Map<string, number> {
  const rows = connectionOf(ledger)
    .prepare(
      `SELECT json_extract(body, '$.payload.key') AS k, MAX(json_extract(body, '$.payload.order')) AS o FROM journal
       WHERE type = 'config.change' AND json_extract(body, '$.payload.order') IS NOT NULL GROUP BY k`,
    )
    .all() as { k: string; o: number }[];
  return new Map(rows.map((r) => [String(r.k), Number(r.o)]));
}

/** A credit journalled for a note, with the escrow it resolved. */
export interface LastNoteCredit {
  seq: number;
  credit: { station: number; device: string; denomination: number; currency: string; escrowSeq?: number };
  /** The driver's id of the note's escrow, as the escrow entry named it (absent in older entries). */
  escrowId: string | null;
}

/**
 * The last note entry (`bill.escrow`, `bill.credit`, `bill.return`) journalled for `device`, when it
 * is a credit; null otherwise (no note yet, or the last one still in escrow or returned). A host
 * that stopped after journalling that credit may not have acknowledged it to the unit.
 */
export function lastNoteCredit(ledger: Ledger, device: string): LastNoteCredit | null {
  const row = connectionOf(ledger)
    .prepare(
      `SELECT seq, type, body FROM journal WHERE type IN ('bill.escrow', 'bill.credit', 'bill.return')
      AND json_extract(body, '$.payload.device') = ? ORDER BY seq DESC LIMIT 1`,
    )
    .get(device) as { seq: number; type: string; body: string } | undefined;
  if (!row || row.type !== 'bill.credit') return null;
  const credit = PAYLOADS['bill.credit'].parse((JSON.parse(row.body) as EntryBody).payload);
  const escrow = credit.escrowSeq !== undefined ? ledger.entry(credit.escrowSeq) : undefined;
  const escrowed = escrow?.type === 'bill.escrow' ? PAYLOADS['bill.escrow'].safeParse((JSON.parse(escrow.body) as EntryBody).payload) : null;
  return { seq: row.seq, credit, escrowId: escrowed?.success ? (escrowed.data.escrowId ?? null) : null };
}

/** The `bill.escrow` entries no credit or return resolves, oldest first (`seq`, `body`). */
// Each escrow a lookup in migration 11's index. `e.seq + 0`, not `e.seq`: compared with the
// column, whose INTEGER affinity the expression lacks, SQLite will not search the index on the
// expression and walks every credit and return ever journalled instead (EXPLAIN QUERY PLAN).
export const UNRESOLVED_ESCROWS = `SELECT e.seq, e.body FROM journal AS e WHERE e.type = 'bill.escrow' AND NOT EXISTS (
      SELECT 1 FROM journal WHERE ${ESCROW_TYPES} AND ${ESCROW_KEY} = e.seq + 0) ORDER BY e.seq`;

/** Whether the note journalled in escrow at `seq` is credited or returned: one lookup in the index. */
export function escrowResolved(ledger: Ledger, seq: number): boolean {
  return connectionOf(ledger).prepare(ESCROW_RESOLVED_SQL).get(seq) !== undefined;
}

/**
 * Whether the acceptor has left the note journalled in escrow at `seq`, as the journal shows: a
 * later note was journalled in escrow at its `device`, resolved or not (an acceptor holds one note
 * at a time, so it has moved on from that one), or since then its station's `bill-jam` fault was
 * raised (the driver forgot the note at the jam and an attendant took it out: the unit's next word
 * is not about it; as a ticket's, `acceptorMovedOnSince`), or its `bill-cheat` fault naming this
 * note's `escrowId` (the unit broke its protocol over it: its word on it is not taken again after a
 * restart either; a violation naming no note, or another, leaves it the acceptor's). A range scan
 * from `seq` (the escrow asked about is recent, or rare).
 */
export function noteLeftSince(ledger: Ledger, at: { device: string; station: number; escrowId?: string | undefined }, seq: number): boolean {
  const row = connectionOf(ledger)
    .prepare(
      `SELECT 1 FROM journal WHERE seq > ? AND ((type = 'bill.escrow' AND json_extract(body, '$.payload.device') = ?)
         OR (type = 'tilt.raise' AND json_extract(body, '$.payload.station') = ? AND (json_extract(body, '$.payload.kind') = 'bill-jam'
           OR (json_extract(body, '$.payload.kind') = 'bill-cheat' AND json_extract(body, '$.payload.say.values.escrow') = ?)))) LIMIT 1`,
    )
    .get(seq, at.device, at.station, at.escrowId ?? null);
  return row !== undefined;
}

/** A note journalled in escrow and neither credited nor returned. */
export interface UnresolvedEscrow {
  seq: number;
  station: number;
  device: string;
  denomination: number;
  currency: string;
  escrowId?: string;
}

/** One row of `UNRESOLVED_ESCROWS`, read: for the owner's queries and for a reader beside a running host. */
export function unresolvedEscrowOf(r: { seq: number; body: string }): UnresolvedEscrow {
  const p = PAYLOADS['bill.escrow'].parse((JSON.parse(r.body) as EntryBody).payload);
  return {
    seq: r.seq,
    station: p.station,
    device: p.device,
    denomination: p.denomination,
    currency: p.currency,
    ...(p.escrowId ? { escrowId: p.escrowId } : {}),
  };
}

/**
 * Notes journalled in escrow and neither credited nor returned: after a power cut mid-stack
 * the host asks the acceptor what became of each and journals the credit or the return.
 */
export function unresolvedEscrows(ledger: Ledger): UnresolvedEscrow[] {
  const rows = connectionOf(ledger).prepare(UNRESOLVED_ESCROWS).all() as { seq: number; body: string }[];
  return rows.map(unresolvedEscrowOf);
}

/** What one station's open winning-streak stakes hold (its `held:<n>` account), never below 0. */
export function heldStakeOf(ledger: Ledger, station: number): number {
  return Math.max(0, 0 - ledger.balance(account.heldBets(station)));
}

/**
 * What the ledger holds past their rounds, per station (`held:<n>`: winning-streak stakes), the
 * stations holding nothing left out: every such account, whether or not the configuration still
 * names its station (a table opening afresh returns them all, host/table/start-table.ts).
 */
export function heldStakes(ledger: Ledger): Record<number, number> {
  const rows = connectionOf(ledger).prepare("SELECT account, balance FROM balances WHERE account LIKE 'held:%' AND balance < 0").all() as {
    account: string;
    balance: number;
  }[];
  const held: Record<number, number> = {};
  for (const r of rows) {
    const station = Number(r.account.slice(r.account.indexOf(':') + 1));
    // Only an account the ledger names so: `account.heldBets` of the number read back.
    if (Number.isSafeInteger(station) && account.heldBets(station) === r.account) held[station] = 0 - r.balance;
  }
  return held;
}
