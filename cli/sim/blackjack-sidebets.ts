// `etg sim blackjack-sidebets --decks D --exact --json`: exact house edges of the
// additional bets decided by the first two cards (engine/blackjack/side-bet-exact.ts).
import { exactSideBetEdges } from '../../engine/blackjack/side-bet-exact.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'sim blackjack-sidebets',
  summary: 'Exact house edges of the additional bets decided by the first two cards.',
  usage: 'usage: etg sim blackjack-sidebets --decks D --exact [--ace-value 1|11] [--json]',
  options: {
    decks: { type: 'string', value: 'D', help: 'decks in the shoe (1–8)' },
    exact: { type: 'boolean', help: 'required: only the exact figures are implemented' },
    json: { type: 'boolean', help: 'print JSON' },
    'ace-value': { type: 'string', value: '1|11', help: 'what an ace counts in the side bets', default: '1' },
  },
});

export async function run(argv: string[]): Promise<number> {
  const values = options(command, argv);
  const refuse = (why: string) => new UsageError(`${command.name}: ${why}\n${command.usage}`);
  const decks = Number(values.decks);
  if (!values.decks || !Number.isInteger(decks) || decks < 1 || decks > 8) throw refuse('--decks must be 1–8');
  if (!values.exact) throw refuse('only --exact is implemented (the simulator "sim blackjack" reports simulated side-bet edges)');
  const aceValue = Number(values['ace-value']);
  if (aceValue !== 1 && aceValue !== 11) throw refuse('--ace-value must be 1 or 11');
  const e = exactSideBetEdges(decks, aceValue);
  const bets = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, { houseEdge: v }]));
  if (values.json) console.log(JSON.stringify({ decks, bets }));
  else for (const [k, v] of Object.entries(e)) console.log(`${k.padEnd(14)} ${v.toFixed(4)}%`);
  return 0;
}
