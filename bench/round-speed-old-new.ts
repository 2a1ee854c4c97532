// The blackjack round state machine's speed against an older commit's, measured in one process:
//   npx tsx bench/round-speed-old-new.ts [--commit 96b6025] [--pairs 5] [--seconds 2]
// Both trees' round modules are loaded into this process (bench/round-trees.ts) and the same loop
// (bench/round-loop.ts) runs on each alternately, one pair at a time, so that whatever else loads
// the machine loads both. Prints each pair's rounds per second for one seat and for seven, their
// ratio, the median ratio and the load average. Default commit: the last before the round became
// one step per move (issue 32); before it every move replayed the round's log from its start.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { roundsPerSecond, SCENARIOS } from './round-loop.js';
import { commitModules, REPLAY_COMMIT, ROOT, treeModules } from './round-trees.js';

const { values } = parseArgs({
  options: { commit: { type: 'string', default: REPLAY_COMMIT }, pairs: { type: 'string', default: '5' }, seconds: { type: 'string', default: '2' } },
});
const pairs = Number(values.pairs);
const seconds = Number(values.seconds);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const old = await commitModules(values.commit);
const after = await treeModules(ROOT);
console.log(`old: ${old.commit} in ${old.dir}; new: the working tree in ${ROOT}; Node ${process.version}; ${seconds}s a figure; load average ${load()}`);
for (const scenario of SCENARIOS) {
  const ratios: number[] = [];
  // One untimed second each, so that neither is measured before the JIT has seen it.
  roundsPerSecond(old.modules, scenario, 1);
  roundsPerSecond(after, scenario, 1);
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so that neither always meets the machine as the other left it.
    let a: number;
    let b: number;
    if (i % 2 === 0) {
      a = roundsPerSecond(old.modules, scenario, seconds);
      b = roundsPerSecond(after, scenario, seconds);
    } else {
      b = roundsPerSecond(after, scenario, seconds);
      a = roundsPerSecond(old.modules, scenario, seconds);
    }
    ratios.push(b / a);
    console.log(
      `${scenario.name}, pair ${i + 1}: old ${Math.round(a).toLocaleString('en')} rounds/s, new ${Math.round(b).toLocaleString('en')} rounds/s, new/old ${(b / a).toFixed(2)}`,
    );
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(`${scenario.name}: median new/old ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)}; load average ${load()}`);
}
