import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoundRecord } from '../../ledger/index.js';
import { HostMessage, type RoundView } from '../../protocol/index.js';
import { coupOf, recallRound, roadsView, ScreenExtras } from './screen-extras.js';

const coupView = (roundId: string, player: string[], pTotal: number, banker: string[], bTotal: number): RoundView => ({
  roundId,
  phase: 'results',
  endsAt: null,
  cue: null,
  hands: [
    { owner: 'player', cards: player, total: pTotal },
    { owner: 'banker', cards: banker, total: bTotal },
  ],
  results: [],
  hold: null,
});

const record = (roundId: string): RoundRecord => ({
  roundId,
  tableId: 'T',
  game: 'blackjack',
  profile: 'macau-2009',
  status: 'settled',
  seq: 9,
  ts: '2026-11-21T10:00:00.000Z',
  tzOffsetMin: 480,
  cards: [
    { card: 'AS', to: 'seat:1:hand:0' },
    { card: '9D', to: 'seat:2:hand:0' },
    { card: '7C', to: 'dealer' },
  ],
  decisions: [],
  bets: [
    { station: 1, seat: 1, bet: 'main', amount: 1000, seq: 3 },
    { station: 2, seat: 2, bet: 'main', amount: 5000, seq: 4 },
  ],
  lines: [
    { station: 1, seat: 1, bet: 'main', stake: 1000, net: 1000, rule: 'macau-2009 art.10' },
    { station: 2, seat: 2, bet: 'main', stake: 5000, net: -5000, rule: 'macau-2009 art.10' },
  ],
  credits: [
    { station: 1, before: 10000, after: 11000 },
    { station: 2, before: 90000, after: 85000 },
  ],
  entrySeqs: [3, 4, 9],
});

describe('screen extras', () => {
  it('reads a coup from the public view: winner by points, pairs from the first two cards', () => {
    assert.deepEqual(coupOf(coupView('r', ['4H', '4S'], 8, ['KD', '6C'], 6)), { winner: 'player', playerPair: true, bankerPair: false, playerTotal: 8, bankerTotal: 6 });
    assert.equal(coupOf(coupView('r', ['4H', '5S'], 9, ['KD', '9C'], 9))?.winner, 'tie');
  });

  it('roads and counts of a shoe, reset by a shuffle', () => {
    const extras = new ScreenExtras('baccarat', { recall: () => [] });
    extras.observe(coupView('r1', ['4H', '4S'], 8, ['KD', '6C'], 6));
    extras.observe(coupView('r1', ['4H', '4S'], 8, ['KD', '6C'], 6));
    extras.observe(coupView('r2', ['2H', '3S'], 5, ['KD', '7C'], 7));
    extras.observe(coupView('r3', ['2H', '3S'], 5, ['KD', '5C'], 5));
    let roads = extras.table().roads!;
    assert.deepEqual(roads.stats, { coups: 3, banker: 1, player: 1, tie: 1, bankerPair: 0, playerPair: 1 });
    assert.equal(roads.beadPlate.length, 3);
    assert.deepEqual(roads.bigRoad.map((c) => [c.x, c.y, c.side, c.ties]), [
      [0, 0, 'player', 0],
      [1, 0, 'banker', 1],
    ]);
    extras.observe({ ...coupView('r4', [], 0, [], 0), phase: 'betting', results: null, cue: { kind: 'shuffle' } });
    roads = extras.table().roads!;
    assert.equal(roads.stats.coups, 0);
    assert.notEqual(roads.shoe, 'shoe-1');
  });

  it('a full shoe of roads fits a snapshot many times over', () => {
    const coups = Array.from({ length: 85 }, (_, i) => ({ winner: (['banker', 'player', 'tie'] as const)[i % 3]!, playerPair: i % 7 === 0, bankerPair: i % 11 === 0 }));
    const size = JSON.stringify(roadsView('s', coups)).length;
    assert.ok(size < 40_000, `${size} bytes`);
  });

  it('a station’s recall carries its own bets, lines and credit, never another station’s', () => {
    const mine = recallRound(record('r1'), 1);
    assert.deepEqual(mine.bets, [{ seat: 1, bet: 'main', amount: 1000 }]);
    assert.deepEqual(mine.lines.map((l) => l.net), [1000]);
    assert.equal(mine.creditBefore, 10000);
    assert.equal(mine.creditAfter, 11000);
    assert.ok(!JSON.stringify(mine).includes('85000') && !JSON.stringify(mine).includes('5000,'));
    const extras = new ScreenExtras('blackjack', { recall: ({ station }) => (station === 1 ? [record('r1')] : []) });
    const snapshot = { type: 'snapshot', view: 'station/1', version: 2, state: {
      kind: 'station', station: 1, seat: 1, game: 'blackjack', currency: 'MOP', limits: { min: 100, max: 1000 }, language: 'en',
      credit: 0, betting: { open: false, spots: [], bets: {} }, decision: null, round: null, ...extras.station(1) } };
    assert.equal(HostMessage.safeParse(snapshot).success, true);
  });

  it('blackjack history keeps the dealer’s cards and each seat’s outcome, newest last', () => {
    const extras = new ScreenExtras('blackjack', { recall: () => [] });
    extras.observe({
      roundId: 'b1', phase: 'results', endsAt: null, cue: null, hold: null,
      hands: [{ owner: 'dealer', cards: ['TS', '6D', '9C'], total: 25 }],
      results: [
        { seat: 2, bet: 'main', stake: 100, net: 100, rule: 'x', owner: 'seat' },
        { seat: 1, bet: 'main', stake: 100, net: 0, rule: 'x', owner: 'seat' },
        // Another player's bet behind seat 1 is that player's, not the seat's: it does not make seat 1 a loss.
        { seat: 1, bet: 'main', stake: 500, net: -500, rule: 'x', owner: 'behind' },
      ],
    });
    assert.deepEqual(extras.table().history, [{ roundId: 'b1', dealer: ['TS', '6D', '9C'], dealerTotal: 25, seats: [{ seat: 1, outcome: 'push' }, { seat: 2, outcome: 'win' }] }]);
  });
});
