import type { RoundRecord } from '../../ledger/index.js';
import { StationRecallRound } from '../../protocol/index.js';

/** What a station's recall reads: the ledger's record of a station's rounds (`Ledger.rounds`). */
export interface RecallSource {
  recall(query: { station: number; limit?: number }): RoundRecord[];
  /** A station's last rounds' ids, newest first (their records read apart, once for every station). */
  recallIds(station: number, limit?: number): string[];
  /** `recallIds` of many stations in one read. */
  recallIdsOf(stations: readonly number[], limit?: number): Map<number, string[]>;
  record(roundId: string): RoundRecord | undefined;
  /** Changes whenever the round's record does after its close (a late correction): until it moves, a read record stays true. */
  recordVersion(roundId: string): number;
  /** Changes whenever the station's recall does: until it moves, a read recall stays true. */
  recallVersion(station: number): number;
  /** Changes whenever any station's recall version does. */
  recallTick(): number;
  /** The stations whose recall version moved after a `recallTick` read before. */
  recallMovedSince(tick: number): number[];
}

/** The station's own seat's streak marker before and after the round, when the round moved one. */
function streakOf(record: RoundRecord, station: number) {
  const m = record.streaks?.find((x) => x.station === station);
  return m ? { streak: { before: m.before, after: m.after } } : {};
}

/** The rule set's record a round was played under (`rules.record`), as a station's recall shows it. */
export interface RecallRules {
  reference?: string;
  effective?: string;
  demonstration: boolean;
}

/** One station's own view of a recorded round: its bets, lines and credit only; the table's authorisation on record when known. */
export function recallRound(record: RoundRecord, station: number, rules: RecallRules | null = null): StationRecallRound {
  const credit = record.credits.find((c) => c.station === station);
  return StationRecallRound.parse({
    roundId: record.roundId,
    ts: record.ts,
    status: record.status,
    cards: record.cards.slice(0, 96),
    bets: record.bets
      .filter((b) => b.station === station)
      .slice(0, 32)
      .map((b) => ({ seat: b.seat, bet: b.bet, amount: b.amount })),
    lines: record.lines
      .filter((l) => l.station === station)
      .slice(0, 64)
      .map((l) => ({
        seat: l.seat,
        bet: l.bet,
        ...(l.hand !== undefined ? { hand: l.hand } : {}),
        stake: l.stake,
        net: l.net,
        rule: l.rule.slice(0, 128),
        ...(l.choices?.length ? { choices: l.choices.slice(0, 12).map((c) => c.slice(0, 96)) } : {}),
        ...(l.choices?.length && l.authorisation ? { authorisation: l.authorisation.slice(0, 128) } : {}),
        ...(l.carried ? { carried: true } : {}),
      })),
    ...streakOf(record, station),
    // The dealing errors corrected in the round (never who corrected them: that is the floor's).
    ...(record.corrections?.length
      ? {
          corrections: record.corrections
            .slice(0, 16)
            .map((c) => ({ correction: c.correction, ...(c.card ? { card: c.card } : {}), article: c.article.slice(0, 128) })),
        }
      : {}),
    ...(credit ? { creditBefore: credit.before, creditAfter: credit.after } : {}),
    ...(rules
      ? {
          rules: {
            ...(rules.reference ? { reference: rules.reference.slice(0, 64) } : {}),
            ...(rules.effective ? { effective: rules.effective.slice(0, 10) } : {}),
            demonstration: rules.demonstration,
          },
        }
      : {}),
  });
}
