// The Electron main process of the kiosk: windows per display, lockdown, recovery, the table host
// as a utility process. Electron's API is handed in (electron/main.ts passes the real module; the
// tests a fake one, electron/testing/fake-electron.ts), so every handler here runs under test.
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import type { ViewName } from '../protocol/index.js';
import { defaultDataDir } from '../host/data-dir.js';
import { PAGE_V8_FLAGS } from '../host/screens/page-v8-flags.js';
import { createLogger } from '../host/logger.js';
import { exitOnUncaught } from '../host/process-faults.js';
import { KNOWN_BRIDGES } from '../hardware/transport/usb-serial.js';
import { keepDisplayAwake } from './display-awake.js';
import { watchDisplays } from './displays.js';
import type { BrowserWindowLike, KioskElectron } from './electron-api.js';
import { isPrintableExport } from './exports.js';
import { installGuards } from './guards.js';
import { saveDownloads, serveScreens, startHost, wireIpc } from './kiosk-host.js';
import type { Kiosk, KioskOptions } from './kiosk-state.js';
import { applyDisplays, relaunch } from './kiosk-windows.js';
import { watchChildProcesses } from './process-watch.js';
import { parseScreenMap } from './screen-map.js';
import { APP_ORIGIN, APP_SCHEME, isAppUrl } from './security.js';

export type { KioskOptions } from './kiosk-state.js';

export interface RunningKiosk {
  /** Settles once the host is up and the windows are open (or the out-of-service page is shown). */
  ready: Promise<void>;
  log: Logger;
  /** The windows open now, by view. */
  windows(): Map<ViewName, BrowserWindowLike>;
  outOfService(): boolean;
}

/** USB ids a page could ever be granted: the bridges of our bill acceptors and shoe. */
const OUR_DEVICES = KNOWN_BRIDGES.map((b) => ({ vid: b.vid, pid: b.pid }));

export function startKiosk(e: KioskElectron, o: KioskOptions): RunningKiosk | null {
  const { app } = e;
  const k = kioskOf(e, o);
  const { log } = k;
  if (o.lastResort)
    exitOnUncaught(log, (code) => relaunchAfterFault(k, code), {
      laterFaults: 'logged',
      then: "the kiosk's main process relaunches (past its relaunch policy: the out-of-service page)",
    });

  // Before `ready`: sandbox every renderer, serve the screens from a privileged custom scheme,
  // and prefer X11 (Wayland ignores window bounds, so one window per display needs X11). The pages'
  // V8 flags keep their heaps within budget for weeks (host/screens/page-v8-flags.ts).
  app.enableSandbox();
  app.commandLine.appendSwitch('ozone-platform', 'x11');
  app.commandLine.appendSwitch('js-flags', PAGE_V8_FLAGS.join(' '));
  e.protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

  // A second kiosk on the same data folder would run a second host against the same ledger.
  if (!app.requestSingleInstanceLock()) {
    log.warn('another kiosk is running: quitting');
    app.quit();
    return null;
  }

  app.on('before-quit', () => {
    k.quitting = true;
    k.awake?.stop();
    k.host?.kill();
  });
  watchChildProcesses(app, log, (why) => relaunch(k, why), k.now);

  const ready = app
    .whenReady()
    .then(async () => {
      e.Menu.setApplicationMenu(null);
      installGuards({ app, session: e.session.defaultSession, log, isAppUrl, isPrintable: (u) => isPrintableExport(u, APP_ORIGIN), devices: OUR_DEVICES });
      serveScreens(k);
      saveDownloads(k);
      wireIpc(k);
      k.awake = keepDisplayAwake(e.powerSaveBlocker, log);
      watchDisplays(e.screen, (displays, why) => applyDisplays(k, displays, why));
      await startHost(k);
      applyDisplays(k, e.screen.getAllDisplays(), 'start');
      log.info({ windows: [...k.windows.keys()] }, 'kiosk started');
    })
    .catch((err: unknown) => {
      log.error({ err }, 'kiosk failed to start');
      relaunch(k, `kiosk failed to start: ${err instanceof Error ? err.message : String(err)}`);
    });

  return { ready, log, windows: () => new Map(k.windows), outOfService: () => k.outOfService };
}

/**
 * The main process's last resort, after the fault is logged fatal with its stack and the log
 * flushed (host/process-faults.ts): what threw may have left a window or the host's port half
 * made, so it never goes on. It relaunches as when the table host dies (the count on the command
 * line, exit 70 rather than 1 for the session's supervisor to tell a fault), and past the relaunch
 * policy shows the out-of-service page rather than loop or leave a desktop; already quitting, it exits.
 * Only the first fault comes here: on the out-of-service page the process lives on, and each later
 * fault is logged with its stack and count, never a second relaunch (`laterFaults: 'logged'`).
 */
function relaunchAfterFault(k: Kiosk, code: number): void {
  if (k.quitting) return k.e.app.exit(code);
  relaunch(k, 'an exception nothing handled in the main process', code);
}

/** The kiosk's state at start, from its command line. */
function kioskOf(e: KioskElectron, o: KioskOptions): Kiosk {
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
  const dataDirArg = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined;
  const dataDir = dataDirArg ?? defaultDataDir();
  return {
    e,
    o,
    // The same file as the table host's, in the same format: relaunch and crash decisions are there.
    log: o.log ?? createLogger(path.join(dataDir, 'logs'), { app: 'kiosk-main' }),
    now,
    dataDirArg,
    dataDir,
    rendererDir: path.resolve(o.here, '../renderer'),
    kiosk: values.dev !== true,
    startedAt: now(),
    relaunches: Number(values.relaunches ?? 0),
    map: {
      screens: typeof values.screens === 'string' ? values.screens.split(',').filter(Boolean) : [],
      pinned: typeof values['screen-map'] === 'string' && values['screen-map'] ? parseScreenMap(values['screen-map']) : {},
    },
    windows: new Map(),
    byContents: new Map(),
    closing: new WeakSet(),
    tokens: new Map(),
    host: null,
    hostOrigin: '',
    quitting: false,
    outOfService: false,
    awake: null,
  };
}
