import type Database from 'better-sqlite3';
import { parseRecord, roundEntryOfRow, withLateEntries, type RoundRecord } from '../terms/round-record.js';

/**
 * The rounds a ledger recorded, as recall reads them (the `rounds`, `round_stations` and
 * `round_bets` projections its appends keep): a station's or the table's last rounds, one
 * round's record, the rounds still open. Each record comes with the entries journalled under its
 * round after its close (a late correction).
 */
export class LedgerRounds {
  readonly #db: Database.Database;
  readonly #versionOf: (station: number) => number;
  readonly #latest: () => number;
  readonly #movedSince: (tick: number) => number[];
  readonly #lateOf: (roundId: string) => number;
  readonly #recordOf: Database.Statement;
  readonly #lateOfRound: Database.Statement;
  readonly #recallIdsOf: Database.Statement;
  readonly #recallIdsOfMany: Database.Statement;

  /**
   * `versionOf`: the ledger's count of each station's recorded rounds, moved by its appends;
   * `latest`: the last of them given any station; `movedSince`: the stations given one past a tick;
   * `lateOf`: a closed round's, moved by each entry journalled under it after its close.
   */
  constructor(
    db: Database.Database,
    versionOf: (station: number) => number,
    latest: () => number,
    movedSince: (tick: number) => number[],
    lateOf: (roundId: string) => number,
  ) {
    this.#db = db;
    this.#versionOf = versionOf;
    this.#latest = latest;
    this.#movedSince = movedSince;
    this.#lateOf = lateOf;
    this.#recordOf = db.prepare('SELECT record FROM rounds WHERE round_id = ?');
    // Entries of a round journalled after the one that closed it (a late correction: recall.ts).
    this.#lateOfRound = db.prepare(`SELECT seq, type, body FROM journal WHERE round_id = ? AND seq > ? AND type = 'misread' ORDER BY seq`);
    // Asked for each station whose recall moved (a stadium's settlement: a hundred at once), so prepared once.
    this.#recallIdsOf = db.prepare('SELECT round_id FROM round_stations WHERE station = ? ORDER BY seq DESC LIMIT ?');
    // The same for many stations in one statement (one read transaction, not one a station): each station's last rows by its index.
    this.#recallIdsOfMany = db.prepare(
      `SELECT s.station AS station, s.round_id AS round_id FROM json_each(?) j
      JOIN round_stations s ON s.rowid IN (SELECT rowid FROM round_stations WHERE station = j.value ORDER BY seq DESC LIMIT ?)
      ORDER BY s.station, s.seq DESC`,
    );
  }

  /** The last `limit` rounds (newest first) at a station or a table; at most 500 at a time. */
  recall(query: { station: number; limit?: number } | { tableId?: string; limit?: number }): RoundRecord[] {
    const limit = Math.max(1, Math.min(500, Math.trunc(query.limit ?? 10)));
    let rows: { record: string }[];
    if ('station' in query) {
      rows = this.#db
        .prepare(
          `SELECT r.record FROM round_stations s JOIN rounds r ON r.round_id = s.round_id
        WHERE s.station = ? ORDER BY s.seq DESC LIMIT ?`,
        )
        .all(query.station, limit) as { record: string }[];
    } else if (query.tableId) {
      rows = this.#db.prepare('SELECT record FROM rounds WHERE table_id = ? ORDER BY seq DESC LIMIT ?').all(query.tableId, limit) as { record: string }[];
    } else {
      rows = this.#db.prepare('SELECT record FROM rounds ORDER BY seq DESC LIMIT ?').all(limit) as { record: string }[];
    }
    return rows.map((r) => this.#withLate(parseRecord(r.record)));
  }

  /**
   * The ids of a station's last `limit` rounds, newest first, without their records: a reader of
   * many stations' recall (a stadium's screens) reads each round's record once, not per station.
   */
  recallIds(station: number, limit = 10): string[] {
    const n = Math.max(1, Math.min(500, Math.trunc(limit)));
    const rows = this.#recallIdsOf.all(station, n) as { round_id: string }[];
    return rows.map((r) => r.round_id);
  }

  /** `recallIds` of each station, in one query: a station with no round has an empty list. */
  recallIdsOf(stations: readonly number[], limit = 10): Map<number, string[]> {
    const n = Math.max(1, Math.min(500, Math.trunc(limit)));
    const out = new Map<number, string[]>(stations.map((s) => [s, []]));
    const rows = this.#recallIdsOfMany.all(JSON.stringify(stations.filter(Number.isInteger)), n) as { station: number; round_id: string }[];
    for (const r of rows) out.get(r.station)?.push(r.round_id);
    return out;
  }

  /** Changes whenever a round station `station` played in is recorded (see `recall`). */
  recallVersion(station: number): number {
    return this.#versionOf(station);
  }

  /** Changes whenever any station's recall version does (a reader of many stations' recall asks them again only then). */
  recallTick(): number {
    return this.#latest();
  }

  /**
   * The stations whose recall version moved after `tick` (a `recallTick` read before): a round
   * recorded moves its stations' alone, so a reader of a stadium's recall looks at those only.
   */
  recallMovedSince(tick: number): number[] {
    return this.#movedSince(tick);
  }

  /**
   * Changes whenever an entry is journalled under the round after its close (`record` then shows
   * it): a reader keeping a round's record, or what it made of it, reads it again only then.
   * Counted in this process only, as `recallVersion`.
   */
  recordVersion(roundId: string): number {
    return this.#lateOf(roundId);
  }

  /** One round's record, once it closed (settled or voided). */
  record(roundId: string): RoundRecord | undefined {
    const row = this.#recordOf.get(roundId) as { record: string } | undefined;
    return row ? this.#withLate(parseRecord(row.record)) : undefined;
  }

  /** Rounds with bets journalled but not settled or voided (recovery after a restart). */
  open(): { roundId: string; stations: { station: number; amount: number }[] }[] {
    const rows = this.#db.prepare('SELECT round_id, station, SUM(amount) AS amount FROM round_bets GROUP BY round_id, station ORDER BY MIN(seq)').all() as {
      round_id: string;
      station: number;
      amount: number;
    }[];
    const out = new Map<string, { station: number; amount: number }[]>();
    for (const r of rows) out.set(r.round_id, [...(out.get(r.round_id) ?? []), { station: r.station, amount: r.amount }]);
    return [...out].map(([roundId, stations]) => ({ roundId, stations }));
  }

  /** The record with the entries journalled under its round after its close (`withLateEntries`). */
  #withLate(record: RoundRecord): RoundRecord {
    const rows = this.#lateOfRound.all(record.roundId, record.seq) as { seq: number; type: string; body: string }[];
    return withLateEntries(record, rows.map(roundEntryOfRow));
  }
}
