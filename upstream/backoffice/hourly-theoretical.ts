import { betVarianceOf, houseEdgeOf } from '../../terms/house-edges.js';
import type { Sql } from '../sql.js';
import { LINE_BET_NAMES } from '../ingest/report-fields.js';
import { currencyKey, currencyOf } from '../table-currency.js';
import { arrayOf, intOf } from './journal-figures.js';
import { betsOf, firstSettlements, lineBetOf, namesBet } from './theoretical.js';

/**
 * Hold against the theoretical edge hour by hour (issue 49 item 5), per table, over the rounds
 * settled in each hour and the bets with a published edge (terms/house-edges.ts, the engine's exact
 * figures): the initial bets a (`bet.place`), what the house won on them W (−Σ net of their
 * settlement lines, doubles, splits and raises included), its expectation E = Σ a·edge, and an
 * upper bound σ on the standard deviation of W from the published variances per unit of initial
 * bet. The page draws W ÷ Σa against E ÷ Σa ± z·σ ÷ Σa (docs/backoffice.md states the formula).
 */
export interface HourTheoretical {
  /** Σ initial bets on bets with a published edge (minor units). */
  initial: number;
  /** What the house won on those bets (minor units). */
  house: number;
  /** Σ a × edge: the expected house win (minor units, a real number: an expectation, not money). */
  expected: number;
  /** The standard deviation bound of the house win (minor units); null when a bet with an edge has no published variance. */
  sd: number | null;
}

/** One round's stake on one bet, with what the house won on it. */
export interface RoundStake {
  readonly round: string;
  readonly game: string;
  readonly profile: string;
  readonly bet: string;
  readonly amount: number;
  readonly house: number;
}

/**
 * The hour's figures from its rounds' stakes. Rounds are taken as independent of each other; within
 * one round, stakes are correlated (every station's banker bet is the same coup; banker and player
 * are opposed), with correlations nobody publishes, so a round's standard deviation is bounded by
 * the sum of its stakes' (σ(ΣX) ≤ Σσ(X), exact when the round holds one stake, or stakes on one bet
 * of one outcome): σ² ≤ Σ_rounds (Σ_bets a·s)², s the bet's standard deviation per unit.
 */
export function hourTheoretical(stakes: readonly RoundStake[]): HourTheoretical {
  let initial = 0;
  let house = 0;
  let expected = 0;
  let known = true;
  const perRound = new Map<string, number>();
  for (const x of stakes) {
    const edge = houseEdgeOf(x.game, x.profile, x.bet);
    if (edge === null) continue;
    initial += x.amount;
    house += x.house;
    expected += (x.amount * edge) / 100;
    const variance = betVarianceOf(x.game, x.profile, x.bet);
    if (variance === null) known = false;
    else perRound.set(x.round, (perRound.get(x.round) ?? 0) + x.amount * Math.sqrt(variance));
  }
  let sumSq = 0;
  for (const s of perRound.values()) sumSq += s * s;
  return { initial, house, expected, sd: known ? Math.sqrt(sumSq) : null };
}

/** A stake's row: its table, currency, hour, round, game, profile, bet and the initial bets on it. */
type StakeRow = {
  terminal_id: string;
  code: string | null;
  exponent: number | null;
  hour: number;
  round_id: string;
  game: string;
  profile: string;
  bet: string;
  amount: number;
};

/**
 * Every table's stakes of the rounds settled in the window, by hour from `from` (0–23), per table
 * and the currency in force at the settlement's seq (keyed by `currencyKey`). The stakes and what
 * the house won on each are read apart and matched here: joined in SQL (the settlements, their bets
 * and their lines as three CTEs), PGlite took 61 s for 5,000 honest rounds settled in one hour.
 */
export async function hourlyStakes(sql: Sql, from: Date, to: Date): Promise<Map<string, Map<number, RoundStake[]>>> {
  const hour = ', floor(extract(epoch FROM j.ts - $1::timestamptz) / 3600)::int AS hour';
  const a = await sql.query<StakeRow>(
    `WITH s AS (${firstSettlements(hour)})
     SELECT s.terminal_id, s.code, s.exponent, s.hour, s.round_id, s.game, s.profile, b->>'bet' AS bet, SUM(${intOf("b->'amount'")}) AS amount
     FROM s JOIN ${betsOf('s')} WHERE ${namesBet('b')} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`,
    [from, to, LINE_BET_NAMES],
  );
  const w = await sql.query<{ terminal_id: string; round_id: string; bet: string; house: number }>(
    `WITH s AS (${firstSettlements()})
     SELECT s.terminal_id, s.round_id, ${lineBetOf('l')} AS bet, -SUM(${intOf("l->'net'")}) AS house
     FROM s, jsonb_array_elements(${arrayOf('s.lines')}) l WHERE ${namesBet('l')} GROUP BY 1, 2, 3`,
    [from, to, LINE_BET_NAMES],
  );
  const stake = (x: { terminal_id: string; round_id: string; bet: string }) => [x.terminal_id, x.round_id, x.bet].join('\u0000');
  const house = new Map(w.rows.map((x) => [stake(x), Number(x.house)]));
  const out = new Map<string, Map<number, RoundStake[]>>();
  for (const x of a.rows) {
    const key = currencyKey(x.terminal_id, currencyOf(x));
    const byHour = out.get(key) ?? new Map<number, RoundStake[]>();
    out.set(key, byHour);
    const h = Number(x.hour);
    // Pushed, not spread: a copy of the hour's array per row made the plots quadratic (the review's F1).
    const list = byHour.get(h) ?? [];
    byHour.set(h, list);
    list.push({ round: x.round_id, game: x.game, profile: x.profile, bet: x.bet, amount: Number(x.amount), house: house.get(stake(x)) ?? 0 });
  }
  return out;
}
