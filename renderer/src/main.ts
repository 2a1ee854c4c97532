import { stationOf } from '../../protocol/index.js';
import { HostLink } from './boot/host-link.js';
import { installSharedArt } from './boot/shared-art.js';
import { showSnapshots } from './boot/show-snapshots.js';
import { resolveLaunch } from './connection/launch.js';
import { loadFonts } from './fonts.js';
import { createI18n } from '../../locales/i18n.js';
import { screenFailedWords } from '../../locales/index.js';
import { intlLocale } from '../../locales/money.js';
import { SteppedClock, wallClock, type Clock } from './anim/clock.js';
import { designResolution, sharpenTexts } from './pixi/crisp.js';
import { ContextLoss } from './pixi/context-loss.js';
import { createStage } from './boot/stage.js';
import { FrameLoop, listenForPresses, NEVER } from './pixi/frames.js';
import { isIdle, releaseWhenStill } from './pixi/release-still.js';
import { traceFrame } from './trace.js';
import { releaseUnusedFaces } from './ui/button-faces.js';
import { forgetPress } from './ui/button.js';
import { sharpenLiveTexts } from './ui/live-text.js';
import type { Screen, ScreenContext } from './screens/screen.js';
import { SERVICE_BACKGROUND, ServiceScreen } from './screens/service/service-screen.js';
import { STATION_BACKGROUND, StationScreen } from './station/station-screen.js';
import { FELT_LANGUAGES, TableScreen } from './screens/table-screen.js';
import { installTestHooks } from './test-hooks.js';
import { mountSeveral } from './several/start-several.js';

async function boot(): Promise<void> {
  const launch = await resolveLaunch();
  const i18n = createI18n('zh-Hant');
  const [{ app, root, onFit }] = await Promise.all([createStage(), loadFonts(), launch.view === 'table' && i18n.loadLanguages(Object.values(FELT_LANGUAGES))]);
  // `?clock=stepped` (tests, benchmarks): animations move only when the test hook steps the clock.
  const stepped = new URLSearchParams(location.search).get('clock') === 'stepped' ? new SteppedClock(Date.now()) : null;
  const clock: Clock = stepped ?? wallClock;
  // `?fps=N` (browser tests): fewer frames, so three screens fit one software-rendered CPU.
  const fps = Number(new URLSearchParams(location.search).get('fps') ?? 0);
  // Assigned once the screen exists; the loop draws nothing before its first request.
  let screen: Pick<Screen, 'tick'> | null = null;
  const frames = new FrameLoop({
    now: () => clock.now(),
    draw: () => {
      const now = clock.now();
      const next = screen?.tick(now) ?? NEVER;
      // Nothing is drawn against a lost context; the restore draws a frame at once (context-loss.ts).
      if (!loss.lost) app.render();
      // A screen idle lets go of what pixi keeps for the next change (release-still.ts).
      if (isIdle(now, next)) {
        releaseWhenStill(app.renderer, now);
        releaseUnusedFaces(now);
      }
      return next;
    },
    minIntervalMs: fps > 0 ? 1000 / fps : 0,
    drawn: (t) => traceFrame(t),
  });
  const emit = installTestHooks(app, stepped, frames);
  const loss = new ContextLoss({ canvas: app.canvas, stage: app.stage, drawNow: () => frames.drawNow(), now: () => performance.now(), emit });
  const resolution = () => designResolution(app.renderer.resolution, root.scale.x);
  const bake = installSharedArt(app, resolution, onFit, loss.add);

  // Assigned before the first command can be made (the screen draws its buttons from the first snapshot).
  let link: HostLink | null = null;
  const ctx: ScreenContext = {
    i18n,
    command: (c) => link?.command(c),
    sessionStartMs: Date.now(),
    clock,
    emit: (e) => emit(e),
    wantRecall: (on) => link?.wantRecall(on),
    bake,
    rebake: loss.add,
  };
  const reportsTo = loss.reportTo; // the several-tables screen reports to every table's host (renderer/src/several/)
  if (launch.several) return void (screen = mountSeveral({ ...launch.several, token: launch.token, ctx, i18n, root, frames, onFit, resolution, reportsTo }));
  // A station alone on its page, and the service screen: the canvas is cleared to its background
  // instead of a full-screen rectangle drawn (StationScreenOptions, ServiceScreen.placeHeading).
  if (launch.view === 'service') app.renderer.background.color = SERVICE_BACKGROUND;
  else if (launch.view !== 'table') app.renderer.background.color = STATION_BACKGROUND;
  const shown: Screen =
    launch.view === 'table' ? new TableScreen(ctx) : launch.view === 'service' ? new ServiceScreen(ctx) : new StationScreen(ctx, { clearedBackground: true });
  screen = shown;
  root.addChild(shown.root);
  onFit(() => {
    // The screen first: the table draws its felt anew at a new resolution, and its printed words
    // are then sharpened with the rest.
    shown.sharpen?.(resolution());
    sharpenTexts(root, resolution());
    sharpenLiveTexts(root, resolution());
    frames.request();
  });
  shown.sharpen?.(resolution());
  // A press, a key or the wheel may change what a screen shows (a chip chosen, a pad opened): drawn
  // at once (under a frame cap, at its next allowed frame) after the screen's own handlers, and a
  // frame still owed drawn before pixi hit-tests a press with the transforms of the last frame drawn
  // (a button a snapshot created is then where the stage has it: frames.ts, listenForPresses).
  listenForPresses(frames, forgetPress);
  shown.setStatus('status.connecting');
  frames.request();
  document.title = i18n.t('app.name');
  document.documentElement.lang = intlLocale('zh-Hant');

  const snapshot = showSnapshots({ i18n, view: launch.view, shown, root, resolution, frames, emit });
  link = new HostLink({ launch, shown, frames, emit, snapshot: (state) => void snapshot(state) });
  loss.reportTo(link.report);
  await link.connect();
  emit(`ready:${stationOf(launch.view) === null ? launch.view : 'station'}`);
}

boot().catch((e: unknown) => {
  console.error('screen failed to start', e);
  document.body.textContent = '';
  const p = document.createElement('p');
  p.style.cssText = 'color:#ffb347;font:32px sans-serif;padding:2em';
  // No language is chosen yet: say it in every language offered, each in its own words.
  p.textContent = screenFailedWords().join(' · ');
  document.body.appendChild(p);
});
