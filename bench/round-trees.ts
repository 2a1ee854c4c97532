// Another commit's round modules, loaded beside this tree's into one process, so the round loop
// (bench/round-loop.ts) can time both in the same run. The old commit's engine/ is unpacked once
// outside the repository (`git archive`, into the system's temporary folder, with a link to this
// tree's node_modules).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RoundModules } from './round-loop.js';

/** The last commit before the blackjack round became one step per move (issue 32): every move replayed the round's log from its start. */
export const REPLAY_COMMIT = '96b6025';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The round modules of the tree at `dir`, read as this tree's types say (the functions the loop calls kept their signatures). */
export async function treeModules(dir: string): Promise<RoundModules> {
  const load = <T>(file: string): Promise<T> => import(pathToFileURL(path.join(dir, 'engine', file)).href);
  return {
    round: await load<RoundModules['round']>('blackjack/round.ts'),
    rules: await load<RoundModules['rules']>('blackjack/rules.ts'),
    shoe: await load<RoundModules['shoe']>('cards/shoe.ts'),
    rng: await load<RoundModules['rng']>('random/seeded-rng.ts'),
  };
}

/** The commit's engine unpacked (once) and its round modules loaded; its short hash beside them. */
export async function commitModules(commit: string): Promise<{ commit: string; dir: string; modules: RoundModules }> {
  const short = execFileSync('git', ['rev-parse', '--short', commit], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `bj-round-old-${short}`);
  if (!existsSync(path.join(dir, 'engine', 'blackjack', 'round.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync('git', ['archive', short, 'engine'], { cwd: ROOT, maxBuffer: 1 << 30 });
    if (archive.status !== 0) throw new Error(`git archive ${short}: ${archive.stderr.toString()}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  }
  if (!existsSync(path.join(dir, 'node_modules'))) symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { commit: short, dir, modules: await treeModules(dir) };
}
