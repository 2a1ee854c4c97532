import { houseEdgeOf } from '../../terms/house-edges.js';
import { boundedFigure } from '../figure-bound.js';
import type { Sql } from '../sql.js';
import { z } from 'zod';
import { currencyAt, currencyKey, currencyOf, currencyOrder, TableCurrency } from '../table-currency.js';
import { arrayOf, intOf } from './journal-figures.js';
import { LINE_BET_NAMES } from '../ingest/report-fields.js';

/**
 * Hold against theoretical (issue 49): per table, currency, game, rule profile and bet, the rounds settled
 * in the gaming day — what was bet at the start of each (the initial bets, `bet.place`), the
 * theoretical win (that × the bet's house edge under the profile, the engine's exact figure as
 * published in terms/house-edges.ts), the actual win (what the house took, −Σ of the settlement
 * lines' net, doubles, splits and raises included) and the difference. The theoretical win is an
 * expectation, rounded to the minor unit for reading, never money paid or owed. A round is in the
 * currency the table held at its settlement's seq: a table that changed currency within the day
 * has a line per currency.
 */
export const TheoreticalLine = z.strictObject({
  terminalId: z.string(),
  currency: TableCurrency.nullable(),
  game: z.string(),
  profile: z.string(),
  bet: z.string(),
  rounds: z.number().int().nonnegative(),
  /** The initial bets of the rounds settled in the day (minor units). */
  wagered: z.number().int(),
  /** The house edge in percent of the initial bet; null when no figure is published for this bet. */
  edge: z.number().nullable(),
  /** wagered × edge, rounded to the minor unit; null exactly when the edge is. */
  theoretical: z.number().int().nullable(),
  /** What the house won on the bet: −Σ net of its settlement lines (minor units). */
  actual: z.number().int(),
  /** actual − theoretical: above zero, the house held more than the edge says; null with no edge. */
  difference: z.number().int().nullable(),
});
export type TheoreticalLine = z.infer<typeof TheoreticalLine>;

/**
 * SQL: the rounds settled in the window [$1, $2), one row per table and round id, its first
 * settlement of the window (an honest table settles a round once; a table whose key leaked could
 * settle one round id any number of times, and every settlement was joined to every bet of the
 * round id, N × M rows: 500 of each took the plots 372 s, a review's F1), with its `seq`,
 * `round_id`, `game`, `profile`, `lines` and the currency in force (`code`, `exponent`).
 * `columns`: more of the settlement's columns, as `j.`….
 */
export const firstSettlements = (columns = ''): string =>
  `SELECT DISTINCT ON (j.terminal_id, j.doc->'payload'->>'roundId') j.terminal_id, j.seq, c.code, c.exponent,
      j.doc->'payload'->>'roundId' AS round_id, j.doc->'payload'->>'game' AS game, j.doc->'payload'->>'profile' AS profile,
      j.doc->'payload'->'lines' AS lines${columns}
    FROM journal j ${currencyAt('j')} WHERE j.type = 'round.settle' AND j.ts >= $1 AND j.ts < $2
      AND jsonb_typeof(j.doc->'payload'->'game') = 'string' AND jsonb_typeof(j.doc->'payload'->'profile') = 'string'
    ORDER BY j.terminal_id, j.doc->'payload'->>'roundId', j.seq`;

/**
 * Blackjack's decisions that raise the main bet's hand: a double's or a split's further stake is
 * journalled as a bet of its own (engine/blackjack/table-decide.ts) and settled on the hand's `main`
 * line, its stake the hand's (engine/blackjack/settle/main-bet.ts), and the main bet's published
 * edge and variance are per unit of the initial bet with doubling and splitting in them.
 * Insurance is no raise: a wager of its own, settled on its own line (Macau Art. 12 n.2–3; Portugal rule 33: engine/blackjack/settle/insurance.ts).
 */
const RAISES = ['double', 'split'];

/** SQL: of a bet element `x`, whether it is no raise of a bet placed (RAISES). */
const notRaise = (x: string): string => `${x}->>'bet' NOT IN (${RAISES.map((r) => `'${r}'`).join(', ')})`;

/**
 * SQL: the initial bets of the settlement `s` (a row of firstSettlements): the elements `b` of its
 * table's `bet.place` entries of the round journalled before it (a bet placed after the round
 * settled is no bet of it), on bets the games have ($3: ingest refuses others since; an earlier
 * upstream stored any name, and 25,000 names made as many lines).
 *
 * A station's first `bet.place` of the round holds its bets of the betting window; a later one is a
 * decision's stake. One on a bet of its own (blackjack's insurance) is counted under that bet; one
 * that raises a bet the window placed, on the same seat (war's going to war, journalled on `main`:
 * engine/war/table-game.ts), is no initial bet: the published edge and variance are per unit of the
 * initial bet with the raise's result in them, and read as one it made the theoretical win larger
 * by every war gone to (a review). Nor is blackjack's double or split (RAISES), journalled under a
 * name of its own: read as a bet, each made a line of stakes with no edge and a win of 0, its
 * result being in the main bet's (a review).
 *
 * A bet behind a seat (blackjack's `behind`, Macau 2009 Art. 20: engine/table/betting.ts) is a main
 * bet on that seat's hand: the settlement's line for it is the hand's `main`, paid to the bettor's
 * station, so it is read as `main`. Read as a bet of its own, the main bet's actual win held the
 * bets behind and its initial bets did not (a stadium's remote stations all bet behind), and
 * `behind` had a line of stakes with no edge and no win (a review).
 *
 * Each entry's station's first entry is read in the same pass as the round's entries (a window by
 * station, `first_seq` and `first_bets`; an entry naming no station has none): looked up again for
 * each entry, a round of 2,000 stations took the day's report 3 s and one of 8,000 entries 92 s
 * (tests/security/upstream-report-stations.test.ts).
 */
