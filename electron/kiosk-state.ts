import type { Logger } from 'pino';
import type { ViewName } from '../protocol/index.js';
import type { keepDisplayAwake } from './display-awake.js';
import type { BrowserWindowLike, KioskElectron, UtilityProcessLike } from './electron-api.js';
import type { parseScreenMap } from './screen-map.js';

// The kiosk's main process as plain state (electron/kiosk-main.ts): what it was started with, and
// what it holds now (its windows, the table host, whether it is quitting or out of service). The
// windows (kiosk-windows.ts) and the host and its screens (kiosk-host.ts) are functions over it.

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
  /**
   * Installs the main process's last resort (electron/main.ts does; the tests of the other
   * handlers leave it off, as it would take the test runner's own exceptions): kiosk-main.ts.
   */
  lastResort?: boolean;
}

export interface Kiosk {
  readonly e: KioskElectron;
  readonly o: KioskOptions;
  readonly log: Logger;
  readonly now: () => number;
  /** `--data-dir` as given (the host is passed it too), and the folder in use. */
  readonly dataDirArg: string | undefined;
  readonly dataDir: string;
  readonly rendererDir: string;
  /** Locked down: every window full screen, frameless, without devtools (false under `--dev`). */
  readonly kiosk: boolean;
  readonly startedAt: number;
  /** Consecutive relaunches before this start (`--relaunches`). */
  readonly relaunches: number;
  /** The views to show and the displays some are pinned to (`--screens`, `--screen-map`). */
  readonly map: { readonly screens: string[]; readonly pinned: ReturnType<typeof parseScreenMap> };
  readonly windows: Map<ViewName, BrowserWindowLike>;
  /** Each window's view by its web contents' id: who is asking over the bridge. */
  readonly byContents: Map<number, ViewName>;
  /** Windows the kiosk itself is closing (any other close is refused in kiosk mode). */
  readonly closing: WeakSet<BrowserWindowLike>;
  /** Each view's session token, from the host's ready message. */
  tokens: Map<ViewName, string>;
  host: UtilityProcessLike | null;
  hostOrigin: string;
  quitting: boolean;
  outOfService: boolean;
  awake: ReturnType<typeof keepDisplayAwake> | null;
}
