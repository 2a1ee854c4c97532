import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isCardCode, type CardCode } from '../../engine/cards/card.js';
import { BetId, DecisionAction, MAX_STATIONS, type Spot } from '../../protocol/index.js';

/**
 * Test only (`--test-script FILE`): the first round a simulated table plays, scripted so that a
 * test reaches the steps it needs (a war tie, a split, a third card) whatever the seed. The
 * simulated dealer deals `cards` to that round in order; each station's simulated player places
 * its `bets` once every scripted station has the credit for them, and takes its `decisions` in
 * order where they are legal. Everything after that round is ordinary autoplay.
 */
/** A bet behind a seat, as a script file writes it. */
const BehindKey = z.templateLiteral(['behind:', z.number().int().min(1).max(MAX_STATIONS)]);

/** The spot a script key names: a bet of the station's own seat, or `behind:<seat>`. */
function spotOf(key: string): Spot {
  const own = BetId.safeParse(key);
  if (own.success) return { bet: own.data };
  // Only a key the schema took as `behind:<seat>` reaches here.
  return { bet: 'behind', seat: Number(key.slice('behind:'.length)) };
}

export const RoundScript = z.strictObject({
  /** The round's cards in shoe order (burns inside the round included), as card codes. */
  cards: z
    .array(z.custom<CardCode>((s) => typeof s === 'string' && isCardCode(s), 'a card code such as "TS" (the cards layer\'s 52 codes: ten is T)'))
    .min(1)
    .max(64),
  stations: z
    .record(
      z.string().regex(/^[1-7]$/, 'a station number 1–7'),
      z.strictObject({
        /** Spot → amount in minor units (e.g. `{"main": 10000, "behind:1": 10000}`, a bet behind seat 1). */
        bets: z
          .partialRecord(z.union([BetId, BehindKey]), z.number().int().positive())
          .transform((bets) => Object.entries(bets).flatMap(([key, amount]) => (amount === undefined ? [] : [{ spot: spotOf(key), amount }]))),
        /** The station's decisions in the order they come (insurance offers included). */
        decisions: z.array(DecisionAction).max(32).default([]),
      }),
    )
    .refine((s) => Object.keys(s).length > 0, 'at least one station'),
});
/** A round script as its file is written. */
export type RoundScript = z.input<typeof RoundScript>;
/** A round script as the simulated players and dealer follow it: each station's bets on typed spots. */
export type RoundPlan = z.output<typeof RoundScript>;

/** Reads and checks a round script; a bad file is an error naming the file and every problem. */
export function loadRoundScript(file: string): RoundPlan {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`round script ${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const r = RoundScript.safeParse(raw);
  if (!r.success) throw new Error(`round script ${file}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return r.data;
}
