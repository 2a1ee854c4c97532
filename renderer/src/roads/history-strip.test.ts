import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Graphics, Sprite, Text, Texture, type Container } from 'pixi.js';
import type { HistoryEntry } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { HistoryStrip } from './history-strip.js';

const t = createI18n('en').getFixedT('en');
const area = { x: 1480, y: 872, width: 420, height: 192 };
const entry = (n: number): HistoryEntry => ({
  roundId: `r${n}`,
  dealer: ['TS', '7H'],
  dealerTotal: 17,
  seats: [
    { seat: 1, outcome: 'win' },
    { seat: 2, outcome: n % 2 ? 'lose' : 'push' },
  ],
});
const graphics = (strip: Container) => strip.children.filter((c) => c instanceof Graphics).length;

describe("the table display's history strip (issue 52: the still layer that caches it)", () => {
  it('where the screen bakes, draws its box, frames and dots into one texture and shows no Graphics', () => {
    const bakes: { target: Container; into: Sprite | null; bounds: number[] }[] = [];
    const textures: Texture[] = [];
    const strip = new HistoryStrip(area, (target, into) => {
      const b = target.getLocalBounds();
      bakes.push({ target, into, bounds: [b.minX, b.minY, b.maxX, b.maxY] });
      if (into) return into;
      const texture = new Texture();
      textures.push(texture);
      return new Sprite(texture);
    });
    // The box, before any round.
    assert.equal(bakes.length, 1);
    assert.deepEqual(bakes[0]!.bounds, [-1, -1, 421, 193], 'the box, its 2-unit edge half outside the area');
    strip.show([entry(1)], t);
    strip.show([entry(1), entry(2)], t);
    strip.show([entry(1), entry(2)], t);
    assert.equal(bakes.length, 3, 'drawn again when a round is added, not when the same rounds come again');
    assert.deepEqual(
      bakes.map((b) => b.into !== null),
      [false, true, true],
      "each round into the first's sprite",
    );
    assert.equal(textures.length, 1);
    assert.equal(graphics(strip), 0, 'no vector art in the strip: the layer caching it is drawn without multisampling');
    assert.equal(strip.children.filter((c) => c instanceof Sprite).length, 1);
    assert.equal((bakes[2]!.target as Graphics).context.instructions.length, 0, 'the dots drawn are let go');
    assert.equal(strip.sharpen(), true, 'drawn again at a new resolution or after a lost context');
    assert.equal(bakes.length, 4);
    strip.destroy({ children: true });
    assert.equal(textures[0]!.destroyed, true, "the strip's texture goes with it");
  });

  it('without a way to bake, draws them as one Graphics, shown', () => {
    const strip = new HistoryStrip(area);
    strip.show([entry(1)], t);
    assert.equal(graphics(strip), 1);
    assert.equal(strip.sharpen(), false);
    strip.destroy({ children: true });
  });

  it("shows a dealer's bust as its total, over twenty-one, in every language: the regulation's word for it (超過二十一點, 2009 Art. 7) fits no column", () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const strip = new HistoryStrip(area);
      strip.show([entry(1), { ...entry(2), dealer: ['TS', '6H', '8C'], dealerTotal: 24 }], createI18n(language).getFixedT(language));
      const shown = strip.children.filter((c): c is Text => c instanceof Text && c.visible).map((c) => c.text);
      assert.deepEqual(shown.slice(1), ['17', '24'], language);
      strip.destroy({ children: true });
    }
  });
  it("says a new language in its key, so the table's cached layer is drawn again in it", () => {
    // The key once held the bust's word; with busts shown as totals (3aaff7e0) it held the rounds
    // alone, and a language change left the cached layer in the language before (the browser's
    // screen matrix found the strip on the felt in zh-Hant).
    const strip = new HistoryStrip(area);
    strip.show([entry(1)], t);
    const before = strip.drawn;
    strip.show([entry(1)], createI18n('zh-Hant').getFixedT('zh-Hant'));
    assert.notEqual(strip.drawn, before);
  });
});
