// Hold against theoretical for a blackjack table that pays the 6-7-8 prize on top of the hand's
// result (Portugal 2001 rule 35, «sem prejuízo do prémio»: the profile's `bonus678` is
// `in-addition`). The engine settles that prize on a line of its own, `bonus678`, of stake 0
// (engine/blackjack/round-procedure.ts), while the main bet's published edge under the profile is
// per unit of the initial bet with the prize in it (engine/blackjack/exact/hand-values.ts): the
// prize is a result of the main bet. A real blackjack table's journal (the engine's own step),
// through a ledger, synced to the upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardOf, type CardCode } from '../../engine/cards/card.js';
import { blackjackTableGame } from '../../engine/blackjack/table-game.js';
import type { TableParams } from '../../engine/table/state.js';
import type { NewEntry } from '../../ledger/entries.js';
import { HOUSE_EDGES, betVarianceOf } from '../../terms/house-edges.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { engineTable, syncedBackoffice } from './engine-journal.js';

const params: TableParams = {
  tableId: 'PT-1',
  stations: [{ station: 1, seat: 1 }],
  limits: { min: 100, max: 100_000 },
  betLimits: {},
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

/** One round: station 1 bets 1,000; its hand 6, 7 of spades draws the 8 of spades and stands on 21; the dealer stands on 17. */
function bonusJournal(): NewEntry[] {
  const game = blackjackTableGame('portugal-2001');
  const t = engineTable(game, params, 10_000);
  for (let i = 0; i < 20 && game.shoe.shoeCue(t.state.shoe); i++) t.feed({ kind: 'card', at: 2, card: cardOf('2C') });
  t.feed({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'main' }, amount: 1_000 });
  t.feed({ kind: 'timer', at: 1_001, countdown: t.state.countdown?.id ?? 0 });
  const cards: Record<string, CardCode[]> = { 1: ['6S', '7S', '8S'], dealer: ['TD', '7C'] };
  const decisions = ['hit', 'stand'];
  for (let i = 0; t.state.phase === 'dealing' && i < 40; i++) {
    const round = t.state.round;
    assert.ok(round !== null);
    const due = game.round.pending(t.state.shoe, round);
    if (due.kind === 'decision') {
      const action = decisions.shift() ?? 'stand';
      assert.ok(due.legal.includes(action as never), `${action} not in ${due.legal.join(', ')}`);
      t.feed({ kind: 'decide', at: 1_100, station: 1, action } as never);
    } else if (due.kind === 'card') {
      const to = due.cue.to === 'dealer' ? 'dealer' : String(due.cue.seat);
      const card = cards[to]?.shift();
      assert.ok(card, `no card left for ${to}`);
      t.feed({ kind: 'card', at: 1_100, card: cardOf(card) });
    }
  }
  assert.equal(t.state.phase, 'results', 'the round is settled');
  return t.entries;
}

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
