// Rounds per second through the full blackjack round state machine on one thread, beside the
// same loop on the commit before the round became one step per move (bench/round-trees.ts). The
// simulator's fast path has its own bench (bench/sim.bench.ts, `npm run bench -- sim`).
// Prints figures only; nothing asserts a timing.
import { roundsPerSecond, SCENARIOS } from './round-loop.js';
import { commitModules, REPLAY_COMMIT, ROOT, treeModules } from './round-trees.js';
import { figure, QUICK, times } from './report.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 0.2 : 2));

/**
 * Rounds a second through the round state machine (openRound / dealCard / decideRound), beside the
 * same loop on the last commit whose round replayed its log at every move, loaded into this
 * process (bench/round-trees.ts): their ratio is what one step per move saves. Under --quick the
 * old tree is not unpacked and the figure has no baseline.
 */
async function stateMachine(): Promise<void> {
  const now = await treeModules(ROOT);
  const old = QUICK ? null : await commitModules(REPLAY_COMMIT);
  for (const scenario of SCENARIOS) {
    roundsPerSecond(now, scenario, QUICK ? 0.05 : 0.5); // warm-up (JIT)
    if (old) roundsPerSecond(old.modules, scenario, 0.5);
    const value = roundsPerSecond(now, scenario, SECONDS);
    const before = old ? roundsPerSecond(old.modules, scenario, SECONDS) : null;
    const r = figure({
      name: scenario.name,
      unit: 'rounds/s',
      value,
      better: 'higher',
      baseline: old && before ? { name: `the same loop on ${old.commit}'s round, which replayed its log at every move`, value: before } : null,
      note: old
        ? 'the baseline is the code before, not bare work: the ratio is the new cost of a round in units of the old (below 1: faster)'
        : 'under --quick the old tree is not unpacked; its cards come from one pre-shuffled shoe, so a shuffle-and-deal loop is not its bare counterpart',
    });
    console.log(
      `${scenario.name.padEnd(72)} ${Math.round(value).toLocaleString('en').padStart(7)} rounds/s` +
        (before !== null
          ? `   before (${old?.commit}, replay per move) ${Math.round(before).toLocaleString('en')} rounds/s, ratio ${times(r)} (new/old speed ${(value / before).toFixed(1)}×)`
          : ''),
    );
  }
}

console.log(`cores: this runs on one thread; ${SECONDS}s per line (BENCH_SECONDS to change); the simulator's hands a second are \`npm run bench -- sim\``);
await stateMachine();
