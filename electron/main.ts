// Electron main: kiosk windows (one per display), lockdown, crash recovery, and the table host
// started as a utility process. Bundled by scripts/build-electron.ts into dist/electron/.
import { app, BrowserWindow, ipcMain, Menu, MessageChannelMain, protocol, screen, session, utilityProcess } from 'electron';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { HostReady, type ViewName } from '../protocol/index.js';
import { defaultDataDir } from '../host/data-dir.js';
import { CrashBreaker, isCrash } from './crash-policy.js';
import { exportFolder, exportTarget, isPrintableExport, removableMounts, savePath } from './exports.js';
import { IPC } from './ipc-channels.js';
import { assignScreens, parseScreenMap } from './screen-map.js';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAppUrl, isBlockedKey, isServiceKey, SCREEN_CSP, screenFileFor } from './security.js';

const { values } = parseArgs({
  args: process.argv.slice(app.isPackaged ? 1 : 2),
  options: {
    'data-dir': { type: 'string' },
    screens: { type: 'string', default: 'table,station/1' },
    'screen-map': { type: 'string', default: '' },
    dev: { type: 'boolean', default: false },
    relaunches: { type: 'string' },
  },
  strict: false,
});

const here = __dirname; // dist/electron (CommonJS bundle)
const rendererDir = path.resolve(here, '../renderer');
const kiosk = values.dev !== true;

// Before `ready`: sandbox every renderer, serve the screens from a privileged custom scheme,
// and prefer X11 (Wayland ignores window bounds, so one window per display needs X11).
app.enableSandbox();
app.commandLine.appendSwitch('ozone-platform', 'x11');
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

// A second kiosk on the same data folder would run a second host against the same ledger.
if (!app.requestSingleInstanceLock()) {
  app.quit();
  process.exit(0);
}

const startedAt = Date.now();

/**
 * Relaunches the app, counting consecutive relaunches on the command line of the relaunched
 * process; a run that lasted five minutes starts the count again. Past three in a row the kiosk
 * stays down with the reason in the log instead of looping.
 */
function relaunch(why: string): void {
  const previous = startedAt > Date.now() - 5 * 60_000 ? Number(values.relaunches ?? 0) : 0;
  if (previous >= 3) {
    console.error(`${why}; ${previous} relaunches in a row: staying down, see the logs`);
    app.exit(1);
    return;
  }
  console.error(`${why}; relaunching the kiosk`);
  app.relaunch({ args: [...process.argv.slice(1).filter((a) => !a.startsWith('--relaunches=')), `--relaunches=${previous + 1}`] });
  app.exit(1);
}

/** The options of `npm start` that configure the host, forwarded to its utility process. */
function hostArgs(): string[] {
  const own = new Set(['screens', 'screen-map', 'dev', 'data-dir', 'relaunches']);
  const out = process.argv.slice(app.isPackaged ? 1 : 2).filter((a) => a.startsWith('--') && !own.has(a.slice(2).split('=')[0] ?? ''));
  if (typeof values['data-dir'] === 'string') out.push(`--data-dir=${values['data-dir']}`);
  return out;
}

const windowsByContents = new Map<number, { view: ViewName; window: BrowserWindow }>();
let tokens = new Map<ViewName, string>();
let host: Electron.UtilityProcess | null = null;
/** The host's loopback origin, where service mode's exports are answered. */
let hostOrigin = '';

function startHost(): Promise<void> {
  return new Promise((resolve, reject) => {
    // Host options given to `npm start` (game, seed, upstream, terminal id, timers…) pass through.
    const args = [`--renderer-dir=${rendererDir}`, ...hostArgs()];
    host = utilityProcess.fork(path.join(here, 'host.mjs'), args, { serviceName: 'table-host', stdio: 'inherit' });
    host.once('message', (m: unknown) => {
      const ready = HostReady.safeParse(m);
      if (!ready.success) return reject(new Error(`unexpected first message from the host: ${JSON.stringify(m)}`));
      tokens = new Map(ready.data.tokens);
      hostOrigin = ready.data.origin;
      resolve();
    });
    // The host owns the ledger: if it dies, the screens have nothing true to show. Relaunch,
    // unless we are quitting, or it keeps dying (a ledger that fails its checks, a native module
    // built for another runtime): then stay down with the reason in the log, not loop.
    host.once('exit', (code) => {
      if (!quitting) relaunch(`table host exited (${code})`);
    });
  });
}

function serveScreens(): void {
  protocol.handle(APP_SCHEME, async (request) => {
    try {
      const url = new URL(request.url);
      if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
      // Service mode's exports are the host's (they need the session's token): fetched from it.
      const target = hostOrigin ? exportTarget(request.url, hostOrigin, APP_ORIGIN) : null;
      if (target) return await fetch(target, { redirect: 'error' });
      const file = path.resolve(rendererDir, screenFileFor(url.pathname));
      if (!file.startsWith(rendererDir + path.sep)) return new Response('forbidden', { status: 403 });
      const body = await readFile(file);
      const type = MIME[path.extname(file)] ?? 'application/octet-stream';
      return new Response(body, { headers: { 'content-type': type, 'content-security-policy': SCREEN_CSP } });
    } catch {
      return new Response('not found', { status: 404 });
    }
  });
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Only our own top-level frames on app://kiosk may use the bridge (VS Code's validated IPC). */
function senderView(event: Electron.IpcMainEvent | Electron.IpcMainInvokeEvent): ViewName | null {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null || !isAppUrl(frame.url)) return null;
  return windowsByContents.get(event.sender.id)?.view ?? null;
}

