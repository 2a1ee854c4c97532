import type { Application } from 'pixi.js';
import type { SteppedClock } from './anim/clock.js';
import type { FrameLoop } from './pixi/frames.js';
import { stageBoxes } from './test-hooks/stage-boxes.js';
import { bakedArt, buttonBounds, buttonFaces, cachedLayers, feltExtent, highlightRing, stageCards, stageTexts } from './test-hooks/stage-reads.js';
import { eventLog } from './test-hooks/event-log.js';
import { pixiCounts } from './test-hooks/pixi-counts.js';
import { textureSources } from './test-hooks/texture-sources.js';
import { installTraces } from './test-hooks/traces.js';
import type { KioskTestHooks } from './test-hooks/kiosk-hooks.js';

export type { KioskTestHooks };

export function installTestHooks(app: Application, clock: SteppedClock | null, frames: FrameLoop): (event: string) => void {
  // Kept only under automation: a kiosk's own screens would keep every name for weeks (event-log.ts).
  const log = eventLog(navigator.webdriver);
  const hooks: KioskTestHooks = {
    events: log.events,
    quiet: () => log.quiet(),
    texts: () => stageTexts(app.stage),
    cards: () => stageCards(app.stage),
    bounds: (testId) => buttonBounds(app.stage, testId),
    // `resizeTo: window` (boot/stage.ts): the screen is the window's inner size once fitted.
    fitted: () => app.screen.width === window.innerWidth && app.screen.height === window.innerHeight,
    boxes: () => stageBoxes(app.stage),
    felt: () => feltExtent(app.stage),
    baked: () => bakedArt(app.stage),
    faces: () => buttonFaces(app.stage),
    layers: () => cachedLayers(app.stage),
    step(ms) {
      if (!clock) throw new Error('open the screen with ?clock=stepped to step its clock');
      clock.step(ms);
      frames.drawNow();
    },
    highlight: () => highlightRing(app.stage),
    framesDrawn: () => frames.count,
    pixi: () => pixiCounts(app),
    textureSources: () => textureSources(app),
  };
  if (new URLSearchParams(location.search).get('trace') === '1') installTraces(hooks);
  window.__kiosk = hooks;
  return (event) => log.emit(event);
}
