import type { ProtocolError, ViewState } from '../../protocol/index.js';
import { refusalKey, stationOf } from '../../protocol/index.js';
import { HostClient } from './connection/host-client.js';
import { resolveLaunch } from './connection/launch.js';
import { loadFonts } from './fonts.js';
import { createI18n, isMessageKey, type MessageKey } from '../../locales/i18n.js';
import { INTL_LOCALE } from '../../locales/money.js';
import { SteppedClock, wallClock, type Clock } from './anim/clock.js';
import { CardAtlas, installCardAtlas } from './cards/card-art.js';
import { designResolution, sharpenTexts } from './pixi/crisp.js';
import { createStage } from './pixi/stage.js';
import { FrameLoop, NEVER } from './pixi/frames.js';
import { traceFrame } from './trace.js';
import { setLiveResolution, sharpenLiveTexts } from './ui/live-text.js';
import type { Screen, ScreenContext } from './screens/screen.js';
import { ServiceScreen } from './screens/service/service-screen.js';
import { StationScreen } from './screens/station-screen.js';
import { TableScreen } from './screens/table-screen.js';
import { installTestHooks } from './test-hooks.js';

async function boot(): Promise<void> {
  const launch = await resolveLaunch();
  const [{ app, root, onFit }] = await Promise.all([createStage(), loadFonts()]);
  const i18n = createI18n('zh-Hant');
  // `?clock=stepped` (tests, benchmarks): animations move only when the test hook steps the clock.
  const stepped = new URLSearchParams(location.search).get('clock') === 'stepped' ? new SteppedClock(Date.now()) : null;
  const clock: Clock = stepped ?? wallClock;
  // `?fps=N` (browser tests): fewer frames, so three screens fit one software-rendered CPU.
  const fps = Number(new URLSearchParams(location.search).get('fps') ?? 0);
  // Assigned once the screen exists; the loop draws nothing before its first request.
  let screen: Screen | null = null;
  const frames = new FrameLoop({
    now: () => clock.now(),
    draw: () => {
      const next = screen?.tick(clock.now()) ?? NEVER;
      app.render();
      return next;
    },
    minIntervalMs: fps > 0 ? 1000 / fps : 0,
    drawn: (t) => traceFrame(t),
  });
  const emit = installTestHooks(app, stepped, frames);
  const resolution = () => designResolution(app.renderer.resolution, root.scale.x);
  setLiveResolution(resolution());
  const atlas = new CardAtlas(app.renderer, resolution());
  atlas.warm();
  installCardAtlas(atlas);

  let client: HostClient | null = null;
  // A refusal that reconnecting cannot cure stays on screen: it names what the attendant must fix.
  let fatal: MessageKey | null = null;
  /** The refusal on the banner now (screens without a place of their own for it). */
  let banner = 0;
  const ctx: ScreenContext = { i18n, command: (c) => client?.command(c), sessionStartMs: Date.now(), clock, emit: (e) => emit(e) };
  const shown: Screen = launch.view === 'table' ? new TableScreen(ctx) : launch.view === 'service' ? new ServiceScreen(ctx) : new StationScreen(ctx);
  screen = shown;
  root.addChild(shown.root);
  onFit(() => {
    sharpenTexts(root, resolution());
    sharpenLiveTexts(root, resolution());
    shown.sharpen?.(resolution());
    frames.request();
  });
  shown.sharpen?.(resolution());
  // A press, a key or the wheel may change what a screen shows (a chip chosen, a pad opened, a page
  // scrolled): drawn at once, after the screen's own handlers (pixi's on the canvas, the service
  // screen's on the window before these), so a button that appeared is where pixi hit-tests it
  // (pixi places its hit areas with the transforms of the last frame drawn).
  for (const type of ['pointerdown', 'pointerup', 'keydown', 'wheel'] as const) window.addEventListener(type, () => frames.drawNow(), { passive: true });
  shown.setStatus('status.connecting');
  frames.request();
  document.title = i18n.t('app.name');
  document.documentElement.lang = INTL_LOCALE['zh-Hant'];

  let language: ViewState['language'] | null = null;
  const onSnapshot = async (state: ViewState) => {
    if (state.language !== language) {
      language = state.language;
      await i18n.changeLanguage(state.language);
      // The page's language is the screen's, as a BCP 47 tag (the one Intl formats with): what
      // assistive tools and the browser's own font fallback go by.
      document.documentElement.lang = INTL_LOCALE[state.language];
      document.title = i18n.t('app.name');
    }
    shown.setStatus(null);
    shown.render(state);
    sharpenTexts(root, resolution());
    sharpenLiveTexts(root, resolution());
    // Drawn at once, as the snapshot's buttons are pressed where this frame puts them (a press
    // right after a snapshot, before the next display frame, would miss a button it created).
    frames.drawNow();
    emit(`snapshot:${launch.view}`);
    emit(`language:${state.language}`);
    if (state.kind === 'station') emit(`credit:${state.credit}`);
  };

  // The screen keeps trying to reach the host: after a restart of the host (or a lost socket)
  // it reconnects by itself and resynchronises from the next snapshot.
  const retry = (attempt: number) => setTimeout(() => void connect(attempt), Math.min(10_000, 500 * 2 ** attempt));
  const connect = async (attempt: number): Promise<void> => {
    let transport;
    try {
      transport = await launch.connect();
    } catch {
      shown.setStatus('status.offline');
      frames.request();
      retry(attempt + 1);
      return;
    }
    client = new HostClient(transport, launch.view, {
      snapshot: (_view, _version, state) => {
        attempt = 0;
        void onSnapshot(state);
      },
      error: (e: ProtocolError) => {
        emit(`error:${e.code}`);
        frames.request();
        // The refusal's own words where the host names one the catalogues have, else the error code's.
        const key: MessageKey = e.refusal ? refusalKey(e.refusal) : isMessageKey(e.messageKey) ? e.messageKey : `errors.${e.code}`;
        if (e.code === 'unauthorized' || e.code === 'protocol-version' || e.code === 'forbidden-view') {
          fatal = key;
          shown.setStatus(fatal);
        } else if (e.code === 'rejected' || e.code === 'stale-version' || e.code === 'rate-limited') {
          // A refused bet or decision is said, never silently dropped, and the message clears itself.
          // Over the rate limit too (the host dropped the taps unread): said the same way.
          if (shown.refused) shown.refused(key);
          else {
            shown.setStatus(key);
            // Only this message's own timer may clear it: a newer one starts its own.
            const mine = ++banner;
            setTimeout(() => {
              if (mine === banner) shown.setStatus(fatal);
              frames.request();
            }, 2500);
          }
          emit(`refused:${e.messageKey}`);
        }
      },
      closed: () => {
        emit('closed');
        shown.setStatus(fatal ?? 'status.offline');
        frames.request();
        if (!fatal) retry(attempt + 1);
      },
    });
    client.start(launch.token);
  };
  await connect(0);
  emit(`ready:${stationOf(launch.view) === null ? launch.view : 'station'}`);
}

boot().catch((e: unknown) => {
  console.error('screen failed to start', e);
  document.body.textContent = '';
  const p = document.createElement('p');
  p.style.cssText = 'color:#ffb347;font:32px sans-serif;padding:2em';
  // Before the catalogues load there is no language yet: show the three official lines.
  p.textContent = '無法啟動畫面，請通知職員 · Erro ao iniciar o ecrã: chame um funcionário · Screen failed to start: call an attendant';
  document.body.appendChild(p);
});
