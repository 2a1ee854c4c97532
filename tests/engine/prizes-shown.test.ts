import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StationBetting } from '../../protocol/index.js';
import { LINE_BETS, type LineBet, type Prize } from '../../engine/table/vocabulary.js';
import { PRIZES_SHOWN, prizesShown } from '../../engine/table/views.js';

type Win = { seat: number; bet: LineBet; hand?: number; net: number; prize: Prize };
const total = (l: readonly Win[]) => l.reduce((a, w) => a + w.net, 0);
const fits = (prizes: Win[]) => StationBetting.safeParse({ open: false, spots: [], bets: [], prizes }).success;

describe("a station's prize wins as its screen is sent them (StationBetting.prizes)", () => {
  it('are sent one by one up to the cap, as before', () => {
    const wins: Win[] = Array.from({ length: PRIZES_SHOWN }, (_, hand) => ({ seat: 1, bet: 'main', hand, net: 500, prize: 'five-card' }));
    assert.deepEqual(prizesShown(wins), wins);
    assert.ok(fits(wins), 'the schema holds PRIZES_SHOWN');
  });

  it('past it, once per seat, bet and prize, every minor unit kept', () => {
    // Seat 1 split to 99 hands, each five cards at half pay, and its pair bet won.
    const wins: Win[] = [
      ...Array.from({ length: 99 }, (_, hand): Win => ({ seat: 1, bet: 'main', hand, net: 500 + hand, prize: 'five-card' })),
      { seat: 1, bet: 'anyPair', net: 11_000, prize: 'side-bet' },
    ];
    const shown = prizesShown(wins);
    assert.deepEqual(shown, [
      { seat: 1, bet: 'main', net: total(wins.slice(0, 99)), prize: 'five-card' },
      { seat: 1, bet: 'anyPair', net: 11_000, prize: 'side-bet' },
    ]);
    assert.ok(fits(shown));
  });

  it('past it still (behind every seat, every kind of prize), once per bet and prize: within the cap whatever the bets', () => {
    // Every bet with every prize on each of seven seats: more than any game gives (a bet has one kind
    // of prize, the main bet two), so more than the bound needs.
    const wins: Win[] = [];
    for (let seat = 1; seat <= 7; seat++)
      for (const bet of LINE_BETS)
        wins.push(
          { seat, bet, net: 100, prize: bet === 'main' ? 'five-card' : 'side-bet' },
          ...(bet === 'main' ? [{ seat, bet, net: 7, prize: 'special-prize' as const }] : []),
        );
    const shown = prizesShown(wins);
    assert.equal(shown.length, LINE_BETS.length + 1);
    assert.ok(shown.length <= PRIZES_SHOWN, `${shown.length} entries`);
    assert.equal(total(shown), total(wins));
    assert.ok(fits(shown));
  });
});