export const betsOf = (s: string, b = 'b'): string =>
  `LATERAL (SELECT p.seq, p.doc->'payload'->'bets' AS bets,
       CASE WHEN p.doc->'payload'->'station' IS NOT NULL THEN first_value(p.seq) OVER f END AS first_seq,
       CASE WHEN p.doc->'payload'->'station' IS NOT NULL THEN first_value(p.doc->'payload'->'bets') OVER f END AS first_bets
     FROM journal p WHERE p.terminal_id = ${s}.terminal_id AND p.type = 'bet.place' AND p.doc->'payload'->>'roundId' = ${s}.round_id AND p.seq < ${s}.seq
     WINDOW f AS (PARTITION BY p.doc->'payload'->'station' ORDER BY p.seq)) p ON true,
     LATERAL (SELECT CASE WHEN e->>'bet' = 'behind' THEN jsonb_set(e, '{bet}', '"main"') ELSE e END FROM jsonb_array_elements(${arrayOf('p.bets')}) e
       WHERE ${notRaise('e')} AND (p.seq = p.first_seq OR NOT ${arrayOf('p.first_bets')} @> jsonb_build_array(jsonb_build_object('bet', e->'bet', 'seat', e->'seat')))) ${b}(${b})`;

/**
 * SQL: the bet a settlement line `l` is a result of. Blackjack's 6-7-8 prize paid on top of the
 * hand's result (Portugal 2001 rule 35; a Macau table's `in-addition` option) is settled on a line
 * of its own, `bonus678`, of stake 0 (engine/blackjack/round-procedure.ts), and the main bet's
 * published edge under a profile that pays it so has the prize in it: it is the main bet's. Read
 * as a bet of its own, the main bet's actual win left the prize out (a review).
 */
export const lineBetOf = (l: string): string => `CASE WHEN ${l}->>'bet' = 'bonus678' THEN 'main' ELSE ${l}->>'bet' END`;

/** SQL: of a bet or line element `x`, whether it names a bet the games have ($3). */
export const namesBet = (x: string): string => `jsonb_typeof(${x}->'bet') = 'string' AND ${x}->>'bet' = ANY($3::text[])`;

type Group = { terminal_id: string; code: string | null; exponent: number | null; game: string; profile: string; bet: string };

export async function theoreticalLines(sql: Sql, from: Date, to: Date): Promise<TheoreticalLine[]> {
  const w = await sql.query<Group & { wagered: string; rounds: number }>(
    `WITH s AS (${firstSettlements()})
     SELECT s.terminal_id, s.code, s.exponent, s.game, s.profile, b->>'bet' AS bet, SUM(${intOf("b->'amount'")})::text AS wagered,
       COUNT(DISTINCT s.round_id)::int AS rounds
     FROM s JOIN ${betsOf('s')}
     WHERE ${namesBet('b')}
     GROUP BY 1, 2, 3, 4, 5, 6`,
    [from, to, LINE_BET_NAMES],
  );
  const a = await sql.query<Group & { actual: string }>(
    `WITH s AS (${firstSettlements()})
     SELECT s.terminal_id, s.code, s.exponent, s.game, s.profile, ${lineBetOf('l')} AS bet, (-SUM(${intOf("l->'net'")}))::text AS actual
     FROM s, jsonb_array_elements(${arrayOf('s.lines')}) l WHERE ${namesBet('l')} GROUP BY 1, 2, 3, 4, 5, 6`,
    [from, to, LINE_BET_NAMES],
  );
  const key = (x: Group) => [currencyKey(x.terminal_id, currencyOf(x)), x.game, x.profile, x.bet].join('\u0000');
  const lines = new Map<string, TheoreticalLine>();
  const line = (x: Group) => {
    let l = lines.get(key(x));
    if (!l) {
      const edge = houseEdgeOf(x.game, x.profile, x.bet);
      l = {
        terminalId: x.terminal_id,
        currency: currencyOf(x),
        game: x.game,
        profile: x.profile,
        bet: x.bet,
        rounds: 0,
        wagered: 0,
        edge,
        theoretical: null,
        actual: 0,
        difference: null,
      };
      lines.set(key(x), l);
    }
    return l;
  };
  // Each sum read exactly, NaN past the day's bound (figure-bound.ts): gaming-day.ts leaves such a table out and names it.
  for (const x of w.rows) Object.assign(line(x), { wagered: boundedFigure(x.wagered), rounds: x.rounds });
  for (const x of a.rows) line(x).actual = boundedFigure(x.actual);
  for (const l of lines.values()) {
    if (l.edge === null) continue;
    l.theoretical = Math.round((l.wagered * l.edge) / 100);
    l.difference = l.actual - l.theoretical;
  }
  return [...lines.values()].sort(
    (x, y) => x.terminalId.localeCompare(y.terminalId) || x.game.localeCompare(y.game) || x.bet.localeCompare(y.bet) || currencyOrder(x.currency, y.currency),
  );
}
