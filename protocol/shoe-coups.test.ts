// A station screen is sent a baccarat shoe's coups and lays out the roads itself (protocol 6):
// what it draws must be what the table display's roads are, for any shoe; and a panel patch that
// rewrites or drops a coup held, or does not follow the version held, is refused and the panel
// asked for whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { roadsView } from '../engine/baccarat/roads-view.js';
import { decodeHostMessage, encode } from './codec.js';
import { ViewComposer } from './compose.js';
import type { HostMessage, PartName } from './messages.js';
import { diffParts, type PatchOp } from './patch.js';
import { MAX_ROAD_COUPS, ShoeCoups } from './screen-extras.js';
import { coupMark, coupsFollow, roadsOfCoups, shoeCoups, type CoupOutcome } from './shoe-coups.js';
import { stationView, type PublicPanel, type StationOwnState } from './views.js';

const VIEW = stationView(101);

/** A coup as a shoe session records it: the winner follows from the totals, as it does at the table. */
const coup: fc.Arbitrary<CoupOutcome> = fc
  .record({ playerTotal: fc.integer({ min: 0, max: 9 }), bankerTotal: fc.integer({ min: 0, max: 9 }), playerPair: fc.boolean(), bankerPair: fc.boolean() })
  .map((c) => ({ ...c, winner: c.playerTotal > c.bankerTotal ? 'player' : c.bankerTotal > c.playerTotal ? 'banker' : 'tie' }));

/** Shoes of any length up to past what the roads hold, with long streaks and ties as often as not. */
const shoe = fc.oneof(
  fc.array(coup, { maxLength: MAX_ROAD_COUPS + 12 }),
  fc.array(
    fc.constantFrom<CoupOutcome>(
      { winner: 'banker', playerTotal: 3, bankerTotal: 7, playerPair: false, bankerPair: false },
      { winner: 'player', playerTotal: 8, bankerTotal: 2, playerPair: true, bankerPair: false },
      { winner: 'tie', playerTotal: 5, bankerTotal: 5, playerPair: false, bankerPair: true },
    ),
    { maxLength: 90 },
  ),
);

const own: StationOwnState = {
  kind: 'station',
  station: 101,
  game: 'baccarat',
  currency: 'MOP',
  limits: { min: 10_000, max: 500_000 },
  language: 'pt',
  credit: 1_000_000,
  betting: { open: true, spots: [{ bet: 'banker', min: 10_000, max: 500_000 }], bets: [] },
  decision: null,
};

/** Every message through the wire's own decoder, as a screen takes it. */
function wire(m: HostMessage): HostMessage {
  const d = decodeHostMessage(encode(m));
  assert.ok(d.ok, JSON.stringify(d));
  return d.message;
}

function screen(): { c: ViewComposer; asked: PartName[][] } {
  const asked: PartName[][] = [];
  let t = 0;
  const c = new ViewComposer(VIEW, { resync: (p) => asked.push(p), now: () => (t += 2000) });
  c.take(wire({ type: 'snapshot', view: VIEW, version: 1, state: own }));
  return { c, asked };
}

const roadsOf = (c: ViewComposer) => {
  const v = c.latest();
  return v?.kind === 'station' ? v.roads : undefined;
};

