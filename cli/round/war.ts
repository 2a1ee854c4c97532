// `npm run --silent round -- --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]`
// Plays one scripted coup of «Desafio ao Casino»:
// {"seats":[{"seat":1,"bets":{"main":1000,"tie":100}}],"cards":["7S","7D",…],"decisions":[{"seat":1,"action":"war"}]}
// Cards are this coup's cards in shoe order, the war's burns included. Illegal input, a missing
// or unexpected decision, too few cards or cards left over: message on stderr, exit code 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { WarProfile } from '../../engine/war/profiles.js';
import { runWarScript, ScriptError, type WarScriptOutput } from '../../engine/war/script.js';
import { readJsonInput, UsageError, warRulesFromArgs } from '../baccarat-war-args.js';

const USAGE = 'usage: npm run --silent round -- --game war --rules macau [--set key=value …] --input round.json|- [--main-with-tie-bet returned|choose] [--json]';

const stake = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER / 100);
const RoundInput = z
  .object({
    seats: z.array(z.object({ seat: z.number().int().min(1), bets: z.object({ main: stake.optional(), tie: stake.optional() }).strict() }).strict()).min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.object({ seat: z.number().int().min(1), action: z.enum(['war', 'surrender']) }).strict()).default([]),
  })
  .strict();

export class RoundError extends Error {}

/** Shape check (zod) then the engine's scripted coup; every refusal is a RoundError. */
export function playWarRound(input: unknown, profile: WarProfile): WarScriptOutput {
  const parsed = RoundInput.safeParse(input);
  if (!parsed.success) throw new RoundError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  try {
    return runWarScript(profile, parsed.data);
  } catch (e) {
    if (e instanceof ScriptError) throw new RoundError(e.message);
    throw e;
  }
}

function fail(message: string): number {
  console.error(`round war: ${message}`);
  return 2;
}

export function run(argv: string[]): number {
  let out: WarScriptOutput;
  let profile: WarProfile;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau' },
        set: { type: 'string', multiple: true },
        input: { type: 'string' },
        'main-with-tie-bet': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    json = values.json;
    const sets = [...(values.set ?? [])];
    const opt = values['main-with-tie-bet'];
    if (opt !== undefined) sets.push(`mainBetOnTieWithTieBet=${opt}`);
    profile = warRulesFromArgs(values.rules, sets);
    if (values.input === undefined) throw new UsageError(`--input is required\n${USAGE}`);
    out = playWarRound(readJsonInput(values.input), profile);
  } catch (e) {
    if (e instanceof RoundError || e instanceof UsageError) return fail(e.message);
    if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) return fail(`${e.message}\n${USAGE}`);
    throw e;
  }
  if (json) {
    console.log(JSON.stringify(out));
    return 0;
  }
  console.log(profile.title);
  console.log(`croupier: ${out.croupier.card}${out.croupier.war.map((w) => `, ${w.card} against seat ${w.seat}`).join('')}`);
  for (const h of out.hands) console.log(`seat ${h.seat}: ${h.cards.join(' ')}${h.decision ? ` (${h.decision})` : ''}`);
  if (out.burns.length > 0) console.log(`burned: ${out.burns.join(' ')}`);
  for (const l of out.settlements) console.log(`seat ${l.seat} ${l.bet.padEnd(5)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}`);
  return 0;
}
