import { reconcile, type PairedTransfer } from '../../terms/transfer-reconcile.js';
import { keyOf, type TableId, type TransferEntry } from '../../terms/transfer-terms.js';
import type { Sql } from '../sql.js';
import { raisePeerAlarms, raiseTransferAlarms } from './alarms.js';
import type { TransferReport, TransferWatch } from './report.js';
import { noteTime, readRow, TRANSFER_ENTRY_TYPES, type JournalRow, type PeerAlarm, type TransferTimes } from './synced-entries.js';
import { judgeDisagreements, openTransfers } from './waiting.js';

// The floor's transfers reconciled run after run (every minute, for weeks) without reading every
// transfer entry ever synced at each run: a run over the whole journal took 1.1 s at 20,000
// transfers on the build machine, the upstream's event loop held (PGlite is in-process) and growing
// for ever. The reconciler reads each terminal's entries past the last it read (the journal's
// (terminal, type, seq) index), and forgets an id once its two ends agree and it is closed at its
// sender, keeping only that it was: pairing is per id (terms/transfer-reconcile.ts), so what it
// holds pairs as a run over everything would. An entry of a forgotten id (never an honest table's:
// a credit after the transfer was settled as returned, a refusal after a credit) makes it read
// everything again, once, so that entry is paired with all that came before it. An id that never
// closes (a debit never credited, refused or settled; a credit nobody debited) is set aside once the
// upstream has held its newest entry for SET_ASIDE_AFTER_SECONDS: alarmed, its entries dropped,
// named among the newest SET_ASIDE_KEPT, and forgotten as a closed one is.

type Entry = { readonly table: TableId; readonly entry: TransferEntry };

/** The unreadable transfer entries a report names: the newest this many (a review: every one was kept for weeks). */
export const UNREADABLE_KEPT = 1_000;

/**
 * How long after the upstream received an id's newest entry the id, if still not closed and agreed,
 * is set aside (the upstream's clock, `journal.received_at`: a table's own dates are its word). A
 * week: far past any honest transfer's open time and the reconciliation's `openAfterSeconds`, so
 * each has been on the floor's alarms for days. Before, every such id was kept with all its entries,
 * paired again at every run and listed in every report, for as long as the service ran (an upstream
 * review: a table whose key leaked grew it by every debit it journalled).
 */
export const SET_ASIDE_AFTER_SECONDS = 7 * 86_400;
/** The ids set aside a report names: the newest this many (each is an alarm, and all are counted). */
export const SET_ASIDE_KEPT = 1_000;

/** The id an entry speaks of (a recall's and an alarm's are not paired: reconcile passes them by). */
function pairedKey(e: TransferEntry): string | null {
  switch (e.type) {
    case 'transfer.out':
    case 'transfer.complete':
    case 'transfer.reverse':
    case 'transfer.in':
      return keyOf(e.payload.transfer.id);
    case 'transfer.refuse':
      return keyOf(e.payload.id);
    case 'transfer.recall':
    case 'transfer.alarm':
      return null;
  }
}

/** Closed at its sender with both ends agreeing: no later honest entry names it again. */
function closedAndAgreed(p: PairedTransfer): boolean {
  return p.disagreements.length === 0 && (p.sender === 'completed' || p.sender === 'reversed');
}

export class TransferReconciler {
  /** Each terminal's last journal seq read. */
  private readonly readTo = new Map<string, number>();
  /** The entries of each id not closed and agreed, by `keyOf`, each table's in its journal's order. */
  private readonly open = new Map<string, Entry[]>();
  /** The ids closed and agreed (their entries dropped), and how many of each closing. */
  private readonly closed = new Set<string>();
  private closedCompleted = 0;
  private closedReversed = 0;
  private readonly times: TransferTimes = { debitedAt: new Map(), takenAt: new Map(), closedAt: new Map() };
  /** When the upstream received each kept id's newest entry (ms, its own clock). */
  private readonly receivedAt = new Map<string, number>();
  /** The ids set aside (forgotten as closed ones are), the newest named, and how many paired (a refusal alone pairs to nothing). */
  private readonly setAsideKeys = new Set<string>();
  private setAsideNamed: PairedTransfer[] = [];
  private setAsideCount = 0;
  private unreadable: string[] = [];
  /** `transfer.alarm` entries read and not yet raised. */
  private peerAlarms: PeerAlarm[] = [];
  private peerAlarmsRead = 0;

