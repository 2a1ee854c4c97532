import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DecisionAction } from '../../protocol/index.js';

/**
 * Test only (`--test-script FILE`): the first round a simulated table plays, scripted so that a
 * test reaches the steps it needs (a war tie, a split, a third card) whatever the seed. The
 * simulated dealer deals `cards` to that round in order; each station's simulated player places
 * its `bets` once every scripted station has the credit for them, and takes its `decisions` in
 * order where they are legal. Everything after that round is ordinary autoplay.
 */
export const RoundScript = z.strictObject({
  /** The round's cards in shoe order (burns inside the round included), as card codes. */
  cards: z.array(z.string().regex(/^([2-9TJQKA])([SHDC])$/, 'a card code such as "TS"')).min(1).max(64),
  stations: z
    .record(
      z.string().regex(/^[1-7]$/, 'a station number 1–7'),
      z.strictObject({
        /** Bet type → amount in minor units (e.g. `{"main": 10000, "behind:1": 10000}`). */
        bets: z.record(z.string().min(1).max(32), z.number().int().positive()),
        /** The station's decisions in the order they come (insurance offers included). */
        decisions: z.array(DecisionAction).max(32).default([]),
      }),
    )
    .refine((s) => Object.keys(s).length > 0, 'at least one station'),
});
export type RoundScript = z.infer<typeof RoundScript>;

/** Reads and checks a round script; a bad file is an error naming the file and every problem. */
export function loadRoundScript(file: string): RoundScript {
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
