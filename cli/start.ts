// `etg start` (`npm start`): the kiosk. Starts the table host with simulated devices, then opens
// the screens: Electron where its binary is present, otherwise the system Chromium in app mode;
// with `--headless`, no window: it prints the screen URLs and keeps serving.
import { spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataFolderBusy, type DataFolderLock } from '../ledger/index.js';
import { lastResortFromStart, type LastResort } from '../host/process-faults.js';
import { lockHostFolder, startHost, type RunningHost } from '../host/start-host.js';
import { START_COMMAND } from './start/command.js';
import { runInElectron } from './start/electron.js';
import { findElectron } from './start/find-runtimes.js';
import { startPlan, type StartPlan } from './start/plan.js';
import { announceHost, openScreenWindows } from './start/screens.js';
import { UsageError } from './tool.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const command = START_COMMAND;

/** Serves until SIGINT or SIGTERM (then exits the process); returns only when it cannot start. */
export async function run(argv: string[]): Promise<number> {
  const plan = startPlan(argv);
  // One host per data folder: the lock before any build, so a second `npm start` on a running
  // host's folder exits 2 at once, and neither waits for a build nor rewrites the dist/ files the
  // running host serves. This process keeps it and hands it to its host (startHost below): taken
  // once and never let go between the check and the start, so two starts cannot both pass it.
  const folderLock = lockForStart(plan.dataDir);
  if (plan.values.build) {
    // `npm start` builds the screens here, after the options are checked, so `--help` answers at once.
    const build = spawnSync('npm', ['run', '--silent', 'build:renderer'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      folderLock.release();
      return build.status ?? 1;
    }
  }
  const electron = plan.values.headless || plan.values.browser ? null : findElectron(root);
  if (electron) return runInElectron(electron, root, plan, folderLock);
  // What nothing else caught ends the process, logged, for its supervisor (systemd, a shell) to
  // start it again: from before the start, so a fault while the host starts is caught too, and
  // in host.log from the moment it opens.
  const lastResort = lastResortFromStart();
  const running = await startKioskHost(plan, folderLock, lastResort);
  lastResort.logTo(running.log);
  announceHost(running, plan);
  stopOnSignals(running, plan.values.headless ? [] : openScreenWindows(running, plan));
  return new Promise<number>(() => undefined);
}

/** The host in this process; it holds the lock from here and releases it when it stops or fails to start. */
async function startKioskHost(plan: StartPlan, folderLock: DataFolderLock, lastResort: LastResort): Promise<RunningHost> {
  try {
    return await startHost(
      {
        dataDir: plan.dataDir,
        folderLock,
        rendererDir: path.join(root, 'dist/renderer'),
        port: plan.port,
        ...plan.hostOptions,
      },
      { onLog: (log) => lastResort.logTo(log) },
    );
  } catch (e) {
    // The host wrote its fatal line and closed its log: what falls after is said on stderr.
    lastResort.logTo(null);
    // A ledger that fails its checks, missing upstream credentials, a port in use: say which, touch nothing.
    throw new Error(`the kiosk cannot start: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** SIGINT or SIGTERM closes the windows and the host, then exits 0. */
function stopOnSignals(running: RunningHost, windows: readonly ChildProcess[]): void {
  const stop = async (signal: string) => {
    running.log.info({ signal }, 'stopping');
    for (const w of windows) w.kill('SIGTERM');
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** The data folder's lock for this start; another host on the folder: exit 2 naming it (the user started a second one), nothing touched. */
function lockForStart(dataDir: string): DataFolderLock {
  try {
    return lockHostFolder(dataDir);
  } catch (e) {
    if (e instanceof DataFolderBusy) throw new UsageError(`the kiosk cannot start: ${e.message}`);
    throw e;
  }
}
