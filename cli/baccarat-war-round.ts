// The scripted-round command of baccarat and «Desafio ao Casino»: options, the zod shape check of
// the round file, the engine's scripted coup, output; refusals on stderr with exit code 2. Each
// game's module (`cli/round/<game>.ts`) describes only what is its own as a `RoundGame`.
import { z } from 'zod';
import { ScriptError } from '../engine/baccarat/script.js';
import { readJsonInput, profileOptions, shorthandOptions, shorthandSets, UsageError, type Shorthand } from './baccarat-war-args.js';
import { defineCommand, options } from './command.js';

export class RoundError extends Error {}

/** A stake in minor units, small enough that 11:1 and the sums of a table stay exact integers. */
export const stakeSchema = z
  .number()
  .int()
  .nonnegative()
  .max(Number.MAX_SAFE_INTEGER / 100);

/** Shape check (zod) then the engine's scripted coup; every refusal is a RoundError. */
export function playScripted<I, O>(schema: z.ZodType<I>, input: unknown, play: (input: I) => O): O {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new RoundError(parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '));
  try {
    return play(parsed.data);
  } catch (e) {
    if (e instanceof ScriptError) throw new RoundError(e.message);
    throw e;
  }
}

export interface RoundGame<P, O> {
  /** The `--game` name. */
  readonly name: string;
  /** One line for `round --help`. */
  readonly summary: string;
  readonly usage: string;
  readonly defaultRules: string;
  readonly shorthands?: Readonly<Record<string, Shorthand>>;
  rules(id: string, sets: readonly string[]): P;
  play(input: unknown, profile: P): O;
  /** The text output (without `--json`). */
  print(out: O, profile: P): void;
}

interface RoundValues {
  readonly rules: string;
  readonly set?: string[];
  readonly input?: string;
  readonly json: boolean;
}

/** The options of `round --game <game>`: the profile's, the game's shorthands, and the round file. */
export function roundCommand<P, O>(game: RoundGame<P, O>) {
  return defineCommand({
    name: `round ${game.name}`,
    summary: game.summary,
    usage: game.usage,
    options: {
      ...shorthandOptions(game.shorthands ?? {}),
      ...profileOptions(game.defaultRules),
      input: { type: 'string', value: 'FILE|-', help: 'the round as JSON: seats and bets, cards in shoe order, decisions (- reads standard input)' },
    },
  });
}

export function runRound<P, O>(game: RoundGame<P, O>, argv: string[]): number {
  const command = roundCommand(game);
  const parsed = options(command, argv);
  const shorthands = game.shorthands ?? {};
  let out: O;
  let profile: P;
  const values = parsed as RoundValues;
  try {
    profile = game.rules(values.rules, [...(values.set ?? []), ...shorthandSets(shorthands, parsed)]);
    if (values.input === undefined) throw new UsageError(`--input is required\n${game.usage}`);
    out = game.play(readJsonInput(values.input), profile);
  } catch (e) {
    if (e instanceof RoundError || e instanceof UsageError) throw new UsageError(`${command.name}: ${e.message}`);
    throw e;
  }
  if (values.json) console.log(JSON.stringify(out));
  else game.print(out, profile);
  return 0;
}
