// The betting countdown runs out while the shoe's procedure is still due (baccarat's shoe-start
// burns, Art. 2 n.1): the window opens again, whole, and says so in the log when bets wait on it,
// so that a window that seems to run twice as long reads as what it is. Once the shoe is ready the bets close.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baccaratTableGame } from '../baccarat/table-game.js';
import { cardOf } from '../cards/card.js';
import type { TableInput } from './inputs.js';
import type { TableParams } from './state.js';
import { initialTable, step } from './step.js';

const params: TableParams = {
  tableId: 'BAC-1',
  stations: [{ station: 1, seat: 1 }],
  limits: { min: 100, max: 10_000 },
  betLimits: {},
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

describe('the betting countdown before the shoe is ready', () => {
  it('opens the window again and logs why; the bets close once the burns are dealt', () => {
    const game = baccaratTableGame('macau-commission');
    let state = initialTable(params, game);
    const feed = (input: TableInput) => {
      const r = step(state, input, game);
      assert.equal(r.refused, undefined, `${input.kind} refused`);
      state = r.state;
      return r;
    };
    feed({ kind: 'open', at: 1, params, game: 'baccarat/macau-commission' });
    assert.ok(game.shoe.shoeCue(state.shoe), 'a new shoe: burns are due');
    const idle = feed({ kind: 'timer', at: 1_001, countdown: state.countdown?.id ?? 0 });
    assert.equal(state.countdown?.endsAt, 2_001, 'a whole window again');
    assert.ok(!idle.effects.some((e) => e.type === 'log'), 'an empty table says nothing every window');

    feed({ kind: 'credit', station: 1, balance: 1_000 });
    feed({ kind: 'place-bet', at: 1_002, station: 1, spot: { bet: 'banker' }, amount: 500 });
    const early = feed({ kind: 'timer', at: 2_001, countdown: state.countdown?.id ?? 0 });
    assert.equal(state.phase, 'betting');
    assert.equal(state.countdown?.endsAt, 3_001, 'a whole window again');
    assert.deepEqual(early.journal, [], 'no bet placed while the shoe is not ready');
    const logs = early.effects.flatMap((e) => (e.type === 'log' ? [e.line.msg] : []));
    assert.deepEqual(logs, ['betting stays open: the shoe comes first']);

    // The indicator (a 9: nine burnt after it), then cards of the shoe, none beyond its inventory.
    const burns = ['9C', '2D', '3H', '4S', '5C', '6D', '7H', '8S', 'TC', 'JD'] as const;
    for (const card of burns) if (game.shoe.shoeCue(state.shoe)) feed({ kind: 'card', at: 1_500, card: cardOf(card) });
    assert.equal(game.shoe.shoeCue(state.shoe), null, 'the burns are dealt');
    const closed = feed({ kind: 'timer', at: 3_001, countdown: state.countdown?.id ?? 0 });
    assert.equal(state.phase, 'dealing');
    assert.deepEqual(
      closed.journal.map((e) => e.type),
      ['bet.place'],
    );
    assert.ok(!closed.effects.some((e) => e.type === 'log' && e.line.msg.includes('shoe comes first')));
  });
});
