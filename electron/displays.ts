import type { ViewName } from '../protocol/index.js';
import type { DisplayLike, ScreenLike } from './electron-api.js';
import { assignScreens } from './screen-map.js';

export interface ScreenMapOptions {
  screens: readonly string[];
  pinned?: Readonly<Record<string, string>>;
}

export interface DisplayPlan {
  /** Windows that stay, each (re)placed on its display. */
  place: { view: ViewName; display: DisplayLike }[];
  /** Views that have a display again (or for the first time): a window to open. */
  open: { view: ViewName; display: DisplayLike }[];
  /** Views whose display is gone: their window closes rather than land on another screen. */
  close: ViewName[];
  /** Views the map wants that have no display now. */
  unplaced: ViewName[];
}

/**
 * The screen map applied again to the displays there are now. A window never moves to another
 * view's display: when its display goes, the window closes (a station's screen must not appear on
 * the table display), and when a display comes back its view opens again.
 */
export function planDisplays(openViews: readonly ViewName[], displays: readonly DisplayLike[], map: ScreenMapOptions): DisplayPlan {
  const { windows, unplaced } = assignScreens(displays, { screens: map.screens, ...(map.pinned ? { pinned: map.pinned } : {}) });
  const wanted = new Set(windows.map((w) => w.view));
  return {
    place: windows.filter((w) => openViews.includes(w.view)),
    open: windows.filter((w) => !openViews.includes(w.view)),
    close: openViews.filter((v) => !wanted.has(v)),
    unplaced,
  };
}

/**
 * Displays plugged in or out, or changed (resolution, arrangement): once they settle (a dock or a
 * KVM sends several events at once), `apply` gets the displays there are now. The caller plans
 * with `planDisplays` and opens, moves and closes windows.
 */
export function watchDisplays(
  screen: ScreenLike,
  apply: (displays: DisplayLike[], why: string) => void,
  settleMs = 750,
  timers: { set: (f: () => void, ms: number) => unknown; clear: (t: unknown) => void } = {
    set: (f, ms) => setTimeout(f, ms),
    clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  },
): void {
  let pending: unknown = null;
  const reasons = new Set<string>();
  const later = (why: string) => {
    reasons.add(why);
    if (pending !== null) timers.clear(pending);
    pending = timers.set(() => {
      pending = null;
      const why = [...reasons].join(', ');
      reasons.clear();
      apply(screen.getAllDisplays(), why);
    }, settleMs);
  };
  screen.on('display-added', () => later('display-added'));
  screen.on('display-removed', () => later('display-removed'));
  screen.on('display-metrics-changed', () => later('display-metrics-changed'));
}
