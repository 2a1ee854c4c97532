// `etg round --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]`
// Plays one scripted coup of «Desafio ao Casino»:
// {"seats":[{"seat":1,"bets":{"main":1000,"tie":100}}],"cards":["7S","7D",…],"decisions":[{"seat":1,"action":"war"}]}
// Cards are this coup's cards in shoe order, the war's burns included. Illegal input, a missing
// or unexpected decision, too few cards or cards left over: message on stderr, exit code 2
// (`cli/baccarat-war-round.ts`).
import { z } from 'zod';
import { warMarks, type ResolvedWar } from '../../engine/war/options.js';
import type { WarProfile } from '../../engine/war/profiles.js';
import { runWarScript, type WarScriptOutput } from '../../engine/war/script.js';
import { resolvedWarFromArgs } from '../baccarat-war-args.js';
import { linesWithMarks } from '../round-lines.js';
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

/** The lines with the choices they were settled under: a tie bettor's main bet on a tie follows `mainBetOnTieWithTieBet`. */
function withMarks(out: WarScriptOutput, r: ResolvedWar): WarScriptOutput {
  const rank = (c: string) => c.slice(0, -1);
  const tiedWithTieBet = (seat: number) =>
    out.settlements.some((l) => l.seat === seat && l.bet === 'tie') && rank(out.hands.find((h) => h.seat === seat)?.cards[0] ?? '') === rank(out.croupier.card);
  return { ...out, settlements: out.settlements.map((l) => ({ ...l, ...warMarks(r, l, l.bet === 'main' && tiedWithTieBet(l.seat)) })) };
}

const WAR: RoundGame<ResolvedWar, WarScriptOutput> = {
  name: 'war',
  summary: 'Plays one scripted coup of «Desafio ao Casino» and prints the hands and settlement lines.',
  usage: 'usage: etg round --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]',
  defaultRules: 'macau',
  shorthands: {
    'main-with-tie-bet': { key: 'mainBetOnTieWithTieBet', value: 'returned|choose', help: 'the main bet on a tie when the seat also bet the tie' },
  },
  rules: resolvedWarFromArgs,
  play: (input, r) => withMarks(playWarRound(input, r.profile), r),
  print(out, r) {
    console.log(r.profile.title);
    console.log(`croupier: ${out.croupier.card}${out.croupier.war.map((w) => `, ${w.card} against seat ${w.seat}`).join('')}`);
    for (const h of out.hands) console.log(`seat ${h.seat}: ${h.cards.join(' ')}${h.decision ? ` (${h.decision})` : ''}`);
    if (out.burns.length > 0) console.log(`burned: ${out.burns.join(' ')}`);
    for (const l of linesWithMarks(out.settlements))
      console.log(`seat ${l.seat} ${l.bet.padEnd(5)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}${l.marks}`);
  },
};

export const command = roundCommand(WAR);

export function run(argv: string[]): number {
  return runRound(WAR, argv);
}
