// Hold against theoretical for a blackjack table that pays the 6-7-8 prize on top of the hand's
// result (Portugal 2001 rule 35, «sem prejuízo do prémio»: the profile's `bonus678` is
// `in-addition`). The engine settles that prize on a line of its own, `bonus678`, of stake 0
// (engine/blackjack/round-procedure.ts), while the main bet's published edge under the profile is
// per unit of the initial bet with the prize in it (engine/blackjack/exact/hand-values.ts): the
// prize is a result of the main bet. A real blackjack table's journal (the engine's own step),
// through a ledger, synced to the upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HOUSE_EDGES, betVarianceOf } from '../../terms/house-edges.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { blackjackRoundJournal, seatedParams } from './blackjack-round-journal.js';
import { syncedBackoffice } from './engine-journal.js';

/** One round: station 1 bets 1,000; its hand 6, 7 of spades draws the 8 of spades and stands on 21; the dealer stands on 17. */
const bonusJournal = () =>
  blackjackRoundJournal({
    profile: 'portugal-2001',
    params: seatedParams('PT-1', 1),
    bets: [{ station: 1, spot: { bet: 'main' }, amount: 1_000 }],
    cards: { 1: ['6S', '7S', '8S'], dealer: ['TD', '7C'] },
    decisions: { 1: ['hit', 'stand'] },
  });

describe('back office: hold against theoretical of a blackjack table that pays the 6-7-8 prize in addition', () => {
  let backoffice: Awaited<ReturnType<typeof syncedBackoffice>>;
  const entries = bonusJournal();
  // 10:00 in Macau on 25 November, in the gaming day of the 25th.
  before(async () => (backoffice = await syncedBackoffice('P1', entries, new Date('2026-11-25T02:00:00Z'))));
  after(() => backoffice.close());
  const get = (route: string) => backoffice.get(route, '2026-11-25');
  const settleLines = () =>
    (entries.find((e) => e.type === 'round.settle')?.payload as { readonly lines: readonly { bet: string; stake: number; net: number }[] }).lines;

  it('the journal holds the prize as a line of its own beside the hand’s main line', () => {
    assert.deepEqual(
      settleLines().map((l) => [l.bet, l.stake, l.net]),
      [
        ['bonus678', 0, 3_000],
        ['main', 1_000, 1_000],
      ],
    );
  });

  it('reads the prize in the main bet’s actual win, in the report and the plots', async () => {
    const edge = HOUSE_EDGES.blackjack?.['portugal-2001']?.main;
    assert.ok(edge !== undefined);
    const report = GamingDayReport.parse(await get('gaming-day'));
    assert.deepEqual(
      report.theoretical.filter((l) => l.terminalId === 'P1').map((l) => [l.bet, l.rounds, l.wagered, l.theoretical, l.actual]),
      [['main', 1, 1_000, Math.round((1_000 * edge) / 100), -4_000]],
    );
    const plots = Plots.parse(await get('plots'));
    const hour = plots.tables.find((t) => t.terminalId === 'P1')?.theoretical.find((h) => h.initial > 0);
    assert.ok(hour);
    assert.deepEqual([hour.initial, hour.house], [1_000, -4_000]);
    const s = Math.sqrt(betVarianceOf('blackjack', 'portugal-2001', 'main') ?? Number.NaN);
    assert.ok(Math.abs((hour.sd ?? 0) - 1_000 * s) < 1e-9, String(hour.sd));
  });
});
