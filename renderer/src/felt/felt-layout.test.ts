import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feltLayout, overlaps, spotRect, spotsOverlap, type Rect } from './felt-layout.js';

const PROFILES = [
  { game: 'blackjack', bets: ['main', 'anyPair', 'sevens', 'over13', 'under13'] },
  { game: 'blackjack', bets: ['main'] },
  { game: 'baccarat', bets: ['banker', 'player', 'tie', 'playerPair', 'bankerPair'] },
  { game: 'war', bets: ['main', 'tie'] },
] as const;

const screen: Rect = { x: 0, y: 0, width: 1920, height: 1080 };
const inside = (r: Rect, o: Rect) => r.x >= o.x && r.y >= o.y && r.x + r.width <= o.x + o.width && r.y + r.height <= o.y + o.height;

describe('felt layouts', () => {
  for (const { game, bets } of PROFILES) {
    for (const seats of [6, 7]) {
      it(`${game} (${bets.length} bets), ${seats} seats: every spot on screen, none over another, none under the panel`, () => {
        const l = feltLayout(game, seats, bets);
        const spots = l.seats.flatMap((s) => s.spots.map((p) => ({ seat: s.seat, bet: p.bet, r: spotRect(p), spot: p })));
        assert.equal(spots.length, seats * (game === 'baccarat' ? 5 : bets.length));
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
        // (Widths as drawn: the longest name is blackjack's at 60 px, the limits lines about 460 px at baccarat's sizes, 640 px at the others'.)
        const nameWidth = game === 'blackjack' ? 660 : 420;
        const name = { x: l.title.zh.x - nameWidth / 2, y: l.title.zh.y - 34, width: nameWidth, height: l.title.pt.y + 20 - (l.title.zh.y - 34) };
        const lw = game === 'baccarat' ? 460 : 640;
        const limits = { x: l.title.limits.x - lw / 2, y: l.title.limits.y - 18, width: lw, height: l.title.limitsPt.y + 16 - (l.title.limits.y - 18) };
        for (const s of spots) assert.ok(!overlaps(s.r, name) && !overlaps(s.r, limits), `seat ${s.seat} ${s.bet} on the printed centre`);
        assert.ok(inside(l.panel, screen));
        assert.ok(!overlaps(l.shoe, l.discard));
      });
    }
  }

  it('seat 1 is on the dealer’s left: the right of the screen', () => {
    const l = feltLayout('blackjack', 7, ['main']);
    assert.ok(l.seats[0]!.x > l.seats[6]!.x);
  });
});
