// Remote stations (a stadium) as the table plays them: at baccarat on their own spots, settled on
// the stadium box like a seat and paid at their own station; at blackjack only behind a seat,
// within Macau 2009 Art. 20 n.1 (2)'s three bettors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { STADIUM_SEAT } from '../../engine/table/vocabulary.js';
import { verifyLedger } from '../../ledger/index.js';
import { StationOwnState, TableState, type Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  t.hub.apply(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount });
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);

describe('remote stations at baccarat: their own spots, the stadium box', () => {
  it('bets on its own spots, is settled by the coup like a seat and paid at its own station; the table display shows the stadium', () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    try {
      for (let i = 0; i < 20 && t.table.cue()?.kind === 'card'; i++) t.table.onCard(parseCard('2C'));
      credit(t.ledger, 101, 100_000);
      credit(t.ledger, 102, 100_000);
      credit(t.ledger, 1, 100_000);
      assert.equal(t.hub.hasView('station/104'), false, 'station 104 is past the three the table takes');
      const past = t.table.placeBet(104, { bet: 'banker' }, 10_000);
      assert.equal(past.ok ? null : past.refusal, 'not-a-station');
      assert.equal(place(t, 101, { bet: 'banker' }, 20_000).ok, true);
      assert.equal(place(t, 102, { bet: 'player' }, 10_000).ok, true);
      assert.equal(place(t, 102, { bet: 'tie' }, 10_000).ok, true);
      assert.equal(place(t, 1, { bet: 'player' }, 10_000).ok, true);
      const table = TableState.parse(t.hub.state('table'));
      assert.deepEqual(table.stadium, {
        players: 2,
        spots: [
          { spot: { bet: 'banker' }, players: 1, total: 20_000 },
          { spot: { bet: 'player' }, players: 1, total: 10_000 },
          { spot: { bet: 'tie' }, players: 1, total: 10_000 },
        ],
      });
      t.clock.runOut(t.table.view().endsAt);
      assert.equal(t.table.view().phase, 'dealing');
      // Player 9 (4♠ 5♦), banker 7 (3♣ 4♥): both stand; the player wins.
      for (const c of ['4S', '3C', '5D', '4H']) t.table.onCard(parseCard(c));
      assert.equal(t.table.view().phase, 'results');
      const lines = t.table.state.results ?? [];
      const remote = lines.filter((l) => l.seat === STADIUM_SEAT);
      assert.deepEqual(
        remote.map((l) => [l.station, l.bet, l.net]),
        [
          [101, 'banker', -20_000],
          [102, 'player', 10_000],
          [102, 'tie', -10_000],
        ],
      );
      assert.equal(t.ledger.credit(101), 80_000);
      assert.equal(t.ledger.credit(102), 100_000);
      assert.equal(t.ledger.credit(1), 110_000);
      // The public round names no stadium line; each station has its own result.
      assert.ok(t.table.view().results?.every((l) => l.seat !== STADIUM_SEAT));
      const own = StationOwnState.parse(t.hub.state('station/102'));
      assert.equal(own.betting.roundNet, 0);
      assert.equal(own.seat, undefined, 'a remote station has no seat');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('remote stations at blackjack: behind a seat only (Macau 2009 Art. 20)', () => {
  it("has no spot of its own, bets behind a seat that plays, and is refused past the seat's three bettors", () => {
    const t = testTable({ game: 'blackjack', config: { remoteStations: 5 } });
    try {
      for (const s of [1, 101, 102, 103]) credit(t.ledger, s, 100_000);
      const spots = t.table.station(101).betting.spots;
      // Only spots on the seats: behind them, and the additional bets Art. 13 1)-3) lets any player place on a seat's hand.
      assert.ok(
        spots.every((s) => 'seat' in s),
        'only spots on the seats',
      );
      assert.ok(spots.some((s) => s.bet === 'anyPair' && 'seat' in s && s.seat === 1));
      assert.deepEqual(
        spots.flatMap((s) => (s.bet === 'behind' ? [s.seat] : [])),
        [1, 2, 3, 4, 5, 6, 7],
      );
      assert.equal(refusal(place(t, 101, { bet: 'main' }, 10_000)), 'behind-only');
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 101, { bet: 'behind', seat: 1 }, 10_000).ok, true);
      assert.equal(place(t, 102, { bet: 'behind', seat: 1 }, 10_000).ok, true);
      assert.equal(refusal(place(t, 103, { bet: 'behind', seat: 1 }, 10_000)), 'behind-seat-full', 'three bettors on a seat at most, its player included');
      assert.equal(place(t, 103, { bet: 'behind', seat: 2 }, 10_000).ok, true, 'another seat is open to it');
    } finally {
      t.close();
    }
  });
});
