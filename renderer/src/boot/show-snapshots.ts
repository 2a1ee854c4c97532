import type { i18n } from 'i18next';
import type { Container } from 'pixi.js';
import type { ViewName, ViewState } from '../../../protocol/index.js';
import { intlLocale } from '../../../locales/money.js';
import { sharpenTexts } from '../pixi/crisp.js';
import type { FrameLoop } from '../pixi/frames.js';
import { sharpenLiveTexts } from '../ui/live-text.js';
import type { Screen } from '../screens/screen.js';

export interface ShowSnapshotsDeps {
  readonly i18n: i18n;
  readonly view: ViewName;
  readonly shown: Screen;
  readonly root: Container;
  readonly resolution: () => number;
  readonly frames: FrameLoop;
  readonly emit: (event: string) => void;
}

/** What each snapshot from the host does: the page follows its language, the screen draws it at once. */
export function showSnapshots(d: ShowSnapshotsDeps): (state: ViewState) => Promise<void> {
  let language: ViewState['language'] | null = null;
  return async (state) => {
    if (state.language !== language) {
      language = state.language;
      await d.i18n.changeLanguage(state.language);
      // The page's language is the screen's, as a BCP 47 tag (the one Intl formats with): what
      // assistive tools and the browser's own font fallback go by.
      document.documentElement.lang = intlLocale(state.language);
      document.title = d.i18n.t('app.name');
    }
    d.shown.setStatus(null);
    d.shown.render(state);
    sharpenTexts(d.root, d.resolution());
    sharpenLiveTexts(d.root, d.resolution());
    // Drawn at once, or under a frame cap (`?fps=`) at the next frame it allows, of the last state
    // (frames.ts, drawSoon). A press right after a snapshot whose frame waits for its turn draws it
    // first (`flush`, main.ts), so a button the snapshot created is hit where the stage has it.
    d.frames.drawSoon();
    d.emit(`snapshot:${d.view}`);
    d.emit(`language:${state.language}`);
    if (state.kind === 'station') d.emit(`credit:${state.credit}`);
  };
}
