// `etg round --game blackjack --rules <profile> [--set k=v] --input round.json --json`
// Plays one scripted round (see engine/blackjack/script.ts) and prints hands, dealer and
// settlement lines. Any illegal or missing decision, left-over or impossible card: stderr, exit 2.
import { readFileSync } from 'node:fs';
import { runScript, ScriptError, type ScriptInput } from '../../engine/blackjack/script.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { rulesFromArgs, UsageError } from '../blackjack-args.js';
import { defineCommand, options } from '../command.js';

export const command = defineCommand({
  name: 'round blackjack',
  summary: 'Plays one scripted blackjack round and prints the hands, the dealer and the settlement lines.',
  usage: 'usage: etg round --game blackjack --rules <profile> [--set key=value ...] --input round.json [--json]',
  options: {
    rules: { type: 'string', value: 'PROFILE', help: `the rule profile: ${PROFILE_IDS.join(', ')}` },
    set: { type: 'string', multiple: true, value: 'KEY=VALUE', help: "override one of the profile's options" },
    input: { type: 'string', value: 'FILE|-', help: 'the round as JSON: seats and bets, cards in shoe order, decisions (- reads standard input)' },
    json: { type: 'boolean', help: 'print JSON' },
  },
});

function checkShape(x: unknown): ScriptInput {
  if (typeof x !== 'object' || x === null) throw new ScriptError('input must be a JSON object {"seats","cards","decisions"}');
  const o = x as Record<string, unknown>;
  if (!Array.isArray(o.seats)) throw new ScriptError('input.seats must be an array of {"seat","bets":{"main",…}}');
  for (const [i, s] of o.seats.entries()) {
    if (typeof s !== 'object' || s === null || typeof (s as { seat?: unknown }).seat !== 'number' || typeof (s as { bets?: unknown }).bets !== 'object') {
      throw new ScriptError(`input.seats[${i}] must be {"seat":<number>,"bets":{"main":<amount>,…}}`);
    }
  }
  if (!Array.isArray(o.cards) || !o.cards.every((c) => typeof c === 'string')) throw new ScriptError('input.cards must be an array of card codes like "AS"');
  if (o.decisions !== undefined) {
    if (!Array.isArray(o.decisions)) throw new ScriptError('input.decisions must be an array');
    for (const [i, d] of o.decisions.entries()) {
      const dd = d as Record<string, unknown>;
      if (typeof d !== 'object' || d === null || typeof dd.seat !== 'number' || typeof dd.hand !== 'number' || typeof dd.action !== 'string') {
        throw new ScriptError(`input.decisions[${i}] must be {"seat":<number>,"hand":<number>,"action":"…"}`);
      }
    }
  }
  return o as unknown as ScriptInput;
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
