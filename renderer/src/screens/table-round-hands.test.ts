import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Texture, TextureSource } from 'pixi.js';
import type { HandView, RoundView } from '../../../protocol/index.js';
import { createI18n } from '../../../locales/i18n.js';
import { feltLayout, labelRect, overlaps, resultRect, type Rect } from '../felt/felt-layout.js';
import { installNodeCanvas } from '../test-hooks/node-canvas.js';
import { installCardAtlas, type CardAtlas } from '../cards/card-art.js';
import { CARD } from '../cards/card-size.js';
import { TableRound } from './table-round.js';

installNodeCanvas();
// Every card a blank of the cards' size: the test reads where the hands go, not their faces.
const blank = new Texture({ source: new TextureSource({ width: CARD.width, height: CARD.height }) });
installCardAtlas({ texture: () => blank } as unknown as CardAtlas);
const t = createI18n('en').getFixedT('en');

const seatHands = (seat: number, n: number): HandView[] =>
  Array.from({ length: n }, (_, hand) => ({ owner: 'seat', seat, hand, cards: ['8H', 'TD', '2C'], total: 20, status: 'stood' }));

const round = (hands: HandView[]): RoundView => ({
  roundId: 'R-1',
  phase: 'dealing',
  endsAt: null,
  cue: null,
  hands: [{ owner: 'dealer', cards: ['9S', 'XX'], total: null }, ...hands],
  results: null,
  hold: null,
});

const inside = (r: Rect, o: Rect) => r.x >= o.x - 0.5 && r.y >= o.y - 0.5 && r.x + r.width <= o.x + o.width + 0.5 && r.y + r.height <= o.y + o.height + 0.5;
const screen: Rect = { x: 0, y: 0, width: 1920, height: 1080 };

// Portugal's rules set no limit on splitting (host/table/split-many-hands.test.ts plays twelve
// hands on one seat): the table display fanned a seat's hands a hand's width apart, so twelve ran
// over the next seats' cards and names, and off the 1920×1080 screen.
describe('the table display of a seat split to many hands', () => {
  for (const [seat, n] of [
    [4, 12],
    [1, 12],
    [7, 12],
    [3, 24],
    [4, 99],
  ] as const) {
    it(`seat ${seat} of ${n} hands beside its neighbours' own: every hand on screen, over no other hand, seat name or result`, () => {
      const l = feltLayout('blackjack', 7, ['main', 'anyPair', 'sevens', 'over13', 'under13']);
      const r = new TableRound();
      r.setLayout(l);
      const others = l.seats.filter((s) => s.seat !== seat).flatMap((s) => seatHands(s.seat, 1));
      r.show(round([...others, ...seatHands(seat, n)]), t, 'MOP', 'en', 1_000_000);
      // The cards landed (they fly from the shoe).
      r.tick(1_010_000);
      const drawn = r.handBounds();
      assert.equal(drawn.length, 1 + 6 + n);
      for (const d of drawn) assert.ok(inside(d, screen), `${d.key} off screen: ${JSON.stringify(d)}`);
      for (let i = 0; i < drawn.length; i++)
        for (let j = i + 1; j < drawn.length; j++) assert.ok(!overlaps(drawn[i]!, drawn[j]!), `${drawn[i]!.key} over ${drawn[j]!.key}`);
      for (const d of drawn)
        for (const s of l.seats)
          for (const [what, rect] of [
            ['name', labelRect(s.label)],
            ['result', resultRect(s.result)],
          ] as const)
            assert.ok(!overlaps(d, rect), `${d.key} over seat ${s.seat}'s ${what}`);
      r.destroy();
    });
  }
});