/**
 * Exports a service screen downloads are saved without a dialog (a kiosk has no file manager):
 * on the first removable medium mounted, else in `<data-dir>/exports/`, never over another file.
 */
function saveDownloads(): void {
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir();
  session.defaultSession.on('will-download', (_e, item) => {
    let mounts = '';
    try {
      mounts = readFileSync('/proc/mounts', 'utf8');
    } catch {
      // Not Linux, or no /proc: the data folder it is.
    }
    const folder = exportFolder(dataDir, removableMounts(mounts));
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const file = savePath(folder, item.getFilename(), existsSync);
    item.setSavePath(file);
    item.once('done', (_d, state) => console.error(`service export ${state}: ${file}`));
  });
}

/** The printable meters report: a window of its own, printed at once, closed after. */
function printReport(window: BrowserWindow): void {
  window.webContents.once('did-finish-load', () => {
    window.webContents.print({}, () => window.close());
  });
}

function wireIpc(): void {
  ipcMain.handle(IPC.launch, (event) => {
    const view = senderView(event);
    const token = view ? tokens.get(view) : undefined;
    if (!view || !token) throw new Error('not a kiosk screen');
    return { view, token };
  });
  ipcMain.on(IPC.requestPort, (event) => {
    if (!senderView(event) || !host) return;
    const { port1, port2 } = new MessageChannelMain();
    host.postMessage({ type: 'screen-port' }, [port1]);
    event.sender.postMessage(IPC.port, null, [port2]);
  });
}

function lockDown(window: BrowserWindow): void {
  const contents = window.webContents;
  contents.on('will-navigate', (e, url) => {
    if (!isAppUrl(url)) e.preventDefault();
  });
  contents.on('will-redirect', (e, url) => {
    if (!isAppUrl(url)) e.preventDefault();
  });
  // Only the printable meters report may open a window (no script in it; it prints and closes).
  contents.setWindowOpenHandler(({ url }) =>
    isPrintableExport(url, APP_ORIGIN)
      ? {
          action: 'allow',
          overrideBrowserWindowOptions: {
            autoHideMenuBar: true,
            webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false },
          },
        }
      : { action: 'deny' },
  );
  contents.on('did-create-window', (child) => printReport(child));
  contents.on('before-input-event', (e, input) => {
    if (isServiceKey(input)) {
      e.preventDefault();
      toggleServiceWindow(window);
      return;
    }
    if (kiosk && isBlockedKey(input)) e.preventDefault();
  });
  window.on('close', (e) => {
    // The service window closes with its key combination; the table and stations never do.
    if (kiosk && !quitting && !closingService.has(window)) e.preventDefault();
  });
  const breaker = new CrashBreaker();
  contents.on('render-process-gone', (_e, details) => {
    if (!isCrash(details.reason)) return;
    console.error(`screen renderer gone (${details.reason}, exit ${details.exitCode})`);
    if (breaker.onCrash(Date.now()) === 'relaunch') relaunch('a screen keeps crashing');
    else contents.reload();
  });
  contents.on('unresponsive', () => contents.forcefullyCrashRenderer());
}

function openScreenWindow(view: ViewName, bounds: Electron.Rectangle): BrowserWindow {
  const window = new BrowserWindow({
    ...bounds,
    kiosk,
    frame: !kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#05140e',
    webPreferences: {
      preload: path.join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      devTools: !kiosk,
      spellcheck: false,
    },
  });
  lockDown(window);
  const id = window.webContents.id;
  windowsByContents.set(id, { view, window });
  window.on('closed', () => windowsByContents.delete(id));
  void window.loadURL(`${APP_ORIGIN}/${view}`);
  return window;
}

const closingService = new WeakSet<BrowserWindow>();

/** The service key combination: open service mode over the display it was pressed on, or close it. */
function toggleServiceWindow(from: BrowserWindow): void {
  const open = [...windowsByContents.values()].find((w) => w.view === 'service');
  if (open) {
    closingService.add(open.window);
    open.window.close();
    return;
  }
  const display = screen.getDisplayMatching(from.getBounds());
  openScreenWindow('service', display.bounds).focus();
}

function openWindows(): void {
  const pinned = typeof values['screen-map'] === 'string' && values['screen-map'] ? parseScreenMap(values['screen-map']) : {};
  const wanted = typeof values.screens === 'string' ? values.screens.split(',').filter(Boolean) : [];
  const { windows, unplaced } = assignScreens(screen.getAllDisplays(), { screens: wanted, pinned });
  if (unplaced.length) console.error(`no display for: ${unplaced.join(', ')}`);
  for (const { display, view } of windows) openScreenWindow(view, display.bounds);
}

let quitting = false;
app.on('before-quit', () => {
  quitting = true;
  host?.kill();
});

app
  .whenReady()
  .then(async () => {
    Menu.setApplicationMenu(null);
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    serveScreens();
    saveDownloads();
    wireIpc();
    await startHost();
    openWindows();
  })
  .catch((e: unknown) => {
    console.error('kiosk failed to start', e);
    app.exit(1);
  });