  /** What `reconcileTransfers` answers (upstream/transfers.ts), from the entries synced since the last run and what it kept. */
  async run(sql: Sql, watch: TransferWatch, now: Date = new Date()): Promise<TransferReport> {
    if (!(await this.readNew(sql))) {
      this.forgetAll();
      await this.readNew(sql);
    }
    const stale = this.staleKeys(now);
    const all = reconcile(this.journals());
    const paired = all.filter((p) => closedAndAgreed(p) || !stale.has(keyOf(p.id)));
    const aside = all.filter((p) => !closedAndAgreed(p) && stale.has(keyOf(p.id)));
    const open = openTransfers(paired, this.times.debitedAt, now);
    const { disagreements, pending } = await judgeDisagreements(sql, paired, this.times, watch, now);
    // Each id set aside is an alarm now if it was not before, whatever its table's clock says (a debit dated in 2099 is never open by it).
    const asideOpen = aside.filter((p) => p.disagreements.length === 0);
    const alarmed = [...open, ...asideOpen.map((p) => ({ transfer: p.transfer, receiver: p.receiver, openSeconds: this.heldSeconds(p, now, watch) }))];
    const raised =
      (await raiseTransferAlarms(sql, watch, alarmed, [...disagreements, ...aside.filter((p) => p.disagreements.length > 0)])) +
      (await raisePeerAlarms(sql, this.peerAlarms));
    this.peerAlarms = [];
    for (const p of paired) if (closedAndAgreed(p)) this.close(p);
    for (const p of aside) this.setAside(p);
    // What is left stale pairs to nothing (a refusal of an id nobody debited or credited): forgotten too.
    for (const key of stale)
      if (this.open.has(key)) {
        this.forget(key);
        this.setAsideKeys.add(key);
      }
    const kept = paired.filter((p) => !closedAndAgreed(p));
    const forgotten = this.closed.size + this.setAsideCount;
    return {
      transfers: forgotten + kept.length,
      completed: this.closedCompleted + kept.filter((p) => p.sender === 'completed').length,
      reversed: this.closedReversed + kept.filter((p) => p.sender === 'reversed').length,
      open,
      disagreements,
      pending,
      setAside: { count: this.setAsideCount, newest: [...this.setAsideNamed] },
      raised,
      peerAlarms: this.peerAlarmsRead,
      unreadable: [...this.unreadable],
    };
  }

  /** What it holds between runs: the ids kept with their entries, their entries, the ids set aside it names. */
  held(): { ids: number; entries: number; setAsideNamed: number } {
    let entries = 0;
    for (const list of this.open.values()) entries += list.length;
    return { ids: this.open.size, entries, setAsideNamed: this.setAsideNamed.length };
  }

  /** The kept ids whose newest entry the upstream received longer ago than SET_ASIDE_AFTER_SECONDS. */
  private staleKeys(now: Date): Set<string> {
    const before = now.getTime() - SET_ASIDE_AFTER_SECONDS * 1000;
    const stale = new Set<string>();
    for (const [key, at] of this.receivedAt) if (at < before) stale.add(key);
    return stale;
  }

  /** How long an id set aside has been open: by its table's clock, or at least since the upstream received its newest entry. */
  private heldSeconds(p: PairedTransfer, now: Date, watch: TransferWatch): number {
    const key = keyOf(p.id);
    const since = (at: number | undefined) => (at === undefined ? 0 : Math.max(0, (now.getTime() - at) / 1000));
    return Math.max(since(this.times.debitedAt.get(key)), since(this.receivedAt.get(key)), watch.openAfterSeconds + 1);
  }

