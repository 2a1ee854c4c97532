import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitCelebration, POP_MAX } from '../anim/celebrate.js';
import { CARD } from '../cards/card-size.js';
import {
  circleHitsRect,
  feltExtent,
  feltLayout,
  feltMeetsRect,
  handRect,
  holderLabelRect,
  labelRect,
  languagesRect,
  overlaps,
  printedCentre,
  resultRect,
  spotRect,
  spotsOverlap,
  type Rect,
} from './felt-layout.js';
import { FELT_TEST_PROFILES } from './test-profiles.js';

const PROFILES = FELT_TEST_PROFILES;

const screen: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
const inside = (r: Rect, o: Rect) => r.x >= o.x && r.y >= o.y && r.x + r.width <= o.x + o.width && r.y + r.height <= o.y + o.height;

describe('felt layouts', () => {
  for (const { game, bets } of PROFILES) {
    for (const seats of [6, 7]) {
      it(`${game} (${bets.length} bets), ${seats} seats: every spot on screen, none over another, none under the panel`, () => {
        const l = feltLayout(game, seats, bets);
        const spots = l.seats.flatMap((s) => s.spots.map((p) => ({ seat: s.seat, bet: p.bet, r: spotRect(p), spot: p })));
        assert.equal(spots.length, seats * (game === 'baccarat' ? bets.length : Math.min(bets.length, 5)));
        for (const s of spots) {
          assert.ok(inside(s.r, screen), `seat ${s.seat} ${s.bet} off screen`);
          assert.ok(!overlaps(s.r, l.panel), `seat ${s.seat} ${s.bet} under the panel`);
          assert.ok(!overlaps(s.r, l.shoe) && !overlaps(s.r, l.discard), `seat ${s.seat} ${s.bet} on the shoe`);
        }
        for (let i = 0; i < spots.length; i++)
          for (let j = i + 1; j < spots.length; j++) {
            const a = spots[i]!;
            const b = spots[j]!;
            assert.ok(!spotsOverlap(a.spot, b.spot), `seat ${a.seat} ${a.bet} overlaps seat ${b.seat} ${b.bet}`);
          }
        // The printed centre (name and limits) stays clear of every spot.
        const centre = printedCentre(l);
        for (const s of spots) assert.ok(!centre.some((c) => overlaps(s.r, c)), `seat ${s.seat} ${s.bet} on the printed centre`);
        assert.ok(inside(l.panel, screen));
        assert.ok(!overlaps(l.shoe, l.discard));
      });

      it(`${game} (${bets.length} bets), ${seats} seats: cards, names and results land on no printed word, spot or each other`, () => {
        const l = feltLayout(game, seats, bets);
        const spots = l.seats.flatMap((s) => s.spots.map((p) => ({ seat: s.seat, bet: p.bet, spot: p })));
        const centre = printedCentre(l);
        const fixed: { what: string; r: Rect }[] = [
          ...centre.map((r, i) => ({ what: `printed centre line ${i + 1}`, r })),
          { what: 'panel', r: l.panel },
          { what: 'shoe', r: l.shoe },
          { what: 'discard', r: l.discard },
          { what: "shoe's name", r: holderLabelRect(l.holderLabels.shoe) },
          { what: "discard holder's name", r: holderLabelRect(l.holderLabels.discard) },
          { what: 'language buttons', r: languagesRect(l) },
        ];
        const drawn: { what: string; seat: number; r: Rect; hand?: true }[] = [];
        for (const s of l.seats) {
          if (game !== 'baccarat') drawn.push({ what: `seat ${s.seat} cards`, seat: s.seat, r: handRect(s.hand), hand: true });
          drawn.push({ what: `seat ${s.seat} name`, seat: s.seat, r: labelRect(s.label) });
          drawn.push({ what: `seat ${s.seat} result`, seat: s.seat, r: resultRect(s.result) });
        }
        for (const d of drawn) {
          assert.ok(inside(d.r, screen), `${d.what} off screen`);
          for (const f of fixed) assert.ok(!overlaps(d.r, f.r), `${d.what} over the ${f.what}`);
          // A seat's cards lie on its own main spot, as dealt; nothing else lands on a spot.
          for (const s of spots) {
            if (d.hand && s.seat === d.seat && s.bet === spots.find((x) => x.seat === d.seat)?.bet) continue;
            const hit = s.spot.shape === 'circle' ? circleHitsRect(s.spot, d.r) : overlaps(spotRect(s.spot), d.r);
            assert.ok(!hit, `${d.what} over seat ${s.seat}'s ${s.bet} spot`);
          }
        }
        for (let i = 0; i < drawn.length; i++)
          for (let j = i + 1; j < drawn.length; j++) assert.ok(!overlaps(drawn[i]!.r, drawn[j]!.r), `${drawn[i]!.what} over ${drawn[j]!.what}`);
        if (l.arcRadius > 0) {
          // The dealer's cards and total stay inside the printed arc (its letters are 24 px tall).
          const d = handRect(l.hands.dealer);
          const far = Math.max(...[d.x, d.x + d.width].map((x) => Math.hypot(x - l.felt.cx, d.y + d.height - l.felt.top)));
          assert.ok(far < l.arcRadius - 14, `the dealer's hand reaches the printed arc (${far.toFixed(0)} of ${l.arcRadius - 14})`);
          for (const c of centre) assert.ok(c.y > l.felt.top + l.arcRadius - 20, 'the printed centre starts under the arc');
        }
        if (l.cardBoxes) {
          // Baccarat: three cards and their total stay inside each box, above its printed name.
          for (const side of ['player', 'banker'] as const) {
            const b = l.cardBoxes[side];
            assert.ok(inside(handRect(l.hands[side]), b.box), `${side}'s cards leave their box`);
            assert.ok(b.label.y - 14 > b.box.y + b.box.height, `${side}'s name is not under its box`);
          }
        }
      });
    }
  }

  for (const { game, bets } of PROFILES) {
    it(`${game}: the felt, rail included, is on the screen and nothing fixed lies on it; every spot is on the cloth`, () => {
      const l = feltLayout(game, 7, bets);
      const e = feltExtent(l.felt);
      assert.ok(e.cx - e.rx >= 0 && e.cx + e.rx <= 1920 && e.top + e.ry <= 1080, `felt ${JSON.stringify(e)} off screen`);
      assert.ok(!feltMeetsRect(e, l.panel), 'the felt runs under the panel');
      assert.ok(!feltMeetsRect(e, languagesRect(l)), 'the felt runs under the language buttons');
      // Every corner of every spot inside the cloth's own ellipse, not on the rail.
      const f = l.felt;
      for (const s of l.seats)
        for (const p of s.spots) {
          const r = spotRect(p);
          for (const [x, y] of [
            [r.x, r.y],
            [r.x + r.width, r.y],
            [r.x, r.y + r.height],
            [r.x + r.width, r.y + r.height],
          ] as const)
            assert.ok(((x - f.cx) / f.rx) ** 2 + ((y - f.top) / f.ry) ** 2 < 1, `seat ${s.seat} ${p.bet} off the cloth`);
        }
    });

    it(`${game}: a celebration at any seat keeps its words and rays off the panel and the language buttons`, () => {
      const l = feltLayout(game, 7, bets);
      const clear = [l.panel, languagesRect(l)];
      // Two lines of the longest prize words (Portuguese) at the table's 34 px.
      const plate = { width: 560, height: 110 };
      for (const s of l.seats) {
        const c = fitCelebration({ x: s.hand.x, y: s.hand.y + CARD.height / 2 }, plate, 0.62 * plate.width, clear, screen);
        const words = {
          x: c.x - (plate.width / 2) * POP_MAX,
          y: c.y - (plate.height / 2) * POP_MAX,
          width: plate.width * POP_MAX,
          height: plate.height * POP_MAX,
        };
        const rays = { x: c.x - c.rays * POP_MAX, y: c.y - c.rays * POP_MAX, width: 2 * c.rays * POP_MAX, height: 2 * c.rays * POP_MAX };
        for (const r of clear) {
          assert.ok(!overlaps(words, r), `seat ${s.seat}: the words over ${JSON.stringify(r)}`);
          assert.ok(!circleHitsRect({ x: c.x, y: c.y, r: c.rays * POP_MAX }, r), `seat ${s.seat}: the rays over ${JSON.stringify(r)}`);
        }
        assert.ok(inside(words, screen) && inside(rays, screen), `seat ${s.seat}: off screen`);
        // Still at its seat: the words keep within a plate's width of the seat's cards.
        assert.ok(Math.abs(c.x - s.hand.x) <= plate.width, `seat ${s.seat}: moved ${Math.round(c.x - s.hand.x)} away`);
      }
    });
  }

  it('tells a rectangle on the felt from one beside its curve', () => {
    const f = { cx: 500, top: 0, rx: 400, ry: 300 };
    assert.equal(feltMeetsRect(f, { x: 850, y: 250, width: 100, height: 100 }), false, 'in the corner the curve leaves');
    assert.equal(feltMeetsRect(f, { x: 850, y: 0, width: 100, height: 40 }), true, 'under the rail near the top');
    assert.equal(feltMeetsRect(f, { x: 0, y: -50, width: 1000, height: 40 }), false, 'above the dealer edge');
    assert.equal(feltMeetsRect(f, { x: 480, y: 280, width: 10, height: 10 }), true);
  });

  it('seat 1 is on the dealer’s left: the right of the screen', () => {
    const l = feltLayout('blackjack', 7, ['main']);
    assert.ok(l.seats[0]!.x > l.seats[6]!.x);
  });
});
