import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from 'pixi.js';
import { Graphics, Sprite, Text, Texture, TexturePool } from 'pixi.js';
import { roadsOfCoups, shoeCoups, type CoupOutcome } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { RoadsPanel } from './roads-panel.js';
import { pixiMade } from '../test-hooks/pixi-made.js';

const i18n = createI18n('zh-Hant');
const t = i18n.getFixedT('zh-Hant');
/** A text's width as a browser's would go (Node has no canvas to measure with): a CJK character a font size wide, anything else 0.6 of one. */
const measure = (x: Text) => [...x.text].reduce((w, c) => w + (c.codePointAt(0)! >= 0x2e80 ? 1 : 0.6), 0) * Number(x.style.fontSize);
const coup = (winner: CoupOutcome['winner'], bankerPair = false): CoupOutcome => ({ winner, playerPair: false, bankerPair, playerTotal: 6, bankerTotal: 7 });
const roads = (n: number) => roadsOfCoups(shoeCoups('s1', [coup('banker', true), coup('player'), coup('tie'), coup('banker')].slice(0, n)));

/** Graphics in the panel that still hold drawn geometry. */
const drawnGraphics = (panel: Container) => panel.children.filter((c) => c instanceof Graphics && c.context.instructions.length > 0).length;

describe("the table display's roads panel (issue 31: its JS heap)", () => {
  it('draws its box, grids and marks into a texture at each coup and keeps no Graphics of them', () => {
    const baked: Texture[] = [];
    const drawn: { minX: number; minY: number; maxX: number; maxY: number }[] = [];
    const panel = new RoadsPanel(
      { x: 0, y: 0, width: 420, height: 1000 },
      (target) => {
        const { minX, minY, maxX, maxY } = target.getLocalBounds();
        drawn.push({ minX, minY, maxX, maxY });
        const texture = new Texture();
        baked.push(texture);
        return new Sprite(texture);
      },
      measure,
    );
    panel.show(roads(2), t);
    panel.bakeOwed();
    panel.show(roads(4), t);
    panel.bakeOwed();
    assert.equal(baked.length, 2, 'one texture a coup drawn in a frame');
    // The box (its 3-unit gold edge half outside the area) is baked with the marks: the panel holds no
    // vector art, so the table's still layer that caches it is drawn without multisampling (issue 52).
    // (This test's area is shorter than the ask road's marks: they reach below it.)
    assert.deepEqual([drawn[1]!.minX, drawn[1]!.minY, drawn[1]!.maxX], [-1.5, -1.5, 421.5]);
    assert.ok(drawn[1]!.maxY >= 1001.5);
    assert.equal(panel.children.filter((c) => c instanceof Graphics).length, 0);
    const sprites = panel.children.filter((c) => c instanceof Sprite);
    assert.equal(sprites.length, 1, "the last coup's marks, shown as one sprite");
    assert.equal(sprites[0]!.texture, baked[1]);
    assert.equal(baked[0]!.destroyed, true, "the previous coup's texture is let go");
    panel.destroy({ children: true });
    assert.equal(baked[1]!.destroyed, true, "the panel's texture goes with it");
  });

  it('bakes at the frame, not at each coup: ten coups between two frames bake once, the last (issue 52)', () => {
    // A host at test timings plays coups faster than a capped or starved page draws frames; each
    // coup baked at once was a multisampled render of the panel and its resolve on a software GPU
    // that no frame ever showed (the long-run bench: 2.7-4 such passes a frame drawn).
    const baked: string[] = [];
    const panel = new RoadsPanel(
      { x: 0, y: 0, width: 420, height: 1000 },
      (_target, again) => {
        baked.push(panel.drawn);
        return again ?? new Sprite(new Texture());
      },
      measure,
    );
    const coups: CoupOutcome[] = Array.from({ length: 10 }, (_, i) => coup(i % 3 === 0 ? 'player' : 'banker'));
    for (let n = 1; n <= coups.length; n++) panel.show(roadsOfCoups(shoeCoups('s1', coups.slice(0, n))), t);
    assert.equal(baked.length, 0, 'a coup alone bakes nothing');
    assert.equal(panel.bakeOwed(), true, 'the frame bakes what is owed');
    assert.deepEqual(baked, [JSON.stringify(roadsOfCoups(shoeCoups('s1', coups)))], "one bake, of the last coup's roads");
    assert.equal(panel.bakeOwed(), false, 'a frame with no coup since bakes nothing');
    panel.show(roadsOfCoups(shoeCoups('s1', coups)), t);
    assert.equal(panel.bakeOwed(), false, 'the same roads again: nothing owed');
    assert.equal(baked.length, 1);
    panel.destroy({ children: true });
  });

  it('without a way to bake (a station), draws its marks as Graphics as before', () => {
    const panel = new RoadsPanel({ x: 0, y: 0, width: 420, height: 1000 }, undefined, measure);
    panel.show(roads(3), t);
    assert.equal(drawnGraphics(panel), 1, 'the box and marks, one Graphics');
    assert.equal(panel.children.filter((c) => c instanceof Sprite).length, 0);
  });

  it('draws every coup into the texture and sprite of the first, making no pixi object a coup (issue 52)', () => {
    const baked: Texture[] = [];
    const into: (Sprite | null)[] = [];
    const panel = new RoadsPanel(
      { x: 0, y: 0, width: 420, height: 1000 },
      (_target, again) => {
        into.push(again);
        if (again) return again;
        const texture = new Texture();
        baked.push(texture);
        return new Sprite(texture);
      },
      measure,
    );
    const coups: CoupOutcome[] = Array.from({ length: 60 }, (_, i) => coup(i % 7 === 3 ? 'tie' : i % 3 === 0 ? 'player' : 'banker', i % 5 === 0));
    panel.show(roadsOfCoups(shoeCoups('s1', coups.slice(0, 1))), t);
    panel.bakeOwed();
    const before = pixiMade();
    // A frame after each coup: each is baked.
    for (let n = 2; n <= coups.length; n++) {
      panel.show(roadsOfCoups(shoeCoups('s1', coups.slice(0, n))), t);
      panel.bakeOwed();
    }
    const made = pixiMade();
    assert.equal(baked.length, 1, 'one texture for the whole shoe');
    assert.equal(into.filter((x) => x !== null).length, coups.length - 1, "each coup after the first is drawn into the first's sprite");
    assert.equal(made.containers - before.containers, 0, 'no Graphics or sprite made a coup');
    assert.equal(made.textures - before.textures, 0);
    assert.equal(made.graphicsContexts - before.graphicsContexts, 0);
    // A path a colour of a kind of mark, not one a mark: a coup of a full-ish shoe is some twenty.
    const paths = (made.graphicsPaths - before.graphicsPaths) / (coups.length - 1);
    assert.ok(paths < 40, `${paths.toFixed(1)} graphics paths a coup`);
    assert.equal(drawnGraphics(panel), 0, 'the box and marks drawn are let go: the panel holds no geometry');
    panel.destroy({ children: true });
    assert.equal(baked[0]!.destroyed, true);
  });

  it("keeps the shoe's counts inside the panel whatever they are, so their texture stays one size (issue 52)", () => {
    // The table display's panel (felt-layout.ts's baccarat panel: x 1409 to 1904): 463 units inside its margins.
    const area = { x: 1409, y: 16, width: 495, height: 1048 };
    const inside = area.width - 32;
    const stats = (panel: RoadsPanel) => panel.children.find((c): c is Text => c instanceof Text && c.y === 54)!;
    const sizes = new Set<string>();
    const fonts = new Set<number>();
    let widest = 0;
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const panel = new RoadsPanel(area, undefined, measure);
      const tl = i18n.getFixedT(language);
      const base = roadsOfCoups(shoeCoups('s1', [coup('banker')]));
      // Every count from none to three digits, in every field: 4 × 6 × 12 lines.
      for (const n of [0, 1, 5, 9, 10, 23, 47, 61, 88, 99, 100, 104])
        for (const field of ['coups', 'banker', 'player', 'tie', 'bankerPair', 'playerPair'] as const) {
          panel.show({ ...base, stats: { coups: 9, banker: 4, player: 3, tie: 2, bankerPair: 1, playerPair: 1, [field]: n } }, tl);
          const text = stats(panel);
          const w = measure(text);
          widest = Math.max(widest, w);
          assert.ok(w <= inside, `${language} "${text.text}": ${w.toFixed(0)} wide, the panel ${inside} inside`);
          fonts.add(Number(text.style.fontSize));
          // The texture pixi's text system asks its pool for (the line's size rounded up to powers of two).
          const h = Number(text.style.fontSize) * 1.3;
          const size = TexturePool.getOptimalSize(w, h, 1);
          sizes.add(`${size.width}x${size.height}`);
        }
      // Every count at three digits together: the longest line there can be.
      panel.show({ ...base, stats: { coups: 104, banker: 104, player: 104, tie: 104, bankerPair: 104, playerPair: 104 } }, tl);
      assert.ok(measure(stats(panel)) <= inside, `${language}: every count at three digits fits`);
      panel.destroy({ children: true });
    }
    assert.ok(widest > inside * 0.9, `the lines filled the panel (${widest.toFixed(0)} of ${inside}), else this proves little`);
    assert.ok(fonts.size > 1, 'some lines were brought down a size (else none was too wide and this proves nothing)');
    assert.ok(
      [...sizes].every((s) => Number(s.split('x')[0]) <= 512),
      `no line needs a texture wider than 512 (the next power of two over the panel): ${[...sizes].join(', ')}`,
    );
  });
});
