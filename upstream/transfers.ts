import { awaitedSide, reconcile, type PairedTransfer } from '../terms/transfer-reconcile.js';
import { isTransferEntryType, keyOf, parseTransferEntry, TableId, type TransferEntry } from '../terms/transfer-terms.js';
import { raiseAlarm } from './alarm.js';
import type { Sql } from './sql.js';

// Transfers of stations' credit between table hosts (docs/transfers.md), reconciled across the
// terminals' synced ledgers: every transfer id paired between its sender's journal and its
// receiver's by the same function the hosts' tests run (terms/transfer-reconcile.ts). A terminal
// is the table host whose ledger it syncs; its terminal id is the table id its peers know it by
// (the host's default: `terminalId` is the table's id).

/** The alarm kinds this raises (one open alarm per transfer id and kind). */
export const TRANSFER_ALARM_KINDS = ['transfer-open-too-long', 'transfer-disagreement'] as const;

/**
 * A table journalled a `transfer.alarm` (a peer's message it distrusted and refused: terms changed,
 * wrong currency, never sent there, a contradiction, a wrong link…): raised upstream once per entry,
 * at the next reconciliation after it synced (issue 50: before, none of them reached the floor).
 */
export const PEER_ALARM_KIND = 'transfer-peer-alarm';

export interface TransferWatch {
  /**
   * A transfer whose sender has journalled its debit and not its closing for longer than this is an
   * alarm; so is a one-sided disagreement (`pending`) whose missing end has not synced for as long.
   */
  readonly openAfterSeconds: number;
  /**
   * How far two tables' clocks may differ (default `DEFAULT_SKEW_MARGIN_SECONDS`): a one-sided
   * disagreement is an alarm once the terminal whose entry is missing has synced an entry journalled
   * at least this long after the entry seen, by its own clock.
   */
  readonly skewMarginSeconds?: number;
}

/** The clock skew between two tables' hosts the reconciliation allows unless told otherwise. */
export const DEFAULT_SKEW_MARGIN_SECONDS = 60;

export interface OpenTransfer {
  readonly transfer: PairedTransfer['transfer'];
  readonly receiver: PairedTransfer['receiver'];
  /** Since its debit was journalled (the sender's clock, as synced). */
  readonly openSeconds: number;
}

/**
 * A disagreement that the lagging end's later sync can still mend (`awaitedSide`), not yet an
 * alarm: the terminal whose entry is missing has not synced past the entry seen (+ the margin),
 * and it has not been `openAfterSeconds` since.
 */
export type PendingTransfer = PairedTransfer & {
  /** The terminal whose entry is awaited. */
  readonly awaiting: TableId;
  /** Since the entry seen was journalled (its terminal's clock, as synced). */
  readonly waitedSeconds: number;
};

export interface TransferReport {
  /** Transfer ids paired across the terminals. */
  readonly transfers: number;
  readonly completed: number;
  readonly reversed: number;
  /** Every transfer still open at its sender, and for how long. */
  readonly open: readonly OpenTransfer[];
  /**
   * Every id whose two journals disagree, with the money it made or lost across them (each an
   * alarm): at once when no later entry can mend it, else once its missing end is no longer expected.
   */
  readonly disagreements: readonly PairedTransfer[];
  /** Every one-sided disagreement still waiting for its lagging end's sync: reported, not alarmed. */
  readonly pending: readonly PendingTransfer[];
  /** Alarms raised by this run (none for an id already alarmed and not cleared, none for a peer alarm raised before). */
  readonly raised: number;
  /** The `transfer.alarm` entries synced (each an alarm once). */
  readonly peerAlarms: number;
  /** Entries that did not parse as transfer entries, or terminals whose id is no table id: named, never believed. */
  readonly unreadable: readonly string[];
}

const TYPES = ['transfer.out', 'transfer.recall', 'transfer.complete', 'transfer.reverse', 'transfer.in', 'transfer.refuse', 'transfer.alarm'];

