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

/**
 * What each snapshot from the host does: the page follows its language, the screen draws it at once.
 *
 * The newest snapshot is the one on screen, always. A snapshot in a language whose catalogue the
 * page does not hold waits for it (a chunk fetched from the host, locales/catalogue-files.screens.ts),
 * and snapshots that come meanwhile wait with it: once it is there, only the newest is drawn. An
 * older one drawn after a newer one undid what a press had done: the CI run of 27 November pressed
 * a language, then the Config page; the Config page's snapshot was drawn while English was being
 * fetched, then the Status page's from before it, once English had come, and stayed (the host
 * had nothing more to send). Nor is a snapshot drawn in a language before its words are there.
 */
export function showSnapshots(d: ShowSnapshotsDeps): (state: ViewState) => Promise<void> {
  /** The page's language: its catalogue held and i18next switched to it. */
  let language: ViewState['language'] | null = null;
  let newest: ViewState | null = null;
  /** A language's catalogue being fetched: the snapshots that come meanwhile are left to it. */
  let fetching = false;
  return async (state) => {
    newest = state;
    if (fetching) return;
    fetching = true;
    try {
      // Until the page is in the newest snapshot's language (it may change again while one is fetched).
      while (newest.language !== language) await follow(d, (language = newest.language));
    } finally {
      fetching = false;
    }
    draw(d, newest);
  };
}

/** The page switched to a language, once its catalogue has come. */
async function follow(d: ShowSnapshotsDeps, language: ViewState['language']): Promise<void> {
  try {
    await d.i18n.changeLanguage(language);
  } catch (e) {
    // A catalogue that could not be fetched: the screen goes on, in the source language's words (i18next's fallback).
    console.warn('no catalogue for', language, e);
  }
  // The page's language is the screen's, as a BCP 47 tag (the one Intl formats with): what
  // assistive tools and the browser's own font fallback go by.
  document.documentElement.lang = intlLocale(language);
  document.title = d.i18n.t('app.name');
}

function draw(d: ShowSnapshotsDeps, state: ViewState): void {
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
}
