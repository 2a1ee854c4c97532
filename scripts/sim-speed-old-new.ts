// The blackjack simulator's speed against an older commit's, measured in one run on this machine:
//   npx tsx scripts/sim-speed-old-new.ts [--commit eb230c6] [--pairs 5] [--hands 2000000]
// The old commit is unpacked outside the repository (`git archive`, into the system's temporary
// folder) with its own copy of node_modules, then the command runs in the old tree and in
// this one alternately, one pair at a time, so that whatever else loads the machine loads both:
//   sim blackjack --rules macau-2009 --hands N --workers 1 --shuffle cut-card --seed 1 --json
// (cli/sim.ts in a tree from before `etg`, bin/etg.js sim after), both on the Node running this script.
// Prints each pair's hands per second and their ratio, the median ratio and the load average.
// Default commit: eb230c6, the parent of the first commit of the speed work (d62a905).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { commit: { type: 'string', default: 'eb230c6' }, pairs: { type: 'string', default: '5' }, hands: { type: 'string', default: '2000000' } },
});
const root = path.resolve(import.meta.dirname, '..');
const commit = execFileSync('git', ['rev-parse', '--short', values.commit], { cwd: root, encoding: 'utf8' }).trim();
const pairs = Number(values.pairs);
const old = path.join(os.tmpdir(), `bj-old-${commit}`);
if (!existsSync(path.join(old, 'cli', 'sim.ts'))) {
  mkdirSync(old, { recursive: true });
  const archive = spawnSync('git', ['archive', commit], { cwd: root, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', old], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
}
if (!existsSync(path.join(old, 'node_modules')))
  cpSync(path.join(root, 'node_modules'), path.join(old, 'node_modules'), { recursive: true, verbatimSymlinks: true });

// The command line as each tree has it: cli/sim.ts before `etg` (cli/etg.ts, started by bin/etg.js).
const entry = (dir: string): string[] => (existsSync(path.join(dir, 'bin', 'etg.js')) ? ['bin/etg.js', 'sim'] : ['--import', 'tsx', 'cli/sim.ts']);

function run(dir: string): number {
  const args = [
    ...entry(dir),
    'blackjack',
    '--rules',
    'macau-2009',
    '--hands',
    values.hands,
    '--workers',
    '1',
    '--shuffle',
    'cut-card',
    '--seed',
    '1',
    '--json',
  ];
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${dir}: ${r.stderr}`);
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  const out = JSON.parse(line) as { handsPerSecond?: unknown };
  if (typeof out.handsPerSecond !== 'number') throw new Error(`${dir}: no handsPerSecond in ${line}`);
  return out.handsPerSecond;
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
console.log(`old: ${commit} in ${old}; new: the working tree in ${root}; Node ${process.version}; load average ${load()}`);
const ratios: number[] = [];
for (let i = 0; i < pairs; i++) {
  // Alternate which goes first, so that neither always meets the machine as the other left it.
  let a: number;
  let b: number;
  if (i % 2 === 0) {
    a = run(old);
    b = run(root);
  } else {
    b = run(root);
    a = run(old);
  }
  ratios.push(b / a);
  console.log(`pair ${i + 1}: old ${a.toLocaleString('en')} hands/s, new ${b.toLocaleString('en')} hands/s, new/old ${(b / a).toFixed(2)}`);
}
const sorted = [...ratios].sort((x, y) => x - y);
const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : ((sorted[sorted.length / 2 - 1] ?? 0) + (sorted[sorted.length / 2] ?? 0)) / 2;
console.log(`median new/old ${median?.toFixed(2)} over ${pairs} pairs; load average ${load()}`);
