// `etg sim blackjack-jackpot --pools main=1000000,minor=1000000 [--program FILE] [--decks D] [--cards N] [--json]`:
// the exact return of Portugal's progressive jackpot chip at given pools (engine/blackjack/jackpot/exact.ts).
import { readFileSync } from 'node:fs';
import { jackpotReturn } from '../../engine/blackjack/jackpot/exact.js';
import { EXAMPLE_JACKPOT_PROGRAM, JackpotProgramError, parseJackpotProgram, type JackpotProgram } from '../../engine/blackjack/jackpot/program.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'sim blackjack-jackpot',
  summary: "Exact return of Portugal's progressive jackpot chip (rules 38-50) at given pools.",
  usage: 'usage: etg sim blackjack-jackpot [--program FILE] [--pools LEVEL=MINOR,…] [--decks D] [--cards 2|3|4] [--json]',
  options: {
    program: { type: 'string', value: 'FILE', help: "the approved program as JSON (default: the engine's example, no approval)" },
    pools: { type: 'string', value: 'LEVEL=MINOR,…', help: "each level's pool in minor units (default: the program's start values)" },
    decks: { type: 'string', value: 'D', help: 'decks in the shoe (1–8)', default: '6' },
    cards: { type: 'string', value: 'N', help: 'the cards the jackpot counts (rule 42: 2, 3 or 4)', default: '4' },
    json: { type: 'boolean', help: 'print JSON' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const v = options(command, argv);
  const refuse = (why: string) => new UsageError(`${command.name}: ${why}\n${command.usage}`);
  let program: JackpotProgram = EXAMPLE_JACKPOT_PROGRAM;
  if (v.program !== undefined) {
    try {
      program = parseJackpotProgram(JSON.parse(readFileSync(v.program, 'utf8')));
    } catch (e) {
      if (e instanceof JackpotProgramError || e instanceof SyntaxError) throw refuse(`${v.program}: ${e.message}`);
      throw refuse(`${v.program}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const pools: Record<string, number> = Object.fromEntries(program.levels.map((l) => [l.level, l.start]));
  for (const part of (v.pools ?? '').split(',').filter(Boolean)) {
    const [level = '', amount = ''] = part.split('=');
    const n = Number(amount);
    if (!program.levels.some((l) => l.level === level)) throw refuse(`the program has no level "${level}"`);
    if (!Number.isSafeInteger(n) || n < 0) throw refuse(`--pools ${level} must be whole minor units, not "${amount}"`);
    pools[level] = n;
  }
  const decks = Number(v.decks);
  const cards = Number(v.cards);
  if (!Number.isInteger(decks) || decks < 1 || decks > 8) throw refuse('--decks must be 1–8');
  if (![2, 3, 4].includes(cards)) throw refuse('--cards must be 2, 3 or 4 (portugal-2001 rule 42)');
  const r = jackpotReturn(program, decks, cards, pools);
  if (v.json) {
    console.log(JSON.stringify({ reference: program.reference, stake: program.stake, ...r }));
    return 0;
  }
  console.log(`program ${program.reference}: chip ${program.stake}, ${decks} decks, first ${cards} cards`);
  for (const c of r.combos)
    console.log(
      `  ${c.combination.padEnd(20)} ${c.level.padEnd(8)} 1 in ${c.probability > 0 ? Math.round(1 / c.probability).toLocaleString('en') : '—'}  pays ${c.award}`,
    );
  const pct = (x: number) => `${(x * 100).toFixed(4)}%`;
  console.log(`awards return ${pct(r.awardReturn)} of the chip at these pools; ${pct(r.increment)} of each chip goes to the pools (rule 40)`);
  if (cards > 2) console.log('(counts the player as always taking the cards counted: for three- and four-card combinations, the most the chip returns)');
  return 0;
}
