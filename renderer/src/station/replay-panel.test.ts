import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Texture, TextureSource, type Container } from 'pixi.js';
import type { StationRecallRound, StationState } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { SteppedClock } from '../anim/clock.js';
import { installCardAtlas, type CardAtlas } from '../cards/card-art.js';
import { CARD } from '../cards/card-size.js';
import { HandSprite } from '../cards/hand-view.js';
import { HAND_ZONE, overlaps, type Rect } from '../felt/felt-layout.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { TOUCH } from '../ui/theme.js';
import { REPLAY_STEP_MS, ReplayPanel } from './replay-panel.js';

installNodeCanvas();
// Every card a blank of the cards' size: the test reads where the hands go, not their faces.
const blank = new Texture({ source: new TextureSource({ width: CARD.width, height: CARD.height }) });
installCardAtlas({ texture: () => blank } as unknown as CardAtlas);
const i18n = createI18n('en');
const t = i18n.getFixedT('en');
const AREA: Rect = { x: 40, y: 170, width: 1150, height: 750 };

/** Seat 2 split to `hands` hands (Portugal 2001: no limit on splitting) of two cards each, the dealer's two. */
function round(hands: number): StationRecallRound {
  const cards: StationRecallRound['cards'] = [];
  for (let h = 0; h < hands; h++) cards.push({ card: '8H', to: `seat:2:hand:${h}` }, { card: '3C', to: `seat:2:hand:${h}` });
  cards.push({ card: 'TS', to: 'dealer' }, { card: '7D', to: 'dealer' });
  return { roundId: `r${hands}`, ts: '2026-12-07T08:00:00Z', status: 'settled', cards, bets: [{ seat: 2, bet: 'main', amount: 1000 }], lines: [] };
}

function state(r: StationRecallRound): StationState {
  return {
    kind: 'station',
    station: 2,
    seat: 2,
    game: 'blackjack',
    currency: 'MOP',
    limits: { min: 1000, max: 500_000 },
    language: 'en',
    credit: 0,
    betting: { open: true, spots: [], bets: [] },
    decision: null,
    round: null,
    recall: [r],
  };
}

/** The replay's hands shown, each the rectangle its cards and total take on the screen. */
function shownHands(panel: Container): Rect[] {
  return panel.children
    .filter((c): c is HandSprite => c instanceof HandSprite && c.visible)
    .map((h) => {
      const w = HandSprite.width(2) * h.scale.x;
      return { x: h.position.x - w / 2, y: h.position.y, width: w, height: HAND_ZONE.height * h.scale.y };
    });
}

const inside = (r: Rect, o: Rect) => r.x >= o.x - 1e-6 && r.y >= o.y - 1e-6 && r.x + r.width <= o.x + o.width + 1e-6 && r.y + r.height <= o.y + o.height + 1e-6;

// The replay laid its hands in slots of (width - 60) / n, each hand keeping its full width: a seat
// of twelve split hands drew them on each other, thirteen cards' widths in one.
describe('the replay of a seat split to many hands', () => {
  it('keeps every hand in the panel, over the result line and the close button, none over another', () => {
    for (const n of [1, 2, 4, 7, 12, 20, 47]) {
      const clock = new SteppedClock(1_000_000);
      const panel = new ReplayPanel(AREA, { i18n, command: () => undefined, sessionStartMs: 0, clock, emit: () => undefined }, () => undefined);
      const r = round(n);
      panel.start(0, state(r), t, clock.now());
      panel.tick(clock.now() + REPLAY_STEP_MS * (r.cards.length + 1), t);
      const rects = shownHands(panel);
      assert.equal(rects.length, n + 1, `${n} hands and the dealer's`);
      // Under the heading; over the result's line (area.y + 470) and so over the close button too.
      const part: Rect = { x: AREA.x, y: AREA.y + 80, width: AREA.width, height: 470 - 80 };
      for (const [i, a] of rects.entries()) {
        assert.ok(inside(a, part), `${n} hands: hand ${i} leaves the hands' part: ${JSON.stringify(a)}`);
        for (let j = i + 1; j < rects.length; j++) assert.ok(!overlaps(a, rects[j]!), `${n} hands: ${i} over ${j}`);
      }
      assert.ok(AREA.y + AREA.height - TOUCH.min - 24 >= part.y + part.height);
    }
  });

  it('draws a twelve-hand seat readable: at least 60% of full size (it was full size, on each other)', () => {
    const clock = new SteppedClock(1_000_000);
    const panel = new ReplayPanel(AREA, { i18n, command: () => undefined, sessionStartMs: 0, clock, emit: () => undefined }, () => undefined);
    const r = round(12);
    panel.start(0, state(r), t, clock.now());
    panel.tick(clock.now() + REPLAY_STEP_MS * (r.cards.length + 1), t);
    const scales = panel.children.filter((c): c is HandSprite => c instanceof HandSprite && c.visible).map((h) => h.scale.x);
    assert.ok(Math.min(...scales) >= 0.6, `scale ${Math.min(...scales)}`);
  });
});
