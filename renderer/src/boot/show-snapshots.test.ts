import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Container } from 'pixi.js';
import type { i18n } from 'i18next';
import { intlLocale } from '../../../locales/money.js';
import type { ViewState } from '../../../protocol/index.js';
import type { FrameLoop } from '../pixi/frames.js';
import type { Screen } from '../screens/screen.js';
import { showSnapshots } from './show-snapshots.js';

/** A page's document as far as the snapshots touch it. */
const g = globalThis as unknown as { document?: unknown };
const saved = g.document;
beforeEach(() => {
  g.document = { documentElement: { lang: '' }, title: '' };
});
afterEach(() => {
  g.document = saved;
});

/**
 * An i18n whose catalogues other than the source's arrive when the test says (a chunk fetched
 * from the host, as a screen's page loads them: locales/catalogue-files.screens.ts).
 */
function slowCatalogues() {
  const loaded = new Set(['zh-Hant']);
  const waiting: { lang: string; done: () => void }[] = [];
  const asked: string[] = [];
  let language = 'zh-Hant';
  const i18n = {
    get language() {
      return language;
    },
    t: () => 'title',
    changeLanguage: (lang: string) => {
      asked.push(lang);
      const settle = () => {
        loaded.add(lang);
        language = lang;
      };
      if (loaded.has(lang)) {
        settle();
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push({ lang, done: () => (settle(), resolve()) }));
    },
  };
  /** The catalogues fetched so far come in. */
  const arrive = async () => {
    for (const w of waiting.splice(0)) w.done();
    await settled();
  };
  return { i18n: i18n as unknown as i18n, asked, arrive, language: () => language };
}

/** Lets every promise already resolved run its continuations (no timers are involved). */
async function settled(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** A service view on a page, in a language: enough for a screen that records what it drew. */
const service = (page: string, language: string, n: number) => ({ kind: 'service', language, page: { page }, n }) as unknown as ViewState;

function setup(i18n: i18n) {
  const drawn: { page: string; language: string }[] = [];
  const shown = {
    root: new Container(),
    render: (s: ViewState) => drawn.push({ page: (s as unknown as { page: { page: string } }).page.page, language: s.language }),
    setStatus: () => undefined,
    tick: () => Infinity,
  } satisfies Screen;
  let frames = 0;
  const events: string[] = [];
  const show = showSnapshots({
    i18n,
    view: 'service',
    shown,
    root: new Container(),
    resolution: () => 1,
    frames: { drawSoon: () => void frames++ } as unknown as FrameLoop,
    emit: (e) => events.push(e),
  });
  return { show: (s: ViewState) => void show(s), drawn, frames: () => frames, events };
}

describe('snapshots shown while a language is fetched (the CI failure of 27 November: a page opened right after a language was chosen)', () => {
  it('draws the newest snapshot last: one that came while the new language was fetched is not overwritten by the older one', async () => {
    const cat = slowCatalogues();
    const s = setup(cat.i18n);
    s.show(service('status', 'zh-Hant', 1));
    await settled();
    // English chosen: the host's snapshot in English waits for its catalogue; the Config page is
    // pressed meanwhile and the host's snapshot of it comes before the catalogue does.
    s.show(service('status', 'en', 2));
    s.show(service('config', 'en', 3));
    await settled();
    await cat.arrive();
    assert.deepEqual(s.drawn.at(-1), { page: 'config', language: 'en' }, 'the page pressed stays on screen');
    assert.deepEqual(
      s.drawn.map((d) => d.page),
      ['status', 'config'],
      'the older snapshot is never drawn once a newer one is there',
    );
    assert.ok(s.events.includes('language:en'));
    assert.equal(s.frames(), s.drawn.length, 'each snapshot drawn asks for its frame');
  });

  it('draws nothing in a language whose catalogue has not come: the words would be the source language’s', async () => {
    const cat = slowCatalogues();
    const s = setup(cat.i18n);
    s.show(service('status', 'zh-Hant', 1));
    await settled();
    s.show(service('status', 'pt', 2));
    s.show(service('holds', 'pt', 3));
    await settled();
    assert.equal(s.drawn.length, 1, 'nothing drawn in Portuguese before its catalogue');
    await cat.arrive();
    assert.deepEqual(s.drawn.at(-1), { page: 'holds', language: 'pt' });
    assert.equal(cat.language(), 'pt');
  });

  it('ends in the language of the newest snapshot when the language is changed back before the first catalogue comes', async () => {
    const cat = slowCatalogues();
    const s = setup(cat.i18n);
    s.show(service('status', 'zh-Hant', 1));
    await settled();
    s.show(service('status', 'en', 2));
    s.show(service('status', 'zh-Hant', 3));
    await settled();
    await cat.arrive();
    await cat.arrive();
    assert.deepEqual(s.drawn.at(-1), { page: 'status', language: 'zh-Hant' });
    assert.equal(cat.language(), 'zh-Hant', 'i18n is left in the language on screen, not the one fetched last');
    assert.equal((g.document as { documentElement: { lang: string } }).documentElement.lang, intlLocale('zh-Hant'));
  });
});
