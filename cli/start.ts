// `etg start` (`npm start`): the kiosk. Starts the table host with simulated devices, then opens
// the screens: Electron where its binary is present, otherwise the system Chromium in app mode;
// with `--headless`, no window: it prints the screen URLs and keeps serving.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../host/data-dir.js';
import { hostArgsToForward, hostOptionsFromArgs, UsageError as HostUsageError } from '../host/launch-options.js';
import { DataFolderBusy, type DataFolderLock } from '../ledger/index.js';
import { lockHostFolder, startHost } from '../host/start-host.js';
import { options } from './command.js';
import { openChromiumWindows } from './start/chromium-windows.js';
import { START_COMMAND } from './start/command.js';
import { findChromium, findElectron, hasDisplay } from './start/find-runtimes.js';
import { UsageError } from './tool.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const command = START_COMMAND;

/** Serves until SIGINT or SIGTERM (then exits the process); returns only when it cannot start. */
export async function run(argv: string[]): Promise<number> {
  const values = options(command, argv);
  const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number, not "${values.port}"`);
  let hostOptions: ReturnType<typeof hostOptionsFromArgs>;
  try {
    hostOptions = hostOptionsFromArgs(values);
  } catch (e) {
    if (e instanceof HostUsageError) throw new UsageError(e.message);
    throw e;
  }
  const wanted = values.screens
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  // One host per data folder: the lock before any build, so a second `npm start` on a running
  // host's folder exits 2 at once, and neither waits for a build nor rewrites the dist/ files the
  // running host serves. This process keeps it and hands it to its host (startHost below): taken
  // once and never let go between the check and the start, so two starts cannot both pass it.
  const folderLock = lockForStart(dataDir);
  if (values.build) {
    // `npm start` builds the screens here, after the options are checked, so `--help` answers at once.
    const build = spawnSync('npm', ['run', '--silent', 'build:renderer'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      folderLock.release();
      return build.status ?? 1;
    }
  }

  const electron = values.headless || values.browser ? null : findElectron(root);
  if (electron) {
    // Inside Electron the host runs as a utility process of the main process.
    const build = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/build-electron.ts')], { stdio: 'inherit' });
    const built = await new Promise<number>((resolve) => build.on('close', (c) => resolve(c ?? 1)));
    // Electron's host is another process, which takes the lock itself: let it go once our builds
    // are done. A start slipping in between is refused by that host's own lock, only later.
    folderLock.release();
    if (built !== 0) return built;
    // Every option but the launcher's own goes to Electron's main, which forwards the host's options.
    const forwarded = hostArgsToForward(values);
    const child = spawn(
      electron,
      [
        path.join(root, 'dist/electron/main.cjs'),
        `--data-dir=${dataDir}`,
        `--screens=${wanted.join(',')}`,
        ...(values['screen-map'] ? [`--screen-map=${values['screen-map']}`] : []),
        ...(values.kiosk ? [] : ['--dev']),
        ...forwarded,
      ],
      { stdio: 'inherit' },
    );
    return new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  }
  let running: Awaited<ReturnType<typeof startHost>>;
  try {
    // The host holds the lock from here and releases it when it stops or fails to start.
    running = await startHost({ dataDir, folderLock, rendererDir: path.join(root, 'dist/renderer'), port, ...hostOptions });
  } catch (e) {
    // A ledger that fails its checks, missing upstream credentials, a port in use: say which, touch nothing.
    throw new Error(`the kiosk cannot start: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const screens = running.screens.urls.filter((s) => wanted.includes(s.view));
  const unknown = wanted.filter((w) => !running.screens.urls.some((s) => s.view === w));
  if (unknown.length) console.error(`No such screen at this table: ${unknown.join(', ')}`);

  if (values.json) {
    console.log(
      JSON.stringify({
        origin: running.origin,
        health: `${running.origin}/healthz`,
        dataDir,
        ...(running.simToken ? { simToken: running.simToken } : {}),
        screens: Object.fromEntries(running.screens.urls.map((s) => [s.view, s.url])),
      }),
    );
  } else {
    console.log(`Table host on ${running.origin}  (data: ${dataDir})`);
    console.log(`Health:  ${running.origin}/healthz`);
    for (const s of running.screens.urls) console.log(`${s.view.padEnd(10)} ${s.url}`);
  }

  const windows: ChildProcess[] = [];
  if (!values.headless) {
    const chromium = findChromium();
    if (!chromium) {
      console.error(
        'Neither Electron nor Chromium was found, so no window can open.\n' +
          '  Install Chromium (Debian: apt-get install chromium) or set CHROMIUM_PATH,\n' +
          '  or open the URLs above in a browser; the host keeps serving (Ctrl+C stops it).',
      );
    } else if (!hasDisplay()) {
      console.error('No display (DISPLAY/WAYLAND_DISPLAY unset): not opening windows. Use --headless to silence this.');
    } else {
      windows.push(
        ...openChromiumWindows(
          chromium,
          screens.map((s) => s.url),
          {
            profileDir: path.join(dataDir, 'chromium-profile'),
            kiosk: values.kiosk,
          },
        ),
      );
    }
  }

  const stop = async (signal: string) => {
    running.log.info({ signal }, 'stopping');
    for (const w of windows) w.kill('SIGTERM');
    await running.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return new Promise<number>(() => undefined);
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
