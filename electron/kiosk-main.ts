// The Electron main process of the kiosk: windows per display, lockdown, recovery, the table host
// as a utility process. Electron's API is handed in (electron/main.ts passes the real module; the
// tests a fake one, electron/testing/fake-electron.ts), so every handler here runs under test.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { HostReady, type ViewName } from '../protocol/index.js';
import { defaultDataDir } from '../host/data-dir.js';
import { createLogger } from '../host/logger.js';
import { KNOWN_BRIDGES } from '../hardware/transport/usb-serial.js';
import { keepDisplayAwake } from './display-awake.js';
import { planDisplays, watchDisplays } from './displays.js';
import type { BrowserWindowLike, DisplayLike, IpcEventLike, KioskElectron, Rect, UtilityProcessLike } from './electron-api.js';
import { exportFolder, exportTarget, isPrintableExport, removableMounts, savePath } from './exports.js';
import { installGuards } from './guards.js';
import { IPC } from './ipc-channels.js';
import { OUT_OF_SERVICE_CSP, OUT_OF_SERVICE_PATH, outOfServicePage } from './out-of-service.js';
import { watchChildProcesses, watchScreen } from './process-watch.js';
import { relaunchArgs, relaunchDecision } from './relaunch-policy.js';
import { parseScreenMap } from './screen-map.js';
import { APP_HOST, APP_ORIGIN, APP_SCHEME, isAppUrl, isBlockedKey, isServiceKey, SCREEN_CSP, screenFileFor } from './security.js';

export interface KioskOptions {
  /** The command line after Electron's own arguments (and the app path when not packaged). */
  argv: string[];
  /** The folder of the bundle (dist/electron): host.mjs and preload.cjs sit beside it, the screens in ../renderer. */
  here: string;
  /** The log; by default the data dir's logs/host.log, shared with the table host. */
  log?: Logger;
  now?: () => number;
  /** `/proc/mounts`, read when an export is saved (a fake in tests). */
  readMounts?: () => string;
  /** The arguments a relaunch starts again with (default: this process's, after the executable). */
  relaunchArgv?: string[];
}

