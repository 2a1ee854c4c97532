// `npm run --silent round -- --game baccarat --rules <profile> [--set key=value …] --input round.json|- [--json]`
// Plays one scripted coup: {"seats":[{"seat":1,"bets":{"banker":1000,"tie":100}}],"cards":["2S","KH",…]}
// with the cards in shoe order, and prints the hands, their totals and the settlement lines.
// Anything illegal (unknown bet, bad card, a card beyond the shoe's copies, too few cards, cards
// left over) is refused on stderr with exit code 2.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { BaccaratProfile } from '../../engine/baccarat/profiles.js';
import { BACCARAT_BETS } from '../../engine/baccarat/settle.js';
import { runBaccaratScript, ScriptError, type BaccaratScriptOutput } from '../../engine/baccarat/script.js';
import { baccaratRulesFromArgs, readJsonInput, UsageError } from '../baccarat-war-args.js';

const USAGE = 'usage: npm run --silent round -- --game baccarat --rules macau-commission|macau-no-commission [--set key=value …] --input round.json|- [--json]';

const stake = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER / 100);
const RoundInput = z
  .object({
    seats: z
      .array(
        z.object({
          seat: z.number().int().min(1),
          bets: z.object(Object.fromEntries(BACCARAT_BETS.map((b) => [b, stake.optional()]))).strict(),
        }).strict(),
      )
      .min(1),
    cards: z.array(z.string()),
    decisions: z.array(z.unknown()).max(0, 'baccarat has no player decisions').optional(),
  })
  .strict();

export class RoundError extends Error {}

/** Shape check (zod) then the engine's scripted coup; every refusal is a RoundError. */
export function playBaccaratRound(input: unknown, profile: BaccaratProfile): BaccaratScriptOutput {
  const parsed = RoundInput.safeParse(input);
  if (!parsed.success) {
    throw new RoundError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  }
  try {
    return runBaccaratScript(profile, parsed.data);
  } catch (e) {
    if (e instanceof ScriptError) throw new RoundError(e.message);
    throw e;
  }
}

function fail(message: string): number {
  console.error(`round baccarat: ${message}`);
  return 2;
}

export function run(argv: string[]): number {
  let out: BaccaratScriptOutput;
  let profile: BaccaratProfile;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        rules: { type: 'string', default: 'macau-commission' },
        set: { type: 'string', multiple: true },
        input: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    });
    json = values.json;
    profile = baccaratRulesFromArgs(values.rules, values.set);
    if (values.input === undefined) throw new UsageError(`--input is required\n${USAGE}`);
    out = playBaccaratRound(readJsonInput(values.input), profile);
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
  for (const h of out.hands) console.log(`${h.hand}: ${h.cards.join(' ')} = ${h.total}`);
  console.log(`→ ${out.result.winner}${out.result.natural ? ' (natural)' : ''}`);
  for (const l of out.settlements) console.log(`seat ${l.seat} ${l.bet.padEnd(10)} stake ${String(l.stake).padStart(8)} net ${String(l.net).padStart(9)}  ${l.rule}`);
  return 0;
}
