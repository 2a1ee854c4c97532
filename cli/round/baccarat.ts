// `etg round --game baccarat --rules <profile> [--set key=value …] --input round.json|- [--json]`
// Plays one scripted coup: {"seats":[{"seat":1,"bets":{"banker":1000,"tie":100}}],"cards":["2S","KH",…]}
// with the cards in shoe order, and prints the hands, their totals and the settlement lines.
// Anything illegal (unknown bet, bad card, a card beyond the shoe's copies, too few cards, cards
// left over) is refused on stderr with exit code 2 (`cli/baccarat-war-round.ts`).
import { z } from 'zod';
import { baccaratMarks, type ResolvedBaccarat } from '../../engine/baccarat/options.js';
import type { BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { BACCARAT_BETS } from '../../engine/baccarat/settle.js';
import { runBaccaratScript, type BaccaratScriptOutput } from '../../engine/baccarat/script.js';
import { resolvedBaccaratFromArgs } from '../baccarat-war-args.js';
import { linesWithMarks } from '../round-lines.js';
import { playScripted, roundCommand, runRound, stakeSchema, type RoundGame } from '../baccarat-war-round.js';

export { RoundError } from '../baccarat-war-round.js';

const RoundInput = z
  .object({
    seats: z
      .array(
        z
          .object({
            seat: z.number().int().min(1),
            bets: z.object(Object.fromEntries(BACCARAT_BETS.map((b) => [b, stakeSchema.optional()]))).strict(),
          })
          .strict(),
      )
      .min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.unknown()).max(0, 'baccarat has no player decisions').optional(),
  })
  .strict();

/** Shape check (zod) then the engine's scripted coup; every refusal is a RoundError. */
export function playBaccaratRound(input: unknown, profile: BaccaratProfile): BaccaratScriptOutput {
  return playScripted(RoundInput, input, (script) => runBaccaratScript(profile, script));
}

const BACCARAT: RoundGame<ResolvedBaccarat, BaccaratScriptOutput> = {
  name: 'baccarat',
  summary: 'Plays one scripted baccarat coup and prints the hands, their totals and the settlement lines.',
  usage: 'usage: etg round --game baccarat --rules macau-commission|macau-no-commission [--set key=value …] --input round.json|- [--json]',
  defaultRules: 'macau-commission',
  rules: resolvedBaccaratFromArgs,
  // The lines carry the choices they were settled under (the no-commission alternative, Art. 18 n.2).
  play: (input, r) => {
    const out = playBaccaratRound(input, r.profile);
    return { ...out, settlements: out.settlements.map((l) => ({ ...l, ...baccaratMarks(r, l.bet) })) };
  },
  print(out, r) {
    console.log(r.profile.title);
    for (const h of out.hands) console.log(`${h.hand}: ${h.cards.join(' ')} = ${h.total}`);
    console.log(`→ ${out.result.winner}${out.result.natural ? ' (natural)' : ''}`);
    for (const l of linesWithMarks(out.settlements))
      console.log(`seat ${l.seat} ${l.bet.padEnd(10)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}${l.marks}`);
  },
};

export const command = roundCommand(BACCARAT);

export function run(argv: string[]): number {
  return runRound(BACCARAT, argv);
}
