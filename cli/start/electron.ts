// `etg start` where Electron is installed: the host runs as a utility process of Electron's main
// process, which takes the data folder's lock itself.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { hostArgsToForward } from '../../host/launch-options.js';
import type { DataFolderLock } from '../../ledger/index.js';
import type { StartPlan } from './plan.js';

/** Builds Electron's main, then runs Electron until it closes; its exit code (or the build's, when that fails). */
export async function runInElectron(electron: string, root: string, plan: StartPlan, folderLock: DataFolderLock): Promise<number> {
  const build = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build-electron.ts')], { stdio: 'inherit' });
  const built = await new Promise<number>((resolve) => build.on('close', (c) => resolve(c ?? 1)));
  // Electron's host is another process, which takes the lock itself: let it go once our builds
  // are done. A start slipping in between is refused by that host's own lock, only later.
  folderLock.release();
  if (built !== 0) return built;
  const { values } = plan;
  // Every option but the launcher's own goes to Electron's main, which forwards the host's options.
  const forwarded = hostArgsToForward(values);
  const child = spawn(
    electron,
    [
      path.join(root, 'dist/electron/main.cjs'),
      `--data-dir=${plan.dataDir}`,
      `--screens=${plan.wanted.join(',')}`,
      ...(values['screen-map'] ? [`--screen-map=${values['screen-map']}`] : []),
      ...(values.kiosk ? [] : ['--dev']),
      ...forwarded,
    ],
    { stdio: 'inherit' },
  );
  return new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}
