import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Container } from 'pixi.js';
import { Graphics, Sprite, Texture } from 'pixi.js';
import { roadsOfCoups, shoeCoups, type CoupOutcome } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { RoadsPanel } from './roads-panel.js';

const t = createI18n('zh-Hant').getFixedT('zh-Hant');
const coup = (winner: CoupOutcome['winner'], bankerPair = false): CoupOutcome => ({ winner, playerPair: false, bankerPair, playerTotal: 6, bankerTotal: 7 });
const roads = (n: number) => roadsOfCoups(shoeCoups('s1', [coup('banker', true), coup('player'), coup('tie'), coup('banker')].slice(0, n)));

/** Graphics in the panel that still hold drawn geometry (the background's rounded box aside). */
const drawnGraphics = (panel: Container) => panel.children.filter((c) => c instanceof Graphics && c.context.instructions.length > 0).length;

describe("the table display's roads panel (issue 31: its JS heap)", () => {
  it('draws its grids and marks into a texture at each coup and keeps no Graphics of them', () => {
    const baked: Texture[] = [];
    const panel = new RoadsPanel({ x: 0, y: 0, width: 420, height: 1000 }, () => {
      const texture = new Texture();
      baked.push(texture);
      return new Sprite(texture);
    });
    panel.show(roads(2), t);
    panel.show(roads(4), t);
    assert.equal(baked.length, 2, 'one texture a coup');
    // The background box is the one Graphics left with geometry.
    assert.equal(drawnGraphics(panel), 1);
    const sprites = panel.children.filter((c) => c instanceof Sprite);
    assert.equal(sprites.length, 1, "the last coup's marks, shown as one sprite");
    assert.equal(sprites[0]!.texture, baked[1]);
    assert.equal(baked[0]!.destroyed, true, "the previous coup's texture is let go");
    panel.destroy({ children: true });
    assert.equal(baked[1]!.destroyed, true, "the panel's texture goes with it");
  });

  it('without a way to bake (a station), draws its marks as Graphics as before', () => {
    const panel = new RoadsPanel({ x: 0, y: 0, width: 420, height: 1000 });
    panel.show(roads(3), t);
    assert.equal(drawnGraphics(panel), 2);
    assert.equal(panel.children.filter((c) => c instanceof Sprite).length, 0);
  });
});
