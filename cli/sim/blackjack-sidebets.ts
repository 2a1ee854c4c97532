// `etg sim blackjack-sidebets --decks D --exact [--streak-rounds N --seed S] --json`: exact house
// edges of the additional bets decided by the first two cards (engine/blackjack/side-bet-exact.ts),
// any pair on another seat's hand, and the winning streak from the round's outcome probabilities
// (engine/blackjack/streak-exact.ts), those measured under the simulator's basic strategy.
import { exactSideBetEdges } from '../../engine/blackjack/side-bet-exact.js';
import { resolveRules } from '../../engine/blackjack/rules.js';
import { emptyTotals, FastBlackjack, SIM_SIDE_BETS, edge } from '../../engine/blackjack/simulator.js';
import { streakFigures } from '../../engine/blackjack/streak-exact.js';
import { defineCommand, options } from '../command.js';
import { UsageError } from '../tool.js';

export const command = defineCommand({
  name: 'sim blackjack-sidebets',
  summary: 'Exact house edges of the additional bets decided by the first two cards, any pair on another seat, and the winning streak.',
  usage: 'usage: etg sim blackjack-sidebets --decks D --exact [--ace-value 1|11] [--streak-rounds N] [--seed S] [--json]',
  options: {
    decks: { type: 'string', value: 'D', help: 'decks in the shoe (1–8)' },
    exact: { type: 'boolean', help: 'required: only the exact figures are implemented' },
    json: { type: 'boolean', help: 'print JSON' },
    'ace-value': { type: 'string', value: '1|11', help: 'what an ace counts in the side bets', default: '1' },
    'streak-rounds': {
      type: 'string',
      value: 'N',
      help: "rounds simulated (full shoe each, Macau 2009 defaults, basic strategy) to measure a round's won/tied/lost chances for the winning streak; 0 skips it",
      default: '0',
    },
    seed: { type: 'string', value: 'S', help: 'seed of the streak rounds', default: '1' },
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
  const rounds = Number(values['streak-rounds']);
  if (!Number.isSafeInteger(rounds) || rounds < 0) throw refuse('--streak-rounds must be a whole number, 0 or more');
  const seed = Number(values.seed);
  if (!Number.isSafeInteger(seed)) throw refuse('--seed must be a whole number');
  const e = exactSideBetEdges(decks, aceValue);
  // Off a full shoe the first two cards of another seat's hand are as likely as one's own (the
  // shoe's order is exchangeable): any pair on any player's hand (Art. 13 1)) has the same edge.
  const bets: Record<string, { houseEdge: number; note?: string }> = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, { houseEdge: v }]));
  if (e.anyPair !== undefined)
    bets.anyPairOtherSeat = { houseEdge: e.anyPair, note: "another seat's first two cards are exchangeable with one's own off a full shoe" };
  const streak = rounds > 0 ? streakOf(decks, rounds, seed) : null;
  if (values.json) console.log(JSON.stringify({ decks, bets, ...(streak ? { streak } : {}) }));
  else {
    for (const [k, v] of Object.entries(bets)) console.log(`${k.padEnd(17)} ${v.houseEdge.toFixed(4)}%${v.note ? `  (${v.note})` : ''}`);
    if (streak) {
      const pct = (x: number) => `${(100 * x).toFixed(3)}%`;
      console.log(
        `\nwinning streak, ${streak.strategy}; ${streak.rounds} rounds: won ${pct(streak.round.won)}, tied ${pct(streak.round.tied)}, lost ${pct(streak.round.lost)}`,
      );
      for (const l of streak.levels)
        console.log(
          `streak${l.level}          ${l.houseEdge.toFixed(3)}% ± ${l.standardError.toFixed(3)}  (won ${pct(l.won)}; simulator per bet decided: ${l.simulated.houseEdge.toFixed(3)}% ± ${l.simulated.stdErr.toFixed(3)})`,
        );
    }
  }
  return 0;
}

/**
 * The streak's levels from a round's won/tied/lost chances measured over `rounds` full-shoe
 * rounds of the simulator (every-hand shuffle: rounds independent, as the formula assumes), beside
 * the simulator's own per-bet-decided figure of the same rounds.
 */
function streakOf(decks: number, rounds: number, seed: number) {
  const rules = resolveRules('generic', { decks, winningStreak: true });
  const sim = new FastBlackjack(rules, seed);
  const totals = emptyTotals();
  sim.run(rounds, 'every-hand', totals);
  const [lost = 0, tied = 0, won = 0] = sim.streakRounds;
  const n = lost + tied + won;
  const levels = streakFigures(won / n, lost / n, won + lost).map((l) => {
    const s = totals.side[SIM_SIDE_BETS[5 + l.level - 2] ?? 'streak2'];
    return { ...l, simulated: edge(s.sum, s.sumSq, s.n) };
  });
  return {
    strategy: "Macau 2009 defaults, the simulator's basic strategy (engine/blackjack/strategy/basic-strategy.ts), no insurance, every round from a full shoe",
    rounds,
    round: { won: won / n, tied: tied / n, lost: lost / n },
    levels,
  };
}
