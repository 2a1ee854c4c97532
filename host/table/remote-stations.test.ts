// Remote stations (a stadium) as the table plays them: at baccarat on their own spots, settled on
// the stadium box like a seat and paid at their own station; at war on their own spots too, the
// box dealt its own card like a seat, each station deciding for itself after a tie (Art. 7 n.4);
// at blackjack only behind a seat, within the seat's three bettors (Macau 2009 Art. 20 n.1 2)'s number, the house's under alternative 1)).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { STADIUM_SEAT } from '../../engine/table/vocabulary.js';
import { verifyLedger } from '../../ledger/index.js';
import { RoundView, StationOwnState, TableState, type Spot } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const decide = (t: TestTable, station: number, action: 'war' | 'surrender') =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);
/** The payloads of the journal's entries of a type, oldest first. */
const payloads = (t: TestTable, type: string) =>
  [...t.ledger.entries(1)].filter((e) => e.type === type).map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);

describe('remote stations at baccarat: their own spots, the stadium box', () => {
  it('bets on its own spots, is settled by the coup like a seat and paid at its own station; the table display shows the stadium', () => {
    const t = testTable({ game: 'baccarat', config: { remoteStations: 3 } });
    try {
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      credit(t.ledger, 101, 100_000);
      credit(t.ledger, 102, 100_000);
      credit(t.ledger, 1, 100_000);
      assert.equal(t.hub.hasView('station/104'), false, 'station 104 is past the three the table takes');
      const past = t.table.commands.placeBet(104, { bet: 'banker' }, 10_000);
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
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      // Player 9 (4♠ 5♦), banker 7 (3♣ 4♥): both stand; the player wins.
      for (const c of ['4S', '3C', '5D', '4H']) t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.view().phase, 'results');
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
      assert.ok(t.table.reads.view().results?.every((l) => l.seat !== STADIUM_SEAT));
      const own = StationOwnState.parse(t.hub.state('station/102'));
      assert.equal(own.betting.roundNet, 0);
      assert.equal(own.seat, undefined, 'a remote station has no seat');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('remote stations at war: their own spots, the stadium box dealt like a seat (Art. 5, Art. 7)', () => {
  it('deals the box its card after the seats; after a tie each station on it decides for itself within one countdown, and is settled and paid at its own station', () => {
    const t = testTable({ game: 'war', config: { remoteStations: 4 } });
    try {
      for (const s of [1, 101, 102]) credit(t.ledger, s, 100_000);
      credit(t.ledger, 103, 25_000);
      credit(t.ledger, 104, 100_000);
      assert.deepEqual(
        t.table.reads.station(101).betting.spots.map((s) => s.bet),
        ['main', 'tie'],
        'its own spots: the initial bet and the tie bet (Art. 7 n.3)',
      );
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 101, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 102, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 102, { bet: 'tie' }, 10_000).ok, true);
      assert.equal(place(t, 103, { bet: 'main' }, 20_000).ok, true);
      assert.equal(place(t, 104, { bet: 'main' }, 10_000).ok, true);
      assert.deepEqual(TableState.parse(t.hub.state('table')).stadium?.players, 4);
      t.clock.runOut(t.table.reads.view().endsAt);
      // Art. 5: the seats' cards from the left, then the box's (the remote stations' one card), then the croupier's.
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'seat', seat: 1 });
      t.table.shoe.onCard(parseCard('KS'));
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'seat', seat: STADIUM_SEAT });
      t.table.shoe.onCard(parseCard('7C'));
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'dealer' });
      t.table.shoe.onCard(parseCard('7D'));
      // The box tied: 101, 103 and 104 choose (Art. 7 n.4); 102 bet the tie, whose main bet stands off (the profile's reading).
      assert.deepEqual(t.table.reads.cue(), { kind: 'decision', seat: STADIUM_SEAT });
      const round = RoundView.parse(t.table.reads.view());
      assert.deepEqual(
        round.hands.find((h) => h.seat === STADIUM_SEAT),
        { owner: 'seat', seat: STADIUM_SEAT, cards: ['7C'], total: 7 },
        'the public round shows the box',
      );
      const due = t.table.reads.station(101).decision;
      // A timeout surrenders half (Art. 7 n.4 1)): war is the player's own doubling (n.5), never a default.
      assert.deepEqual([due?.seat, due?.legal, due?.default], [STADIUM_SEAT, ['war', 'surrender'], 'surrender']);
      assert.equal(t.table.reads.station(102).decision, null, 'a tie bettor has no choice');
      assert.equal(t.table.reads.station(1).decision, null, 'the seat won: nothing to decide');
      assert.equal(t.table.reads.station(103).decision?.default, 'surrender');
      assert.equal(t.table.reads.station(104).decision?.default, 'surrender', 'whatever credit it has');
      const endsAt = due?.endsAt;
      assert.equal(refusal(decide(t, 102, 'war')), 'no-decision');
      assert.equal(refusal(decide(t, 1, 'war')), 'no-decision');
      assert.equal(refusal(decide(t, 103, 'war')), 'over-credit');
      t.clock.advance(1_000);
      assert.equal(decide(t, 101, 'war').ok, true);
      assert.equal(t.ledger.credit(101), 80_000, 'the raise is journalled with the decision');
      assert.equal(t.table.reads.station(101).decision, null);
      assert.equal(t.table.reads.station(104).decision?.endsAt, endsAt, "another station's decision leaves the one countdown running");
      assert.equal(refusal(decide(t, 101, 'surrender')), 'no-decision', 'decided once');
      assert.equal(t.table.reads.cue()?.kind, 'decision', 'the others still decide');
      // 103 and 104 let the time run out: each takes its own default.
      t.clock.runOut(endsAt ?? 0);
      const decisions = payloads(t, 'round.decision').map((d) => [d.seat, d.station, d.action, d.auto ?? false]);
      assert.deepEqual(decisions, [
        [STADIUM_SEAT, 101, 'war', false],
        [STADIUM_SEAT, 103, 'surrender', true],
        [STADIUM_SEAT, 104, 'surrender', true],
      ]);
      // Art. 7 n.5: three burned, the box's war card, three burned, the croupier's.
      for (let i = 0; i < 3; i++) {
        assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'burn', burnsLeft: 3 - i });
        t.table.shoe.onCard(parseCard(['2C', '2D', '2H'][i] as string));
      }
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'seat', seat: STADIUM_SEAT });
      t.table.shoe.onCard(parseCard('AS'));
      for (const c of ['3C', '3D', '3H']) t.table.shoe.onCard(parseCard(c));
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'dealer' });
      t.table.shoe.onCard(parseCard('5H'));
      assert.equal(t.table.reads.view().phase, 'results');
      const lines = (t.table.state.results ?? []).map((l) => [l.station, l.seat, l.bet, l.stake, l.net, l.rule]);
      assert.deepEqual(lines, [
        [1, 1, 'main', 10_000, 10_000, 'macau-war [art.7] n.1'],
        [101, STADIUM_SEAT, 'main', 20_000, 10_000, 'macau-war [art.7] n.5 al.1'],
        [102, STADIUM_SEAT, 'main', 10_000, 0, 'macau-war interp:main-returned-with-tie-bet'],
        [102, STADIUM_SEAT, 'tie', 10_000, 100_000, 'macau-war [art.7] n.3'],
        // 103 and 104 let the time run out: the house's reading, no article (n.4 gives the choice, not a default).
        [103, STADIUM_SEAT, 'main', 20_000, -10_000, 'macau-war house reading, no article: a tie left undecided in time surrenders'],
        [104, STADIUM_SEAT, 'main', 10_000, -5_000, 'macau-war house reading, no article: a tie left undecided in time surrenders'],
      ]);
      assert.deepEqual(
        [1, 101, 102, 103, 104].map((s) => t.ledger.credit(s)),
        [110_000, 110_000, 200_000, 15_000, 95_000],
      );
      // The public round names no stadium line; each station sees its own result only.
      assert.ok(t.table.reads.view().results?.every((l) => l.seat !== STADIUM_SEAT));
      for (const [station, net] of [
        [101, 10_000],
        [102, 100_000],
        [103, -10_000],
      ] as const) {
        const own = StationOwnState.parse(t.hub.state(`station/${station}`));
        assert.equal(own.betting.roundNet, net, `station ${station}'s own result`);
        assert.deepEqual(
          own.betting.bets.map((b) => b.amount),
          station === 102 ? [10_000, 10_000] : [20_000],
          `station ${station}'s own bets only`,
        );
      }
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('at a box tie with nobody choosing war, plays no war for the box', () => {
    const t = testTable({ game: 'war', config: { remoteStations: 2 } });
    try {
      credit(t.ledger, 101, 100_000);
      credit(t.ledger, 102, 100_000);
      assert.equal(place(t, 101, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 102, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'seat', seat: STADIUM_SEAT }, 'no seat bet: the box is dealt first');
      t.table.shoe.onCard(parseCard('9C'));
      t.table.shoe.onCard(parseCard('9D'));
      assert.equal(decide(t, 101, 'surrender').ok, true);
      assert.equal(decide(t, 102, 'surrender').ok, true);
      assert.equal(t.table.reads.view().phase, 'results', 'no war card is awaited');
      assert.deepEqual(
        [101, 102].map((s) => t.ledger.credit(s)),
        [95_000, 95_000],
        'half the initial bet lost (Art. 7 n.4 al.1)',
      );
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
      const spots = t.table.reads.station(101).betting.spots;
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
