import type { Ledger } from '../../ledger/ledger.js';
import { MAX_RECALL_ROUNDS, type StationRecallRound, type StationTicket } from '../../protocol/index.js';
import { fitRecall, recallRound, type RecallRules, type RecallSource } from './recall.js';
import { StationTickets } from './station-tickets.js';
import type { HeldTicketsIn } from '../floor/station-gates.js';
import { roundSpan } from '../../terms/round-evidence.js';

/**
 * Each station's last rounds from the ledger's recall, read again only when a round it played in
 * was recorded. Each round's record is read and split by station once (a stadium's round holds
 * hundreds of stations' lines), then every station takes its own part of it.
 */
export class StationRecall {
  /** Each station's recall as last read, with the ledger's recall version it was read at, and the oldest rounds its message's bytes left out. */
  private readonly recall = new Map<number, { version: number; list: StationRecallRound[]; omitted: number }>();
  /** Recorded rounds split by station, newest last, each with the ledger's version of its record it was split at. */
  private readonly rounds = new Map<string, { version: number; byStation: Map<number, StationRecallRound> }>();

  /** Each station's own last tickets (issue 47). */
  private readonly tickets: StationTickets;
  private ticketsChanged: () => void = () => undefined;

  /** The ledger's recorded rounds. */
  private readonly source: RecallSource;

  /** `rulesAt(seq)`: the table's authorisation on record at a journal entry (the round's first), shown with the round. */
  constructor(
    ledger: Ledger,
    private readonly rulesAt: (seq: number) => RecallRules | null = () => null,
  ) {
    this.source = ledger.rounds;
    this.tickets = new StationTickets(ledger, () => this.ticketsChanged());
  }

  /** Told after a ticket entry, once the stations' ticket lists are stale (the screens look again). */
  onTicketsChanged(listener: () => void): void {
    this.ticketsChanged = listener;
  }

  /** The tickets in the host holds for a person read as held in the stations' lists (StationTickets.heldBy). */
  ticketsHeldBy(held: HeldTicketsIn | null): void {
    this.tickets.heldBy(held);
  }

  /** A station's own last tickets out and in: the same array while they stand. */
  ticketsOf(station: number): StationTicket[] {
    return this.tickets.of(station);
  }

  /** What a station's own view takes from the ledger: its recall, that list's version, its own last tickets. */
  extrasOf(station: number): { recall: StationRecallRound[]; recallVersion: number; recallOmitted: number; tickets: StationTicket[] } {
    return { recall: this.of(station), recallVersion: this.versionOf(station), recallOmitted: this.omittedOf(station), tickets: this.tickets.of(station) };
  }

  /** How many of the station's last rounds its recall leaves out, the oldest, to fit its one message (recall.ts `fitRecall`). */
  omittedOf(station: number): number {
    this.of(station);
    return this.recall.get(station)?.omitted ?? 0;
  }

  /** A station's recall list: the same array while its recall version stands (so encoded once). */
  of(station: number): StationRecallRound[] {
    const version = this.source.recallVersion(station);
    const had = this.recall.get(station);
    if (had && had.version === version) return had.list;
    return this.keep(station, version, this.source.recallIds(station, MAX_RECALL_ROUNDS));
  }

  /**
   * The recall of the stations whose version moved read again together, their rounds' ids in one
   * query (a settlement at a stadium moves a hundred stations' at once); `of` then finds them read.
   */
  readAgain(stations: readonly number[]): void {
    const stale = stations.filter((s) => this.recall.get(s)?.version !== this.source.recallVersion(s));
    if (stale.length === 0) return;
    const ids = this.source.recallIdsOf(stale, MAX_RECALL_ROUNDS);
    for (const s of stale) this.keep(s, this.source.recallVersion(s), ids.get(s) ?? []);
  }

  /** A station's list from its rounds' ids (newest first), kept at its version. */
  private keep(station: number, version: number, ids: readonly string[]): StationRecallRound[] {
    const { rounds: list, omitted } = fitRecall(
      ids.flatMap((id) => {
        const own = this.split(id)?.get(station);
        return own ? [own] : [];
      }),
    );
    this.recall.set(station, { version, list, omitted });
    return list;
  }

  /** Moves whenever any station's recall does (its list is then read again when asked for). */
  tick(): number {
    return this.source.recallTick();
  }

  /** The stations whose recall moved after `tick` (one `tick` read before): only theirs are read again. */
  movedSince(tick: number): number[] {
    return this.source.recallMovedSince(tick);
  }

  /** The version of the station's recall list `of` gives (the ledger's, which only grows): its screen asks for the list by it. */
  versionOf(station: number): number {
    this.of(station);
    return this.recall.get(station)?.version ?? 0;
  }

  /**
   * A recorded round, split by station once while its record stands (an entry journalled under it
   * after its close, a late correction, moves the record's version: split again); the newest rounds
   * are kept (a station recalls ten).
   */
  private split(roundId: string): Map<number, StationRecallRound> | null {
    const version = this.source.recordVersion(roundId);
    const had = this.rounds.get(roundId);
    if (had && had.version === version) return had.byStation;
    // Split again: it goes to the newest end, as a round read first.
    this.rounds.delete(roundId);
    const record = this.source.record(roundId);
    if (!record) return null;
    const byStation = new Map<number, StationRecallRound>();
    // Its first entry by a loop (`roundSpan`): a spread of a round's 150,000 seqs overflowed the stack.
    const rules = record.entrySeqs.length > 0 ? this.rulesAt(roundSpan(record).first) : null;
    for (const s of new Set([...record.bets.map((b) => b.station), ...record.lines.map((l) => l.station)])) byStation.set(s, recallRound(record, s, rules));
    this.rounds.set(roundId, { version, byStation });
    // Twice a station's recall: every station's ten are in here.
    for (const oldest of this.rounds.keys()) {
      if (this.rounds.size <= 2 * MAX_RECALL_ROUNDS + 2) break;
      this.rounds.delete(oldest);
    }
    return byStation;
  }
}
