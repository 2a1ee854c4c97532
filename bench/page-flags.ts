// The V8 flags a bench's Chromium runs the pages with: the kiosk's own (host/screens/page-v8-flags.ts,
// which Electron passes to every page) unless the bench's variable says otherwise, so a page is weighed
// and timed as a cabinet runs it. `none` runs V8's defaults (every tier), to compare the two.
import { PAGE_V8_FLAGS } from '../host/screens/page-v8-flags.js';

/** The flags from `variable`: unset → the kiosk's; `none` → V8's defaults (''); else the variable's own. */
export function pageJsFlags(variable: string | undefined): string {
  if (variable === undefined) return PAGE_V8_FLAGS.join(' ');
  return variable.trim() === 'none' ? '' : variable.trim();
}

/** Chromium's switch for them (none when V8's defaults are asked for). */
export const jsFlagsArgs = (flags: string): string[] => (flags ? [`--js-flags=${flags}`] : []);
