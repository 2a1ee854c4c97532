// Hold against theoretical for a blackjack table with a bet behind a seat (Macau 2009 Art. 20: a
// station betting on another player's hand). The engine journals that stake as a `bet.place` on
// `behind` (engine/table/betting.ts), and the settlement's line for it as the seat's `main` hand,
// paid to the bettor's station (engine/blackjack/table-game.ts): the bet behind is a main bet on
// that hand, under its decisions. The main bet's actual win held the bets behind and its initial
// bets did not: a stadium's remote stations all bet behind, and their results were set against
// the seated players' stakes alone. A real blackjack table's journal (the engine's own step),
// through a ledger, synced to the upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOUSE_EDGES, betVarianceOf } from '../../terms/house-edges.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { blackjackRoundJournal, seatedParams } from './blackjack-round-journal.js';
import { syncedBackoffice } from './engine-journal.js';

/**
 * One round: station 1 bets 1,000 on its seat's main bet, station 2 bets 2,000 behind seat 1 and
 * nothing of its own. Seat 1 stands on 20 against the dealer's 17: both win.
 */
const behindJournal = () =>
  blackjackRoundJournal({
    profile: 'macau-2009',
    params: seatedParams('BJ-1', 2),
    bets: [
      { station: 1, spot: { bet: 'main' }, amount: 1_000 },
      { station: 2, spot: { bet: 'behind', seat: 1 }, amount: 2_000 },
    ],
    cards: { 1: ['KS', 'QH'], dealer: ['7D', 'KD'] },
    decisions: { 1: ['stand'] },
  });

describe('back office: hold against theoretical of a blackjack table with a bet behind a seat', () => {
  let backoffice: Awaited<ReturnType<typeof syncedBackoffice>>;
  const entries = behindJournal();
  // 10:00 in Macau on 25 November, in the gaming day of the 25th.
  before(async () => (backoffice = await syncedBackoffice('B1', entries, new Date('2026-11-25T02:00:00Z'))));
  after(() => backoffice.close());
  const get = (route: string) => backoffice.get(route, '2026-11-25');

  it('the journal holds the stake behind as a bet on `behind`, and its line as the seat’s main hand', () => {
    const placed = entries.filter((e) => e.type === 'bet.place').map((e) => (e.payload as { readonly bets: readonly unknown[] }).bets);
    assert.deepEqual(placed, [[{ seat: 1, bet: 'main', amount: 1_000 }], [{ seat: 1, bet: 'behind', amount: 2_000 }]]);
    const settle = entries.find((e) => e.type === 'round.settle')?.payload as { readonly lines: readonly { station: number; bet: string; stake: number }[] };
    assert.deepEqual(
      settle.lines.map((l) => [l.station, l.bet, l.stake]),
      [
        [1, 'main', 1_000],
        [2, 'main', 2_000],
      ],
    );
  });

  it('sets the stakes behind among the main bet’s initial bets, in the report and the plots', async () => {
    const edge = HOUSE_EDGES.blackjack?.['macau-2009']?.main;
    assert.ok(edge !== undefined);
    const report = GamingDayReport.parse(await get('gaming-day'));
    const lines = report.theoretical.filter((l) => l.terminalId === 'B1');
    const settle = entries.find((e) => e.type === 'round.settle')?.payload as { readonly lines: readonly { net: number }[] };
    const house = -settle.lines.reduce((a, l) => a + l.net, 0);
    assert.deepEqual(
      lines.map((l) => [l.bet, l.rounds, l.wagered, l.theoretical, l.actual]),
      [['main', 1, 3_000, Math.round((3_000 * edge) / 100), house]],
    );
    const plots = Plots.parse(await get('plots'));
    const hour = plots.tables.find((t) => t.terminalId === 'B1')?.theoretical.find((h) => h.initial > 0);
    assert.ok(hour);
    assert.deepEqual([hour.initial, hour.house], [3_000, house]);
    assert.ok(Math.abs(hour.expected - (3_000 * edge) / 100) < 1e-9, String(hour.expected));
    const s = Math.sqrt(betVarianceOf('blackjack', 'macau-2009', 'main') ?? Number.NaN);
    assert.ok(Math.abs((hour.sd ?? 0) - 3_000 * s) < 1e-9, String(hour.sd));
  });
});
