// Issue 55: the hub works out what each station's own part is built from once per change for
// what every station shares (station-reads.ts, `SharedReads`) and per station for its own share.
// If those deps were worked out wrongly, a station would miss an update. Here every station is
// subscribed as the edges' bridge subscribes it, and after each change the stations handed a new
// version of their own part must be exactly those whose own part, as a hub that never saw the
// table before builds it, moved: a station's own credit, bet or fault reaches it alone; a change
// every station reads (betting closing, a table-wide fault) reaches every station whose part it
// moves; a card nobody decides on reaches none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { stationOf, type ViewName } from '../../protocol/index.js';
import { credit, quietHub, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];

/** The table's stations subscribed to its hub, and what each change handed them. */
function watched(t: TestTable) {
  const stations = [...t.hub.views().filter((v) => stationOf(v) !== null), ...t.hub.remoteViews()];
  const reached = new Set<ViewName>();
  for (const view of stations) t.hub.subscribe(view, `edge:${view}`, { deliver: (slot) => slot.startsWith('view:') && reached.add(view) }, false);
  // A hub over the same table that hears of no change: what each station's own part is now.
  const fresh = () => quietHub(t);
  const ownPart = (view: ViewName): string => {
    // The whole view less the public parts and the recall's list (sent apart): the station's own part.
    const { round: _round, roads: _roads, history: _history, recall: _recall, ...own } = fresh().state(view) as Record<string, unknown>;
    return JSON.stringify(own);
  };
  let before = new Map(stations.map((v) => [v, ownPart(v)]));
  /** Runs one change; returns the stations it reached, after checking they are the ones whose own part moved. */
  const step = (what: string, f: () => void): ViewName[] => {
    reached.clear();
    f();
    const now = new Map(stations.map((v) => [v, ownPart(v)]));
    const moved = stations.filter((v) => now.get(v) !== before.get(v));
    before = now;
    const got = stations.filter((v) => reached.has(v));
    assert.deepEqual(got, moved, `${what}: the stations reached are those whose own part moved`);
    for (const v of stations) assert.equal(JSON.stringify(t.hub.state(v)), JSON.stringify(fresh().state(v)), `${what}: ${v} as a new hub builds it`);
    return got;
  };
  return { stations, step };
}

const bet = (t: TestTable, station: number, amount = 10_000) => {
  const view: ViewName = `station/${station}`;
  const r = submitted(t.hub.commands.submit(view, t.hub.version(view), { name: 'place-bet', spot: { bet: 'banker' }, amount }));
  assert.equal(r.ok, true, `station ${station}'s bet`);
};