describe('a station lays out its roads from the shoe’s coups (protocol 6)', () => {
  it('the roads a screen lays out are the table display’s, for any shoe (fast-check)', () => {
    fc.assert(
      fc.property(shoe, fc.nat(999), (coups, n) => {
        const sent = ShoeCoups.parse(JSON.parse(JSON.stringify(shoeCoups(`shoe-${n}`, coups))));
        assert.deepEqual(roadsOfCoups(sent), roadsView(`shoe-${n}`, coups));
      }),
      { numRuns: 300 },
    );
  });

  it('coup by coup, through the patches a host makes, the screen draws the table display’s roads (fast-check)', () => {
    fc.assert(
      fc.property(shoe, (coups) => {
        const { c, asked } = screen();
        let before: PublicPanel = { shoe: shoeCoups('shoe-1', []) };
        c.take(wire({ type: 'public', part: 'panel', version: 1, state: before }));
        coups.forEach((_, i) => {
          const after: PublicPanel = { shoe: shoeCoups('shoe-1', coups.slice(0, i + 1)) };
          c.take(wire({ type: 'public-patch', part: 'panel', version: i + 2, ops: diffParts(before, after) as PatchOp[] }));
          assert.deepEqual(roadsOf(c), roadsView('shoe-1', coups.slice(0, i + 1)));
          before = after;
        });
        assert.deepEqual(asked, []);
      }),
      { numRuns: 40 },
    );
  });

  it('a coup is one mark spliced onto the list: a few dozen bytes, not the roads’ cells', () => {
    const coups: CoupOutcome[] = Array.from({ length: 40 }, (_, i) => ({
      winner: i % 3 === 0 ? 'player' : 'banker',
      playerTotal: i % 3 === 0 ? 8 : 2,
      bankerTotal: i % 3 === 0 ? 1 : 7,
      playerPair: i % 11 === 0,
      bankerPair: false,
    }));
    const ops = diffParts({ shoe: shoeCoups('shoe-1', coups.slice(0, 39)) }, { shoe: shoeCoups('shoe-1', coups) });
    assert.deepEqual(ops, [['splice', ['shoe', 'coups'], 39, 0, ['P8']]]);
  });

  it('marks: the winner, its total (a tie’s either), then the pairs', () => {
    assert.equal(coupMark({ winner: 'banker', playerTotal: 3, bankerTotal: 7, playerPair: false, bankerPair: false }), 'B7');
    assert.equal(coupMark({ winner: 'tie', playerTotal: 5, bankerTotal: 5, playerPair: true, bankerPair: true }), 'T5pb');
    assert.equal(coupMark({ winner: 'player', playerTotal: 9, bankerTotal: 0, playerPair: false, bankerPair: true }), 'P9b');
    for (const bad of ['', 'B', 'X7', 'B77', 'B7bp', 'B7pp', 'b7', 'B7 ', 'T5pbx'])
      assert.equal(ShoeCoups.safeParse({ id: 's', coups: [bad] }).success, false, bad);
  });

  it('a shoe’s list only grows; a new shoe starts again', () => {
    const a = { id: 's1', coups: ['B7', 'P8'] };
    assert.equal(coupsFollow(a, { id: 's1', coups: ['B7', 'P8', 'T5'] }), true);
    assert.equal(coupsFollow(a, a), true);
    assert.equal(coupsFollow(a, { id: 's1', coups: ['B7'] }), false);
    assert.equal(coupsFollow(a, { id: 's1', coups: ['B7', 'P9', 'T5'] }), false);
    assert.equal(coupsFollow(a, { id: 's2', coups: [] }), true);
  });
});

