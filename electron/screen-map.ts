import { ViewName } from '../protocol/index.js';

export interface DisplayInfo {
  id: number;
  bounds: { x: number; y: number; width: number; height: number };
}

/**
 * Which screen each display shows. A cabinet's map is data (`--screens=table,station/1,…` in
 * display order, or `--screen-map=<displayId>:<view>,…` to pin views to display ids), so a
 * technician can swap cables without a new build. Displays without a screen stay dark; a view
 * whose display is missing is reported, not silently dropped.
 */
export function assignScreens(
  displays: readonly DisplayInfo[],
  options: { screens: readonly string[]; pinned?: Readonly<Record<string, string>> },
): { windows: { display: DisplayInfo; view: ViewName }[]; unplaced: ViewName[] } {
  const windows: { display: DisplayInfo; view: ViewName }[] = [];
  const used = new Set<number>();
  const unplaced: ViewName[] = [];
  for (const [id, view] of Object.entries(options.pinned ?? {})) {
    const display = displays.find((d) => String(d.id) === id);
    const parsed = ViewName.parse(view);
    if (display && !used.has(display.id)) {
      windows.push({ display, view: parsed });
      used.add(display.id);
    } else unplaced.push(parsed);
  }
  const free = displays.filter((d) => !used.has(d.id));
  const pinnedViews = new Set(Object.values(options.pinned ?? {}));
  for (const view of options.screens.map((s) => ViewName.parse(s)).filter((v) => !pinnedViews.has(v))) {
    const display = free.shift();
    if (display) windows.push({ display, view });
    else unplaced.push(view);
  }
  return { windows, unplaced };
}

/** `--screen-map=2:table,3:station/1` → { '2': 'table', '3': 'station/1' }. */
export function parseScreenMap(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = pair.indexOf(':');
    if (at <= 0) throw new Error(`screen map entry "${pair}" is not <displayId>:<view>`);
    out[pair.slice(0, at)] = ViewName.parse(pair.slice(at + 1));
  }
  return out;
}
