// Hold against theoretical for a war table that goes to war. The engine journals going to war as a
// further `bet.place` on the main bet (engine/war/table-game.ts: the raise doubles the initial
// bet), but war's published edge is per unit of the *initial* bet, the
// war's result already in it (terms/house-edges.ts, engine/war/exact.ts). The theoretical win is
// the initial bets × that edge, and the hold band's σ per unit of the initial bet: a raise read as
// an initial bet made both larger by every war gone to. A real war table's journal (the engine's
// own step), through a ledger, synced to the upstream.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cardOf } from '../../engine/cards/card.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { TableParams } from '../../engine/table/state.js';
import { warTableGame } from '../../engine/war/table-game.js';
import type { NewEntry } from '../../ledger/entries.js';
import { HOUSE_EDGES, betVarianceOf } from '../../terms/house-edges.js';
import { GamingDayReport, Plots } from '../../backoffice/src/report-model.js';
import { engineTable, syncedBackoffice } from './engine-journal.js';

const params: TableParams = {
  tableId: 'WAR-1',
  stations: [
    { station: 1, seat: 1 },
    { station: 2, seat: 2 },
  ],
  limits: { min: 100, max: 10_000 },
  betLimits: {},
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

/**
 * One coup of a war table as its runtime journals it: stations 1 and 2 bet 1,000 on the main bet;
 * seat 1 ties the croupier and goes to war (a raise of 1,000), seat 2 wins.
 */
function warJournal(): NewEntry[] {
  const t = engineTable(warTableGame('macau'), params, 10_000);
  t.feed({ kind: 'place-bet', at: 2, station: 1, spot: { bet: 'main' }, amount: 1_000 });
  t.feed({ kind: 'place-bet', at: 3, station: 2, spot: { bet: 'main' }, amount: 1_000 });
  t.feed({ kind: 'timer', at: 1_001, countdown: t.state.countdown?.id ?? 0 });
  // Seat 1 a 7, seat 2 a king, the croupier a 7: seat 1 ties.
  for (const card of ['7S', 'KD', '7D'] as const) t.feed({ kind: 'card', at: 1_100, card: cardOf(card) });
  t.feed({ kind: 'decide', at: 1_200, station: 1, action: 'war' } as TableInput);
  // The burns and the war's cards, until the coup is settled: seat 1 wins its war.
  for (const card of ['2C', '3C', '4C', 'AS', '5H', '6H', '8H', '9H'] as const) {
    if (t.state.phase === 'results') break;
    t.feed({ kind: 'card', at: 1_300, card: cardOf(card) });
  }
  assert.equal(t.state.phase, 'results', 'the coup is settled');
  return t.entries;
}

describe('back office: hold against theoretical of a war table that goes to war', () => {
  let backoffice: Awaited<ReturnType<typeof syncedBackoffice>>;
  const entries = warJournal();
  // 10:00 in Macau on 25 November, in the gaming day of the 25th.
  before(async () => (backoffice = await syncedBackoffice('W1', entries, new Date('2026-11-25T02:00:00Z'))));
  after(() => backoffice.close());
  const get = (route: string) => backoffice.get(route, '2026-11-25');

  it('the journal holds the raise as a further bet on the main bet, after the cards', () => {
    const bets = entries.filter((e) => e.type === 'bet.place').map((e) => (e.payload as { readonly bets: readonly { bet: string; amount: number }[] }).bets);
    assert.deepEqual(bets, [[{ seat: 1, bet: 'main', amount: 1_000 }], [{ seat: 2, bet: 'main', amount: 1_000 }], [{ seat: 1, bet: 'main', amount: 1_000 }]]);
  });

  it('takes the initial bets alone for the theoretical win, in the report and the plots', async () => {
    const edge = HOUSE_EDGES.war?.macau?.main;
    assert.ok(edge !== undefined);
    const report = GamingDayReport.parse(await get('gaming-day'));
    const main = report.theoretical.find((l) => l.terminalId === 'W1' && l.bet === 'main');
    assert.ok(main, JSON.stringify(report.theoretical));
    // What the house won stays every line's: the war's result included.
    const settle = entries.find((e) => e.type === 'round.settle');
    const net = (settle?.payload as { readonly lines: readonly { bet: string; net: number }[] }).lines.reduce((a, l) => a + l.net, 0);
    assert.deepEqual(
      { rounds: main.rounds, wagered: main.wagered, theoretical: main.theoretical, actual: main.actual },
      { rounds: 1, wagered: 2_000, theoretical: Math.round((2_000 * edge) / 100), actual: -net },
    );
    // The table line's wagered is still every credit wagered, the raise included (SAS's coin in).
    assert.equal(report.lines.find((l) => l.terminalId === 'W1' && l.scope === 'table')?.wagered, 3_000);
    const plots = Plots.parse(await get('plots'));
    const hour = plots.tables.find((t) => t.terminalId === 'W1')?.theoretical.find((h) => h.initial > 0);
    const s = Math.sqrt(betVarianceOf('war', 'macau', 'main') ?? Number.NaN);
    assert.ok(hour);
    assert.equal(hour.initial, 2_000);
    assert.ok(Math.abs(hour.expected - (2_000 * edge) / 100) < 1e-9, String(hour.expected));
    assert.ok(Math.abs((hour.sd ?? 0) - 2_000 * s) < 1e-9, String(hour.sd));
  });
});
