// `etg round --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]`
// Plays one scripted coup of «Desafio ao Casino»:
// {"seats":[{"seat":1,"bets":{"main":1000,"tie":100}}],"cards":["7S","7D",…],"decisions":[{"seat":1,"action":"war"}]}
// Cards are this coup's cards in shoe order, the war's burns included. Illegal input, a missing
// or unexpected decision, too few cards or cards left over: message on stderr, exit code 2
// (`cli/baccarat-war-round.ts`).
import { z } from 'zod';
import type { WarProfile } from '../../engine/war/profiles.js';
import { runWarScript, type WarScriptOutput } from '../../engine/war/script.js';
import { warRulesFromArgs } from '../baccarat-war-args.js';
import { playScripted, roundCommand, runRound, stakeSchema, type RoundGame } from '../baccarat-war-round.js';

export { RoundError } from '../baccarat-war-round.js';

const RoundInput = z
  .object({
    seats: z
      .array(z.object({ seat: z.number().int().min(1), bets: z.object({ main: stakeSchema.optional(), tie: stakeSchema.optional() }).strict() }).strict())
      .min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.object({ seat: z.number().int().min(1), action: z.enum(['war', 'surrender']) }).strict()).default([]),
  })
  .strict();

/** Shape check (zod) then the engine's scripted coup; every refusal is a RoundError. */
export function playWarRound(input: unknown, profile: WarProfile): WarScriptOutput {
  return playScripted(RoundInput, input, (script) => runWarScript(profile, script));
}

const WAR: RoundGame<WarProfile, WarScriptOutput> = {
  name: 'war',
  summary: 'Plays one scripted coup of «Desafio ao Casino» and prints the hands and settlement lines.',
  usage: 'usage: etg round --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]',
  defaultRules: 'macau',
  shorthands: {
    'main-with-tie-bet': { key: 'mainBetOnTieWithTieBet', value: 'returned|choose', help: 'the main bet on a tie when the seat also bet the tie' },
  },
  rules: warRulesFromArgs,
  play: playWarRound,
  print(out, profile) {
    console.log(profile.title);
    console.log(`croupier: ${out.croupier.card}${out.croupier.war.map((w) => `, ${w.card} against seat ${w.seat}`).join('')}`);
    for (const h of out.hands) console.log(`seat ${h.seat}: ${h.cards.join(' ')}${h.decision ? ` (${h.decision})` : ''}`);
    if (out.burns.length > 0) console.log(`burned: ${out.burns.join(' ')}`);
    for (const l of out.settlements)
      console.log(`seat ${l.seat} ${l.bet.padEnd(5)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}`);
  },
};

export const command = roundCommand(WAR);

export function run(argv: string[]): number {
  return runRound(WAR, argv);
}