describe('each change reaches exactly the stations whose own part it moved (issue 55)', () => {
  it("baccarat: a station's own credit, bet or fault reaches it alone; betting closing and a table-wide fault reach every station; a card none", () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 5 } });
    try {
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const { stations, step } = watched(t);
      assert.deepEqual(
        step('a note at station 103', () => credit(t.ledger, 103, 100_000)),
        ['station/103'],
      );
      assert.deepEqual(
        step('a note at station 1', () => credit(t.ledger, 1, 100_000)),
        ['station/1'],
      );
      assert.deepEqual(
        step('a note at station 105', () => credit(t.ledger, 105, 100_000)),
        ['station/105'],
      );
      assert.deepEqual(
        step("station 103's bet", () => bet(t, 103)),
        ['station/103'],
      );
      assert.deepEqual(
        step("station 1's bet", () => bet(t, 1)),
        ['station/1'],
      );
      assert.deepEqual(
        step('a jam at station 105', () => t.tilts.raise('bill-jam', { station: 105 })),
        ['station/105'],
      );
      assert.deepEqual(
        step("the jam's condition gone", () => t.tilts.conditionGone('bill-jam', 105)),
        [],
        'the fault holds until an attendant clears it',
      );
      assert.deepEqual(
        step('the jam at station 105 cleared', () => assert.equal(t.tilts.clear('bill-jam', 105, { user: 'att-1', role: 'attendant' }).ok, true)),
        ['station/105'],
      );
      assert.deepEqual(
        step('betting closes', () => t.clock.runOut(t.table.reads.view().endsAt)),
        stations,
        'every station sees betting closed',
      );
      assert.deepEqual(
        step('the first card', () => t.table.shoe.onCard(parseCard('4S'))),
        [],
        "a card moves no station's own part",
      );
      // Player 9 (4♠ 5♦), banker 7 (3♣ 4♥): the last card settles; the two bettors' results and recall move.
      for (const c of ['3C', '5D']) step(`card ${c}`, () => t.table.shoe.onCard(parseCard(c)));
      const looked = t.hub.counters.looked;
      assert.deepEqual(
        step('the settling card', () => t.table.shoe.onCard(parseCard('4H'))),
        ['station/1', 'station/103'],
      );
      const seated = t.hub.views().filter((v) => stationOf(v) !== null).length;
      assert.equal(
        t.hub.counters.looked - looked,
        seated + 1,
        'the settling card looks at the seated stations and the remote one that bet, not the other four',
      );
      assert.deepEqual(
        step('the shoe lid opened (the table halts)', () => t.tilts.raise('shoe-lid-open', {})),
        stations,
        'a table-wide fault reaches every station',
      );
    } finally {
      t.close();
    }
  });

  it("baccarat: the floor's word on a station (a handpay's lock, its payment) reaches it alone, through changes of the table between", () => {
    // The hub asks the floor about a station again only after a change that is not the table's
    // alone (view-hub.ts, the floor revision): a handpay paid moves no credit nor anything of the
    // table's state, only the floor's word, and must still unlock that station's screen.
    const t = testTable({ game: 'baccarat', config: { remoteStations: 5 } });
    try {
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const { step } = watched(t);
      for (const station of [103, 104]) step(`a note at ${station}`, () => credit(t.ledger, station, 100_000));
      let request = '';
      assert.deepEqual(
        step('station 104 cashes out by handpay', () => {
          const r = submitted(t.hub.commands.submit('station/104', t.hub.version('station/104'), { name: 'cash-out', via: 'handpay' }));
          assert.equal(r.ok, true, 'the cash-out taken');
          request = t.floor.handpays.pendingAt(104)?.requestTxId ?? '';
        }),
        ['station/104'],
      );
      assert.ok(request !== '', 'a handpay waits at station 104');
      assert.deepEqual(
        step("station 103's bet, station 104 locked", () => bet(t, 103)),
        ['station/103'],
      );
      assert.deepEqual(
        step('the handpay paid', () => assert.equal(t.floor.handpays.confirm(request, 'att-1').ok, true)),
        ['station/104'],
        "station 104's screen unlocks",
      );
      const own = t.hub.state('station/104');
      assert.ok(own.kind === 'station');
      assert.equal(own.cashout?.pending ?? null, null, 'no handpay shown waiting');
      assert.equal(own.betting.open, true, 'its betting open again');
      assert.deepEqual(
        step("station 103's second bet", () => bet(t, 103)),
        ['station/103'],
      );
    } finally {
      t.close();
    }
  });

  for (const game of ['blackjack', 'war'] as const) {
    it(`${game}: over a played shoe, with decisions due from some stations, each change reaches exactly the stations it moved`, () => {
      const t = testTable({ game, config: { remoteStations: 3 } });
      try {
        const { step } = watched(t);
        for (const station of [1, 2, 101, 102]) step(`a note at ${station}`, () => credit(t.ledger, station, 100_000));
        step('a new shoe', () => t.table.shoe.onNewShoe());
        let reachedSome = 0;
        for (let i = 0; i < 100; i++) {
          const cue = t.table.reads.cue();
          const view = t.table.reads.view();
          if (view.phase === 'betting' && !t.table.reads.hasBets(1)) {
            step(`step ${i}: bets`, () => {
              t.table.commands.placeBet(1, { bet: 'main' }, 10_000);
              if (game === 'war') t.table.commands.placeBet(101, { bet: 'main' }, 20_000);
            });
          } else if (cue?.kind === 'card') reachedSome += step(`step ${i}: card`, () => t.table.shoe.onCard(parseCard(CARDS[i % CARDS.length] ?? '2C'))).length;
          else if (cue?.kind === 'shuffle') step(`step ${i}: shuffle`, () => t.table.shoe.onNewShoe());
          else if (view.endsAt !== null) step(`step ${i}: countdown out`, () => t.clock.runOut(view.endsAt));
          else step(`step ${i}: a second`, () => t.clock.advance(1_000));
        }
        assert.ok(reachedSome > 0, 'some cards moved a station (a decision due, a settlement)');
      } finally {
        t.close();
      }
    });
  }
});
