// `etg round --game blackjack --rules <profile> [--set k=v] --input round.json --json`
// Plays one scripted round (see engine/blackjack/script.ts) and prints hands, dealer and
// settlement lines. Any illegal or missing decision, left-over or impossible card: stderr, exit 2.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { runScript, ScriptError, type ScriptInput } from '../../engine/blackjack/script.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { BLACKJACK_CATALOGUE, firstCardsBets, type FirstCardsBetId } from '../../engine/blackjack/bets/catalogue.js';
import { STREAK_LEVELS, type StreakLevel } from '../../engine/blackjack/bets/streak.js';
import { JackpotProgram } from '../../engine/blackjack/jackpot/program.js';
import { stakeSchema } from '../baccarat-war-round.js';
import { rulesFromArgs, UsageError } from '../blackjack-args.js';
import { defineCommand, options } from '../command.js';

export const command = defineCommand({
  name: 'round blackjack',
  summary: 'Plays one scripted blackjack round and prints the hands, the dealer and the settlement lines.',
  usage: 'usage: etg round --game blackjack --rules <profile> [--set key=value ...] --input round.json [--json]',
  options: {
    rules: { type: 'string', value: 'PROFILE', help: `the rule profile: ${PROFILE_IDS.join(', ')}` },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', help: "override one of the profile's options" },
    input: {
      type: 'string',
      value: 'FILE|-',
      help: 'the round as JSON: seats and bets, cards in shoe order, decisions; a jackpot round also its program and pools (- reads standard input)',
    },
    json: { type: 'boolean', help: 'print JSON' },
  },
});

/** The side bets a seat and a bettor behind can hold: the catalogue's bets of the first cards (engine/blackjack/bets/). */
const sideBets = Object.fromEntries(firstCardsBets(BLACKJACK_CATALOGUE).map((b) => [b.id, stakeSchema.optional()])) as Record<
  FirstCardsBetId,
  z.ZodOptional<typeof stakeSchema>
>;

const streakBets = z.strictObject(
  Object.fromEntries(STREAK_LEVELS.map((l) => [`${l}`, stakeSchema.optional()])) as Record<`${StreakLevel}`, z.ZodOptional<typeof stakeSchema>>,
);

const seatNumber = z.number().int().min(1);

/**
 * The round file, strict at every level: a key the engine does not know (a misspelt side bet, a
 * field of another game) is refused and named, never dropped — an inspector's replay must not
 * lose a bet (issue 33 item 9; baccarat and war were already strict).
 */
const RoundInput = z.strictObject({
  seats: z.array(
    z.strictObject({
      seat: seatNumber,
      bets: z.strictObject({ main: stakeSchema, ...sideBets, jackpot: stakeSchema.optional(), streak: streakBets.optional() }),
      behind: z
        .array(
          z.strictObject({
            owner: z.string().min(1),
            main: stakeSchema,
            ...sideBets,
            followSplit: z.boolean().optional(),
            followDouble: z.boolean().optional(),
          }),
        )
        .optional(),
      seated: z.boolean().optional(),
    }),
  ),
  cards: z.array(z.string()),
  decisions: z
    .array(
      z.strictObject({
        seat: seatNumber,
        hand: z.number().int().nonnegative(),
        action: z.string(),
        owner: z.string().optional(),
        notFollowing: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  streaks: z.array(z.strictObject({ seat: seatNumber, bets: streakBets, wins: z.number().int().nonnegative() })).optional(),
  // Portugal's progressive (rules 38–50): the approved program, each level's pool before the
  // round's chips and the fraction of a unit carried in (the journal's `jackpot.settle`).
  jackpot: z
    .strictObject({
      program: JackpotProgram,
      pools: z.record(z.string(), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)),
      carry: z.record(z.string(), z.number().int().min(0).max(99_999_999)).optional(),
    })
    .optional(),
}) satisfies z.ZodType<ScriptInput>;

function checkShape(x: unknown): ScriptInput {
  const parsed = RoundInput.safeParse(x);
  if (!parsed.success) throw new ScriptError(parsed.error.issues.map((i) => `${['input', ...i.path].join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

export async function run(argv: string[]): Promise<number> {
  const values = options(command, argv);
  return playFromArgs(values);
}

function playFromArgs(values: ReturnType<typeof options<typeof command.options>>): number {
  try {
    const rules = rulesFromArgs(values.rules, values.set);
    if (!values.input) throw new UsageError(`--input <round.json> is required\n${command.usage}`);
    let raw: string;
    try {
      raw = readFileSync(values.input === '-' ? 0 : values.input, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${values.input}: ${(e as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (e) {
      throw new UsageError(`${values.input} is not JSON: ${(e as Error).message}`);
    }
    const out = runScript(rules, checkShape(parsed));
    if (values.json) {
      console.log(JSON.stringify(out));
    } else {
      for (const h of out.hands) console.log(`seat ${h.seat} hand ${h.hand}: ${h.cards.join(' ')} = ${h.total}`);
      console.log(`dealer: ${out.dealer.cards.join(' ')} = ${out.dealer.total}`);
      for (const m of out.jackpot?.moves ?? [])
        console.log(
          `jackpot ${m.level}: ${m.before} + ${m.contribution}${m.rounding ? ` + ${m.rounding} rounding` : ''} − ${m.award} + ${m.seed} = ${m.after}`,
        );
      for (const l of out.settlements) {
        console.log(
          `seat ${l.seat}${l.owner ? ` (${l.owner})` : ''} ${l.bet}${l.hand !== undefined ? ` hand ${l.hand}` : ''}: stake ${l.stake} net ${l.net > 0 ? '+' : ''}${l.net}  [${l.rule}]${l.choices?.length ? ` [${l.choices.join(', ')}${l.authorisation ? `; authorised ${l.authorisation}` : ''}]` : ''}`,
        );
      }
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ScriptError) throw new UsageError(`${command.name}: ${e.message}`);
    throw e;
  }
}