describe('a panel patch that lies is refused, and the panel asked for whole', () => {
  const held: PublicPanel = { shoe: { id: 'shoe-3', coups: ['B7', 'P8', 'B6p', 'T5'] } };
  const lies: [string, HostMessage][] = [
    ['a version that does not follow the one held', { type: 'public-patch', part: 'panel', version: 4, ops: [['splice', ['shoe', 'coups'], 4, 0, ['B9']]] }],
    [
      'a coup held rewritten (the banker’s win made the player’s)',
      { type: 'public-patch', part: 'panel', version: 3, ops: [['set', ['shoe', 'coups', 0], 'P7']] },
    ],
    ['a coup held dropped', { type: 'public-patch', part: 'panel', version: 3, ops: [['splice', ['shoe', 'coups'], 1, 1, []]] }],
    [
      'the list set anew, one coup different',
      { type: 'public-patch', part: 'panel', version: 3, ops: [['set', ['shoe', 'coups'], ['B7', 'P8', 'B6', 'T5', 'B9']]] },
    ],
    ['a coup inserted before the last', { type: 'public-patch', part: 'panel', version: 3, ops: [['splice', ['shoe', 'coups'], 3, 0, ['B9']]] }],
    ['a mark that is no coup', { type: 'public-patch', part: 'panel', version: 3, ops: [['splice', ['shoe', 'coups'], 4, 0, ['B10']]] }],
  ];
  for (const [name, lie] of lies)
    it(name, () => {
      const { c, asked } = screen();
      c.take(wire({ type: 'public', part: 'panel', version: 2, state: held }));
      const shown = roadsOf(c);
      assert.deepEqual(shown, roadsOfCoups(held.shoe!));
      // The lie passes the wire's schema (a relay could send it): the composer is what refuses it.
      assert.equal(c.take(wire(lie)), null);
      assert.deepEqual(roadsOf(c), shown, 'the roads stay as they were');
      assert.deepEqual(asked, [['panel']]);
      assert.deepEqual(c.waiting(), ['panel']);
      // The panel whole answers the ask; patches apply against it again.
      const whole: PublicPanel = { shoe: { id: 'shoe-3', coups: [...held.shoe!.coups, 'B9'] } };
      assert.ok(c.take(wire({ type: 'public', part: 'panel', version: 3, state: whole })));
      assert.ok(c.take(wire({ type: 'public-patch', part: 'panel', version: 4, ops: [['splice', ['shoe', 'coups'], 5, 0, ['P2']]] })));
      assert.deepEqual(roadsOf(c), roadsOfCoups({ id: 'shoe-3', coups: ['B7', 'P8', 'B6p', 'T5', 'B9', 'P2'] }));
      assert.deepEqual(c.waiting(), []);
    });

  it('a panel sent whole that does not extend the roads laid out (a host that restarted) lays them out anew (issue 55)', () => {
    const { c } = screen();
    c.take(wire({ type: 'public', part: 'panel', version: 2, state: held }));
    assert.deepEqual(roadsOf(c), roadsOfCoups(held.shoe!));
    // The same shoe's id, a coup of it not the one the roads grew from, and then fewer coups.
    for (const coups of [
      ['B7', 'P8', 'B6', 'T5', 'B9'],
      ['B7', 'P8'],
    ]) {
      const whole: PublicPanel = { shoe: { id: 'shoe-3', coups } };
      c.take(wire({ type: 'public', part: 'panel', version: 9, state: whole }));
      assert.deepEqual(roadsOf(c), roadsOfCoups(whole.shoe!), coups.join(' '));
    }
  });

  it('three shoes through the host’s patches: each new shoe’s roads hold its own coups only, none of the shoes before (issue 52)', () => {
    const { c, asked } = screen();
    // Shoes of 80 coups, each a new id (the host numbers its shoes: `shoe-<n>`).
    const ids = ['shoe-1', 'shoe-2', 'shoe-3', 'shoe-4'];
    let before: PublicPanel = { shoe: shoeCoups(ids[0]!, []) };
    let version = 1;
    c.take(wire({ type: 'public', part: 'panel', version, state: before }));
    ids.forEach((id, s) => {
      const coups: CoupOutcome[] = Array.from({ length: 80 }, (_, i) => {
        const k = (i * 7 + s * 3) % 5;
        const winner = k === 0 ? 'tie' : k % 2 ? 'banker' : 'player';
        return {
          winner,
          playerTotal: winner === 'player' ? 8 : 4,
          bankerTotal: winner === 'player' ? 2 : 4 + (k % 2) * 3,
          playerPair: i % 13 === 0,
          bankerPair: false,
        };
      });
      for (let i = s === 0 ? 1 : 0; i <= coups.length; i++) {
        const after: PublicPanel = { shoe: shoeCoups(id, coups.slice(0, i)) };
        assert.ok(c.take(wire({ type: 'public-patch', part: 'panel', version: ++version, ops: diffParts(before, after) as PatchOp[] })), `${id} coup ${i}`);
        const roads = roadsOf(c);
        assert.equal(roads?.stats.coups, i, `${id} (shoe ${s + 1}) at coup ${i}: the roads count this shoe's coups only`);
        assert.equal(roads?.beadPlate.length, i);
        before = after;
      }
      assert.deepEqual(roadsOf(c), roadsView(id, coups));
    });
    assert.deepEqual(asked, []);
  });

  it('a new shoe by patch is taken: its list starts again', () => {
    const { c, asked } = screen();
    c.take(wire({ type: 'public', part: 'panel', version: 2, state: held }));
    assert.ok(c.take(wire({ type: 'public-patch', part: 'panel', version: 3, ops: [['set', ['shoe'], { id: 'shoe-4', coups: [] }]] })));
    assert.deepEqual(roadsOf(c), roadsView('shoe-4', []));
    assert.deepEqual(asked, []);
  });
});
