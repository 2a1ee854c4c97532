// Hold against theoretical for a blackjack table where players double, split and insure. The
// engine journals a double's or a split's further stake as a `bet.place` on `double` or `split`
// (engine/blackjack/table-decide.ts), and settles it on the hand's `main` line, its stake the hand's
// (engine/blackjack/settle/main-bet.ts): the published edge of blackjack's main bet is per unit of
// the initial bet with doubling and splitting in it (terms/house-edges.ts), as war's is with the
// raise (backoffice-war-raise.test.ts). Insurance is a wager of its own, settled on its own
// `insurance` line (Macau 2009 Art. 12 n.2), with no published edge. A real blackjack table's
// journal (the engine's own step), through a ledger, synced to the upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOUSE_EDGES, betVarianceOf } from '../../terms/house-edges.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { blackjackRoundJournal, seatedParams } from './blackjack-round-journal.js';
import { syncedBackoffice } from './engine-journal.js';

/**
 * One round: stations 1 and 2 bet 1,000 each on their seats' main bets. The dealer shows an ace:
 * seat 1 insures for 500, seat 2 declines. Seat 1 (5, 6) doubles and draws a king; seat 2 (8, 8)
 * splits, its hands 8, 10 and 8, 9 stand. The dealer has no Black Jack and busts.
 */
const doubleSplitJournal = () =>
  blackjackRoundJournal({
    profile: 'macau-2009',
    params: seatedParams('BJ-2', 2),
    bets: [
      { station: 1, spot: { bet: 'main' }, amount: 1_000 },
      { station: 2, spot: { bet: 'main' }, amount: 1_000 },
    ],
    cards: { 1: ['5S', '6H', 'KD'], 2: ['8S', '8H', 'TD', '9C'], dealer: ['AS', '5D', 'KC', '9D'] },
    decisions: { 1: [{ action: 'insurance', amount: 500 }, 'double'], 2: ['decline-insurance', 'split', 'stand', 'stand'] },
  });

describe('back office: hold against theoretical of a blackjack table that doubles, splits and insures', () => {
  let backoffice: Awaited<ReturnType<typeof syncedBackoffice>>;
  const entries = doubleSplitJournal();
  // 10:00 in Macau on 25 November, in the gaming day of the 25th.
  before(async () => (backoffice = await syncedBackoffice('B2', entries, new Date('2026-11-25T02:00:00Z'))));
  after(() => backoffice.close());
  const get = (route: string) => backoffice.get(route, '2026-11-25');
  const settleLines = () =>
    (
      entries.find((e) => e.type === 'round.settle')?.payload as {
        readonly lines: readonly { station: number; bet: string; hand: number; stake: number; net: number }[];
      }
    ).lines;

  it('the journal holds the double and the split as bets of their own, settled on the hands’ main lines', () => {
    const placed = entries.filter((e) => e.type === 'bet.place').map((e) => (e.payload as { readonly bets: readonly unknown[] }).bets);
    assert.deepEqual(placed, [
      [{ seat: 1, bet: 'main', amount: 1_000 }],
      [{ seat: 2, bet: 'main', amount: 1_000 }],
      [{ seat: 1, bet: 'insurance', amount: 500 }],
      [{ seat: 1, bet: 'double', amount: 1_000 }],
      [{ seat: 2, bet: 'split', amount: 1_000 }],
    ]);
    assert.deepEqual(
      settleLines().map((l) => [l.station, l.bet, l.stake]),
      [
        [1, 'insurance', 500],
        [1, 'main', 2_000],
        [2, 'main', 1_000],
        [2, 'main', 1_000],
      ],
    );
  });

  it('reads the double and the split under the main bet’s result, not as initial bets; insurance apart', async () => {
    const edge = HOUSE_EDGES.blackjack?.['macau-2009']?.main;
    assert.ok(edge !== undefined);
    const report = GamingDayReport.parse(await get('gaming-day'));
    const house = (bet: string) => -settleLines().reduce((a, l) => a + (l.bet === bet ? l.net : 0), 0);
    assert.deepEqual(
      report.theoretical.filter((l) => l.terminalId === 'B2').map((l) => [l.bet, l.rounds, l.wagered, l.edge, l.theoretical, l.actual]),
      [
        ['insurance', 1, 500, null, null, house('insurance')],
        ['main', 1, 2_000, edge, Math.round((2_000 * edge) / 100), house('main')],
      ],
    );
    // The table line's wagered is still every credit wagered, doubles, splits and insurance included (SAS's coin in).
    assert.equal(report.lines.find((l) => l.terminalId === 'B2' && l.scope === 'table')?.wagered, 4_500);
    const plots = Plots.parse(await get('plots'));
    const hour = plots.tables.find((t) => t.terminalId === 'B2')?.theoretical.find((h) => h.initial > 0);
    assert.ok(hour);
    assert.deepEqual([hour.initial, hour.house], [2_000, house('main')]);
    assert.ok(Math.abs(hour.expected - (2_000 * edge) / 100) < 1e-9, String(hour.expected));
    const s = Math.sqrt(betVarianceOf('blackjack', 'macau-2009', 'main') ?? Number.NaN);
    assert.ok(Math.abs((hour.sd ?? 0) - 2_000 * s) < 1e-9, String(hour.sd));
  });
});