/**
 * Reads every terminal's synced transfer entries, pairs them, and raises an alarm for each
 * transfer open longer than `watch.openAfterSeconds` and each disagreement (once per id and kind
 * while the alarm stands). `now` is the service's clock.
 *
 * The hosts sync independently, so the upstream often holds one end of a transfer before the
 * other. A disagreement that is only the missing entry's end lagging (`awaitedSide`) waits: it is
 * an alarm once that terminal's synced head was journalled at or after the entry seen plus
 * `skewMarginSeconds` (it syncs in order, so the missing entry, journalled before by causality,
 * would be there), or once the entry seen is older than `openAfterSeconds` (a terminal silent that
 * long is itself worth a look). The head's time stands for the terminal's: a clock stepped back
 * only makes it wait longer, up to `openAfterSeconds`.
 */
export async function reconcileTransfers(sql: Sql, watch: TransferWatch, now: Date = new Date()): Promise<TransferReport> {
  const rows = await sql.query<{ terminal_id: string; seq: number; type: string; body: string; ts: Date | string }>(
    'SELECT terminal_id, seq, type, body, ts FROM journal WHERE type = ANY($1::text[]) ORDER BY terminal_id, seq',
    [TYPES],
  );
  const journals = new Map<TableId, TransferEntry[]>();
  const debitedAt = new Map<string, number>();
  // When each id's credit (at its receiver) and closing (at its sender) were journalled: the entries a one-sided disagreement has seen.
  const takenAt = new Map<string, number>();
  const closedAt = new Map<string, number>();
  const unreadable: string[] = [];
  const peerAlarms: { terminal: TableId; seq: number; payload: Extract<TransferEntry, { type: 'transfer.alarm' }>['payload'] }[] = [];
  for (const r of rows.rows) {
    const table = TableId.safeParse(r.terminal_id);
    if (!table.success || !isTransferEntryType(r.type)) {
      unreadable.push(`${r.terminal_id} seq ${r.seq}: not a table's transfer entry`);
      continue;
    }
    let entry: TransferEntry;
    try {
      entry = parseTransferEntry(r.type, (JSON.parse(r.body) as { payload?: unknown }).payload);
    } catch (e) {
      unreadable.push(`${r.terminal_id} seq ${r.seq}: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`);
      continue;
    }
    if (entry.type === 'transfer.alarm') {
      peerAlarms.push({ terminal: table.data, seq: r.seq, payload: entry.payload });
      continue;
    }
    const list = journals.get(table.data) ?? [];
    list.push(entry);
    journals.set(table.data, list);
    const ts = new Date(r.ts).getTime();
    if (entry.type === 'transfer.out' && entry.payload.transfer.from === table.data) debitedAt.set(keyOf(entry.payload.transfer.id), ts);
    if (entry.type === 'transfer.in' && entry.payload.transfer.to === table.data && !takenAt.has(keyOf(entry.payload.transfer.id)))
      takenAt.set(keyOf(entry.payload.transfer.id), ts);
    if ((entry.type === 'transfer.complete' || entry.type === 'transfer.reverse') && entry.payload.transfer.from === table.data)
      if (!closedAt.has(keyOf(entry.payload.transfer.id))) closedAt.set(keyOf(entry.payload.transfer.id), ts);
  }
  const paired = reconcile(journals);
  const open: OpenTransfer[] = [];
  for (const p of paired) {
    if (p.sender !== 'open') continue;
    const at = debitedAt.get(keyOf(p.id));
    if (at !== undefined) open.push({ transfer: p.transfer, receiver: p.receiver, openSeconds: Math.max(0, (now.getTime() - at) / 1000) });
  }
  const syncedTo = await syncedHeads(sql);
  const marginMs = (watch.skewMarginSeconds ?? DEFAULT_SKEW_MARGIN_SECONDS) * 1000;
  const disagreements: PairedTransfer[] = [];
  const pending: PendingTransfer[] = [];
  for (const p of paired) {
    if (p.disagreements.length === 0) continue;
    const side = awaitedSide(p);
    const seen = side === 'sender' ? takenAt.get(keyOf(p.id)) : side === 'receiver' ? closedAt.get(keyOf(p.id)) : undefined;
    if (side === null || seen === undefined) {
      disagreements.push(p);
      continue;
    }
    const awaiting = side === 'sender' ? p.transfer.from : p.transfer.to;
    const head = syncedTo.get(awaiting);
    const waitedSeconds = Math.max(0, (now.getTime() - seen) / 1000);
    const syncedPast = head !== undefined && head >= seen + marginMs;
    if (syncedPast || waitedSeconds > watch.openAfterSeconds) disagreements.push(p);
    else pending.push({ ...p, awaiting, waitedSeconds });
  }
  let raised = 0;
  const standing = await standingAlarms(sql);
  const raise = async (kind: (typeof TRANSFER_ALARM_KINDS)[number], terminal: string, id: PairedTransfer['id'], detail: Record<string, unknown>) => {
    const k = `${kind} ${keyOf(id)}`;
    if (standing.has(k)) return;
    standing.add(k);
    await raiseAlarm(sql, terminal, kind, { id, ...detail });
    raised++;
  };
  for (const o of open)
    if (o.openSeconds > watch.openAfterSeconds)
      await raise('transfer-open-too-long', o.transfer.from, o.transfer.id, {
        transfer: o.transfer,
        receiver: o.receiver,
        openSeconds: Math.round(o.openSeconds),
      });
  for (const d of disagreements)
    await raise('transfer-disagreement', d.transfer.from, d.id, {
      transfer: d.transfer,
      disagreements: d.disagreements,
      net: d.net,
      sender: d.sender,
      receiver: d.receiver,
    });
  const raisedBefore = await peerAlarmsRaised(sql);
  for (const a of peerAlarms) {
    if (raisedBefore.has(`${a.terminal} ${a.seq}`)) continue;
    await raiseAlarm(sql, a.terminal, PEER_ALARM_KIND, { terminal: a.terminal, seq: a.seq, ...a.payload });
    raised++;
  }
  return {
    transfers: paired.length,
    completed: paired.filter((p) => p.sender === 'completed').length,
    reversed: paired.filter((p) => p.sender === 'reversed').length,
    open,
    disagreements,
    pending,
    raised,
    peerAlarms: peerAlarms.length,
    unreadable,
  };
}

