// `npm run --silent sim -- blackjack-sidebets --decks D --exact --json`: exact house edges of the
// additional bets decided by the first two cards (engine/blackjack/side-bet-exact.ts).
import { parseArgs } from 'node:util';
import { exactSideBetEdges } from '../../engine/blackjack/side-bet-exact.js';

const USAGE = 'usage: npm run --silent sim -- blackjack-sidebets --decks D --exact [--ace-value 1|11] [--json]';

export function run(argv: string[]): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { decks: { type: 'string' }, exact: { type: 'boolean' }, json: { type: 'boolean' }, 'ace-value': { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    console.error(`sim blackjack-sidebets: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const decks = Number(values.decks);
  if (!values.decks || !Number.isInteger(decks) || decks < 1 || decks > 8) {
    console.error(`sim blackjack-sidebets: --decks must be 1–8\n${USAGE}`);
    return 2;
  }
  if (!values.exact) {
    console.error(`sim blackjack-sidebets: only --exact is implemented (the simulator "sim blackjack" reports simulated side-bet edges)\n${USAGE}`);
    return 2;
  }
  const aceValue = values['ace-value'] === undefined ? 1 : Number(values['ace-value']);
  if (aceValue !== 1 && aceValue !== 11) {
    console.error(`sim blackjack-sidebets: --ace-value must be 1 or 11\n${USAGE}`);
    return 2;
  }
  const e = exactSideBetEdges(decks, aceValue);
  const bets = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, { houseEdge: v }]));
  if (values.json) console.log(JSON.stringify({ decks, bets }));
  else for (const [k, v] of Object.entries(e)) console.log(`${k.padEnd(14)} ${v.toFixed(4)}%`);
  return 0;
}