  /**
   * Reads every terminal's transfer entries past the last read, up to its head as the upstream
   * holds it (a batch's entries and its head are committed together); false, having kept nothing
   * of the entry, when one names an id it forgot.
   */
  private async readNew(sql: Sql): Promise<boolean> {
    const heads = await sql.query<{ terminal_id: string; seq: number | string }>('SELECT terminal_id, seq FROM heads ORDER BY terminal_id');
    for (const h of heads.rows) {
      const from = this.readTo.get(h.terminal_id) ?? 0;
      const to = Number(h.seq);
      if (to <= from) continue;
      const rows = await sql.query<JournalRow & { received_at: Date | string }>(
        'SELECT terminal_id, seq, type, body, ts, received_at FROM journal WHERE terminal_id = $1 AND type = ANY($2::text[]) AND seq > $3 AND seq <= $4 ORDER BY seq',
        [h.terminal_id, TRANSFER_ENTRY_TYPES, from, to],
      );
      for (const r of rows.rows) if (!this.take(r)) return false;
      this.readTo.set(h.terminal_id, to);
    }
    return true;
  }

  /** Keeps one row; false when it names a forgotten id. */
  private take(r: JournalRow & { received_at: Date | string }): boolean {
    const read = readRow(r);
    if ('unreadable' in read) {
      // Each is raised at its ingest already; the newest are kept to report, not every one for as long as the service runs.
      this.unreadable.push(read.unreadable);
      if (this.unreadable.length > UNREADABLE_KEPT) this.unreadable.shift();
      return true;
    }
    const { table, entry } = read;
    if (entry.type === 'transfer.alarm') {
      this.peerAlarms.push({ terminal: table, seq: Number(r.seq), payload: entry.payload });
      this.peerAlarmsRead++;
      return true;
    }
    const key = pairedKey(entry);
    if (key === null) return true;
    if (this.closed.has(key) || this.setAsideKeys.has(key)) return false;
    noteTime(this.times, table, entry, new Date(r.ts).getTime());
    // The newest of its entries (its tables are read one after another).
    this.receivedAt.set(key, Math.max(this.receivedAt.get(key) ?? 0, new Date(r.received_at).getTime()));
    const list = this.open.get(key);
    if (list) list.push({ table, entry });
    else this.open.set(key, [{ table, entry }]);
    return true;
  }

  /**
   * Each table's kept entries, as `reconcile` takes them: the tables in the order a reading of
   * everything gives them (by terminal id), since where two tables both speak of an id the first
   * read may be the one believed.
   */
  private journals(): Map<TableId, TransferEntry[]> {
    const byTable = new Map<TableId, TransferEntry[]>();
    for (const entries of this.open.values())
      for (const { table, entry } of entries) {
        const list = byTable.get(table);
        if (list) list.push(entry);
        else byTable.set(table, [entry]);
      }
    return new Map([...byTable].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private close(p: PairedTransfer): void {
    const key = keyOf(p.id);
    this.forget(key);
    this.closed.add(key);
    if (p.sender === 'completed') this.closedCompleted++;
    else this.closedReversed++;
  }

  /** An id that never closed, alarmed: forgotten as a closed one, counted, named among the newest. */
  private setAside(p: PairedTransfer): void {
    const key = keyOf(p.id);
    this.forget(key);
    this.setAsideKeys.add(key);
    this.setAsideCount++;
    if (p.sender === 'completed') this.closedCompleted++;
    if (p.sender === 'reversed') this.closedReversed++;
    this.setAsideNamed.push(p);
    if (this.setAsideNamed.length > SET_ASIDE_KEPT) this.setAsideNamed.shift();
  }

  /** Drops what is kept of an id (its entries and times); a later entry of it makes the next reading whole again. */
  private forget(key: string): void {
    this.open.delete(key);
    this.receivedAt.delete(key);
    for (const at of [this.times.debitedAt, this.times.takenAt, this.times.closedAt]) at.delete(key);
  }

  private forgetAll(): void {
    this.readTo.clear();
    this.open.clear();
    this.closed.clear();
    this.setAsideKeys.clear();
    this.setAsideNamed = [];
    this.setAsideCount = 0;
    this.receivedAt.clear();
    this.closedCompleted = 0;
    this.closedReversed = 0;
    for (const at of [this.times.debitedAt, this.times.takenAt, this.times.closedAt]) at.clear();
    this.unreadable = [];
    this.peerAlarms = [];
    this.peerAlarmsRead = 0;
  }
}