/** The `transfer.alarm` entries already raised (cleared or not), as `terminal seq`: each is raised once. */
async function peerAlarmsRaised(sql: Sql): Promise<Set<string>> {
  const r = await sql.query<{ terminal_id: string | null; detail: unknown }>('SELECT terminal_id, detail FROM alarms WHERE kind = $1', [PEER_ALARM_KIND]);
  const done = new Set<string>();
  for (const a of r.rows) {
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    if (typeof detail === 'object' && detail !== null && 'seq' in detail && typeof detail.seq === 'number') done.add(`${a.terminal_id} ${detail.seq}`);
  }
  return done;
}

/** When each terminal journalled the last entry the upstream holds of it (its own clock). */
async function syncedHeads(sql: Sql): Promise<Map<string, number>> {
  const r = await sql.query<{ terminal_id: string; ts: Date | string }>(
    'SELECT h.terminal_id, j.ts FROM heads h JOIN journal j ON j.terminal_id = h.terminal_id AND j.seq = h.seq',
  );
  return new Map(r.rows.map((row) => [row.terminal_id, new Date(row.ts).getTime()]));
}

/** The transfer alarms not cleared, by kind and id. */
async function standingAlarms(sql: Sql): Promise<Set<string>> {
  const r = await sql.query<{ kind: string; detail: unknown }>('SELECT kind, detail FROM alarms WHERE kind = ANY($1::text[]) AND cleared_at IS NULL', [
    [...TRANSFER_ALARM_KINDS],
  ]);
  const standing = new Set<string>();
  for (const a of r.rows) {
    const detail = typeof a.detail === 'string' ? (JSON.parse(a.detail) as unknown) : a.detail;
    const id = typeof detail === 'object' && detail !== null && 'id' in detail ? detail.id : null;
    if (typeof id === 'object' && id !== null && 'origin' in id && 'serial' in id && typeof id.origin === 'string' && typeof id.serial === 'number') {
      const table = TableId.safeParse(id.origin);
      if (table.success) standing.add(`${a.kind} ${keyOf({ origin: table.data, serial: id.serial })}`);
    }
  }
  return standing;
}
