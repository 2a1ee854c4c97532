// The hold-against-theoretical band's arithmetic (issue 49 item 5), server side and page side, on
// stakes whose figures are worked by hand from the published edges and variances.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdBand } from '../../backoffice/src/hold-band.js';
import { betVarianceOf, houseEdgeOf } from '../../terms/house-edges.js';
import { hourTheoretical, type RoundStake } from '../../upstream/backoffice/hourly-theoretical.js';

const bac = (round: string, bet: string, amount: number, house: number): RoundStake => ({
  round,
  game: 'baccarat',
  profile: 'macau-commission',
  bet,
  amount,
  house,
});
const edge = (bet: string): number => houseEdgeOf('baccarat', 'macau-commission', bet) as number;
const sd = (bet: string): number => Math.sqrt(betVarianceOf('baccarat', 'macau-commission', bet) as number);
const close = (a: number | null, b: number, what: string) => assert.ok(a !== null && Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);

describe('hold against theoretical, hour by hour', () => {
  it('adds initial bets, house wins and a·edge; bounds σ by the sum of each round’s stakes’ σ, rounds independent', () => {
    const x = hourTheoretical([bac('r1', 'banker', 10_000, -9_500), bac('r1', 'player', 5_000, 5_000), bac('r2', 'tie', 1_000, 1_000)]);
    assert.equal(x.initial, 16_000);
    assert.equal(x.house, -3_500);
    close(x.expected, (10_000 * edge('banker') + 5_000 * edge('player') + 1_000 * edge('tie')) / 100, 'expected');
    const r1 = 10_000 * sd('banker') + 5_000 * sd('player');
    const r2 = 1_000 * sd('tie');
    close(x.sd, Math.sqrt(r1 * r1 + r2 * r2), 'sd');
  });

  it('leaves out a bet with no published edge; a blackjack table’s main bets draw a band (its exact variance)', () => {
    const streak = { round: 'r1', game: 'blackjack', profile: 'macau-2009', bet: 'streak3', amount: 500, house: 500 };
    const withMain = { round: 'r1', game: 'blackjack', profile: 'macau-2009', bet: 'main', amount: 2_000, house: -2_000 };
    const onlySide = hourTheoretical([streak, { ...withMain, bet: 'anyPair', house: 2_000 }]);
    assert.equal(onlySide.initial, 2_000, 'the streak bet has no edge: not counted');
    assert.ok(onlySide.sd !== null && onlySide.sd > 0);
    const mainSd = Math.sqrt(betVarianceOf('blackjack', 'macau-2009', 'main') ?? Number.NaN);
    assert.ok(mainSd > 1.05 && mainSd < 1.2, `blackjack's main bet: about 1.1 per unit (${mainSd})`);
    // Two stations' main bets in one round, a third in the next: σ² = (2000s + 1000s)² + (500s)².
    const table = hourTheoretical([withMain, { ...withMain, amount: 1_000, house: 1_500 }, { ...withMain, round: 'r2', amount: 500, house: 500 }]);
    close(table.sd, Math.sqrt((3_000 * mainSd) ** 2 + (500 * mainSd) ** 2), 'main bets’ sd');
    close(table.expected, (3_500 * (houseEdgeOf('blackjack', 'macau-2009', 'main') as number)) / 100, 'expected');
    const band = holdBand([[table]], 1);
    assert.ok(band.lower[0] !== null && band.upper[0] !== null, 'a band for the blackjack table');
    close((band.upper[0] ?? 0) - (band.lower[0] ?? 0), (2 * 1.96 * 100 * (table.sd as number)) / 3_500, 'its width, in % of the initial bets');
    assert.deepEqual(hourTheoretical([]), { initial: 0, house: 0, expected: 0, sd: 0 });
  });

  it('the page’s band: hold and edge in percent of the initial bets, edge ± 1.96σ, tables’ variances added, gaps where nothing or no σ', () => {
    const t1 = [
      { initial: 10_000, house: 300, expected: 105.79, sd: 900 },
      { initial: 0, house: 0, expected: 0, sd: 0 },
      { initial: 2_000, house: -2_000, expected: -10, sd: null },
    ];
    const t2 = [
      { initial: 30_000, house: -1_000, expected: 317.37, sd: 1_200 },
      { initial: 0, house: 0, expected: 0, sd: 0 },
      { initial: 0, house: 0, expected: 0, sd: 0 },
    ];
    const b = holdBand([t1, t2], 3);
    close(b.hold[0] ?? null, (100 * -700) / 40_000, 'hold');
    close(b.edge[0] ?? null, (100 * 423.16) / 40_000, 'edge');
    close(b.upper[0] ?? null, (100 * (423.16 + 1.96 * 1_500)) / 40_000, 'upper: σ = √(900² + 1200²) = 1500');
    close(b.lower[0] ?? null, (100 * (423.16 - 1.96 * 1_500)) / 40_000, 'lower');
    assert.deepEqual([b.hold[1], b.edge[1], b.lower[1], b.upper[1]], [null, null, null, null], 'no initial bet: nothing drawn');
    assert.deepEqual([b.lower[2], b.upper[2]], [null, null], 'a bet with no variance: no band');
    close(b.hold[2] ?? null, -100, 'but its hold');
  });

  it('narrows as 1/√n: 100 equal banker rounds give a band a tenth as wide (in %) as one', () => {
    const one = hourTheoretical([bac('r0', 'banker', 1_000, 0)]);
    const many = hourTheoretical(Array.from({ length: 100 }, (_, i) => bac(`r${i}`, 'banker', 1_000, 0)));
    const width = (x: typeof one) => {
      const b = holdBand([[x]], 1);
      return (b.upper[0] ?? 0) - (b.lower[0] ?? 0);
    };
    close(width(many), width(one) / 10, 'width');
    close(width(one), 2 * 1.96 * 100 * sd('banker'), 'one round: ±1.96σ per unit');
  });
});