export interface RunningKiosk {
  /** Settles once the host is up and the windows are open (or the out-of-service page is shown). */
  ready: Promise<void>;
  log: Logger;
  /** The windows open now, by view. */
  windows(): Map<ViewName, BrowserWindowLike>;
  outOfService(): boolean;
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

/** USB ids a page could ever be granted: the bridges of our bill acceptors and shoe. */
const OUR_DEVICES = KNOWN_BRIDGES.map((b) => ({ vid: b.vid, pid: b.pid }));

export function startKiosk(e: KioskElectron, o: KioskOptions): RunningKiosk | null {
  const { app } = e;
  const now = o.now ?? Date.now;
  const { values } = parseArgs({
    args: o.argv,
    options: {
      'data-dir': { type: 'string' },
      screens: { type: 'string', default: 'table,station/1' },
      'screen-map': { type: 'string', default: '' },
      dev: { type: 'boolean', default: false },
      relaunches: { type: 'string' },
    },
    strict: false,
  });
  const dataDir = typeof values['data-dir'] === 'string' ? values['data-dir'] : defaultDataDir();
  // The same file as the table host's, in the same format: relaunch and crash decisions are there.
  const log = o.log ?? createLogger(path.join(dataDir, 'logs'), { app: 'kiosk-main' });
  const rendererDir = path.resolve(o.here, '../renderer');
  const kiosk = values.dev !== true;
  const startedAt = now();
  const map = {
    screens: typeof values.screens === 'string' ? values.screens.split(',').filter(Boolean) : [],
    pinned: typeof values['screen-map'] === 'string' && values['screen-map'] ? parseScreenMap(values['screen-map']) : {},
  };

  // Before `ready`: sandbox every renderer, serve the screens from a privileged custom scheme,
  // and prefer X11 (Wayland ignores window bounds, so one window per display needs X11).
  app.enableSandbox();
  app.commandLine.appendSwitch('ozone-platform', 'x11');
  e.protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

  // A second kiosk on the same data folder would run a second host against the same ledger.
  if (!app.requestSingleInstanceLock()) {
    log.warn('another kiosk is running: quitting');
    app.quit();
    return null;
  }

  const windows = new Map<ViewName, BrowserWindowLike>();
  const byContents = new Map<number, ViewName>();
  const closing = new WeakSet<BrowserWindowLike>();
  let tokens = new Map<ViewName, string>();
  let host: UtilityProcessLike | null = null;
  let hostOrigin = '';
  let quitting = false;
  let outOfService = false;
  let awake: ReturnType<typeof keepDisplayAwake> | null = null;

  /**
   * Relaunches the app, counting consecutive relaunches on the relaunched process's command line;
   * past the policy's limit, the out-of-service page instead (never a desktop or a black screen).
   */
  const relaunch = (why: string): void => {
    if (quitting || outOfService) return;
    const d = relaunchDecision(Number(values.relaunches ?? 0), startedAt, now());
    if (d.action === 'out-of-service') {
      log.fatal({ why, relaunches: d.count }, 'kiosk kept failing: out of service until a technician restarts it');
      showOutOfService();
      return;
    }
    log.error({ why, relaunch: d.count }, 'relaunching the kiosk');
    log.flush();
    app.relaunch({ args: relaunchArgs(o.relaunchArgv ?? process.argv.slice(1), d.count) });
    app.exit(1);
  };

  const showOutOfService = (): void => {
    outOfService = true;
    const h = host;
    host = null;
    h?.kill();
    const url = `${APP_ORIGIN}${OUT_OF_SERVICE_PATH}`;
    if (windows.size === 0) {
      for (const d of e.screen.getAllDisplays()) openWindow(`out-of-service/${d.id}`, d.bounds);
    } else for (const w of windows.values()) void w.loadURL(url).catch(() => undefined);
  };

  const hostArgs = (): string[] => {
    const own = new Set(['screens', 'screen-map', 'dev', 'data-dir', 'relaunches']);
    const out = o.argv.filter((a) => a.startsWith('--') && !own.has(a.slice(2).split('=')[0] ?? ''));
    if (typeof values['data-dir'] === 'string') out.push(`--data-dir=${values['data-dir']}`);
    return out;
  };

  const startHost = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // Host options given to `npm start` (game, seed, upstream, terminal id, timers…) pass through.
      const child = e.utilityProcess.fork(path.join(o.here, 'host.mjs'), [`--renderer-dir=${rendererDir}`, ...hostArgs()], {
        serviceName: 'table-host',
        stdio: 'inherit',
      });
      host = child;
      let started = false;
      child.once('message', (m: unknown) => {
        const ready = HostReady.safeParse(m);
        if (!ready.success) return reject(new Error(`unexpected first message from the host: ${JSON.stringify(m)}`));
        tokens = new Map(ready.data.tokens);
        hostOrigin = ready.data.origin;
        started = true;
        resolve();
      });
      // The host owns the ledger: if it dies, the screens have nothing true to show.
      child.once('exit', (code) => {
        if (host !== child) return;
        host = null;
        log.error({ code }, 'table host exited');
        // Before it was ready, the start fails (and relaunches, below); after, the kiosk relaunches.
        if (started) relaunch(`table host exited (${code})`);
        else reject(new Error(`table host exited (${code}) before it was ready`));
      });
    });

  const serveScreens = (): void => {
    e.protocol.handle(APP_SCHEME, async (request) => {
      try {
        const url = new URL(request.url);
        if (url.host !== APP_HOST) return new Response('not found', { status: 404 });
        if (url.pathname === OUT_OF_SERVICE_PATH) {
          return new Response(outOfServicePage(), { headers: { 'content-type': MIME['.html'] ?? 'text/html', 'content-security-policy': OUT_OF_SERVICE_CSP } });
        }
        // Service mode's exports are the host's (they need the session's token): fetched from it.
        const target = hostOrigin ? exportTarget(request.url, hostOrigin, APP_ORIGIN) : null;
        if (target) return await fetch(target, { redirect: 'error' });
        const file = path.resolve(rendererDir, screenFileFor(url.pathname));
        if (!file.startsWith(rendererDir + path.sep)) return new Response('forbidden', { status: 403 });
        const body = await readFile(file);
        return new Response(body, {
          headers: { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream', 'content-security-policy': SCREEN_CSP },
        });
      } catch {
        return new Response('not found', { status: 404 });
      }
    });
  };

  /** Only our own top-level frames on app://kiosk may use the bridge (VS Code's validated IPC). */
  const senderView = (event: IpcEventLike): ViewName | null => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) return null;
    return byContents.get(event.sender.id) ?? null;
  };

  const wireIpc = (): void => {
    e.ipcMain.handle(IPC.launch, (event) => {
      const view = senderView(event);
      const token = view ? tokens.get(view) : undefined;
      if (!view || !token) throw new Error('not a kiosk screen');
      return { view, token };
    });
    e.ipcMain.on(IPC.requestPort, (event) => {
      if (!senderView(event) || !host) return;
      const { port1, port2 } = new e.MessageChannelMain();
      host.postMessage({ type: 'screen-port' }, [port1]);
      event.sender.postMessage(IPC.port, null, [port2]);
    });
  };

  /** Exports are saved without a dialog: the first removable medium, else `<data-dir>/exports/`. */
  const saveDownloads = (): void => {
    e.session.defaultSession.on('will-download', (_e, item) => {
      let mounts = '';
      try {
        mounts = (o.readMounts ?? (() => readFileSync('/proc/mounts', 'utf8')))();
      } catch {
        // Not Linux, or no /proc: the data folder it is.
      }
      const folder = exportFolder(dataDir, removableMounts(mounts));
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const file = savePath(folder, item.getFilename(), existsSync);
      item.setSavePath(file);
      item.once('done', (_d, state) => log.info({ state, file }, 'service export'));
    });
  };

  const lockDown = (window: BrowserWindowLike, view: string): void => {
    const contents = window.webContents;
    contents.on('did-create-window', (child) => {
      // Only the printable meters report opens a window (the guards): printed, then closed.
      child.webContents.once('did-finish-load', () => child.webContents.print({}, () => child.close()));
    });
    contents.on('before-input-event', (ev, input) => {
      if (isServiceKey(input)) {
        ev.preventDefault();
        toggleServiceWindow(window);
        return;
      }
      if (kiosk && isBlockedKey(input)) ev.preventDefault();
    });
    window.on('close', (ev) => {
      // The service window closes with its key combination; the table and stations never do.
      if (kiosk && !quitting && !closing.has(window)) ev.preventDefault();
    });
    watchScreen(contents, view, log, relaunch, now);
  };

  /** A window for a view (or the out-of-service page under a pseudo-view per display). */
  const openWindow = (view: ViewName | `out-of-service/${number}`, bounds: Rect): BrowserWindowLike => {
    const window = new e.BrowserWindow({
      ...bounds,
      kiosk,
      frame: !kiosk,
      autoHideMenuBar: true,
      backgroundColor: '#05140e',
      webPreferences: {
        preload: path.join(o.here, 'preload.cjs'),
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webSecurity: true,
        devTools: !kiosk,
        spellcheck: false,
      },
    });
    lockDown(window, view);
    const id = window.webContents.id;
    const v = view as ViewName;
    windows.set(v, window);
    byContents.set(id, v);
    window.on('closed', () => {
      if (windows.get(v) === window) windows.delete(v);
      byContents.delete(id);
    });
    void window.loadURL(outOfService ? `${APP_ORIGIN}${OUT_OF_SERVICE_PATH}` : `${APP_ORIGIN}/${view}`).catch(() => undefined);
    return window;
  };

  const closeWindow = (window: BrowserWindowLike): void => {
    closing.add(window);
    window.close();
  };

  /** The service key combination: open service mode over the display it was pressed on, or close it. */
  const toggleServiceWindow = (from: BrowserWindowLike): void => {
    if (outOfService) return;
    const open = windows.get('service');
    if (open) return closeWindow(open);
    openWindow('service', e.screen.getDisplayMatching(from.getBounds()).bounds).focus();
  };

  /** The screen map applied to the displays there are now (at start and after each hot-plug). */
  const applyDisplays = (displays: DisplayLike[], why: string): void => {
    awake?.check();
    const open = [...windows.keys()].filter((v) => v !== 'service' && !v.startsWith('out-of-service/'));
    if (outOfService) {
      for (const d of displays) if (![...windows.values()].some((w) => sameRect(w.getBounds(), d.bounds))) openWindow(`out-of-service/${d.id}`, d.bounds);
      return;
    }
    const plan = planDisplays(open, displays, map);
    for (const { view, display } of plan.place) windows.get(view)?.setBounds(display.bounds);
    for (const view of plan.close) {
      const w = windows.get(view);
      if (w) closeWindow(w);
    }
    for (const { view, display } of plan.open) openWindow(view, display.bounds);
    if (why !== 'start' || plan.unplaced.length)
      log.info(
        { why, displays: displays.map((d) => d.id), unplaced: plan.unplaced, closed: plan.close, opened: plan.open.map((w) => w.view) },
        'screen map applied',
      );
  };

  app.on('before-quit', () => {
    quitting = true;
    awake?.stop();
    host?.kill();
  });
  watchChildProcesses(app, log, relaunch, now);

  const ready = app
    .whenReady()
    .then(async () => {
      e.Menu.setApplicationMenu(null);
      installGuards({ app, session: e.session.defaultSession, log, isAppUrl, isPrintable: (u) => isPrintableExport(u, APP_ORIGIN), devices: OUR_DEVICES });
      serveScreens();
      saveDownloads();
      wireIpc();
      awake = keepDisplayAwake(e.powerSaveBlocker, log);
      watchDisplays(e.screen, applyDisplays);
      await startHost();
      applyDisplays(e.screen.getAllDisplays(), 'start');
      log.info({ windows: [...windows.keys()] }, 'kiosk started');
    })
    .catch((err: unknown) => {
      log.error({ err }, 'kiosk failed to start');
      relaunch(`kiosk failed to start: ${err instanceof Error ? err.message : String(err)}`);
    });

  return { ready, log, windows: () => new Map(windows), outOfService: () => outOfService };
}

function sameRect(a: Rect, b: Rect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}
