// Portugal rule 47: «Em cada mão, a aposta no jackpot é constituída apenas por uma ficha por cada
// jogador, no montante previamente definido». The chip's amount is the program's stake wherever
// the table's limits come from: a table whose limits have no jackpot line (a configuration or a
// `configure` input without it) must still take the one chip and refuse any other amount at the
// bet, never let it reach the round (where the round refuses it and the table's step threw).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../cards/card.js';
import type { TableInput } from '../../table/inputs.js';
import type { TableParams, TableState } from '../../table/state.js';
import { initialTable, step } from '../../table/step.js';
import { blackjackTableGame, type BlackjackTableRound, type BlackjackTableShoe } from '../table-game.js';
import { EXAMPLE_JACKPOT_PROGRAM } from './program.js';

const STAKE = EXAMPLE_JACKPOT_PROGRAM.stake;
const game = blackjackTableGame('portugal-2001', { jackpot: true, jackpotCards: 3, jackpotProgram: EXAMPLE_JACKPOT_PROGRAM, authorisation: 'TEST-IGJ' });

/** A Portugal table with the jackpot, its limits without a jackpot line, betting open after the shoe's burns. */
function table(limits: TableParams['limits']): {
  go: (i: TableInput) => ReturnType<typeof step>;
  state: () => TableState<BlackjackTableShoe, BlackjackTableRound>;
} {
  const params: TableParams = {
    tableId: 'PT-47',
    stations: [{ station: 1, seat: 1 }],
    limits,
    betLimits: {},
    timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
  };
  let s = initialTable(params, game);
  const go = (i: TableInput) => {
    const r = step(s, i, game);
    s = r.state;
    return r;
  };
  go({ kind: 'open', at: 1, params, game: game.identity });
  go({ kind: 'credit', station: 1, balance: 100_000_000 });
  for (let i = 0; i < 20 && game.shoe.shoeCue(s.shoe); i++) go({ kind: 'card', at: 2, card: parseCard('2C') });
  assert.equal(s.phase, 'betting');
  return { go, state: () => s };
}

describe('the jackpot chip at a table whose limits have no jackpot line (portugal-2001 rule 47)', () => {
  it('refuses two chips at the bet, citing rule 47; the round then starts with what was taken', () => {
    const t = table({ min: STAKE, max: 30 * STAKE });
    assert.equal(t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'main' }, amount: 2 * STAKE }).refused, undefined);
    const two = t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'jackpot' }, amount: 2 * STAKE }).refused;
    assert.equal(two?.refusal, 'over-max');
    assert.match(two?.reason ?? '', /portugal-2001 rule 47/);
    assert.equal(t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'jackpot' }, amount: STAKE }).refused, undefined);
    // A second chip on the one already there is two chips too.
    assert.equal(t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'jackpot' }, amount: STAKE }).refused?.refusal, 'over-max');
    t.go({ kind: 'timer', at: 2_000, countdown: t.state().countdown?.id ?? 0 });
    assert.equal(t.state().phase, 'dealing');
    assert.deepEqual(
      t.state().placed.map((p) => [p.bet, p.amount]),
      [
        ['main', 2 * STAKE],
        ['jackpot', STAKE],
      ],
    );
  });

  it('takes the one chip where the table minimum is above it (rule 14 and rule 37 are the main bet’s limits, not the chip’s)', () => {
    const t = table({ min: 100 * STAKE, max: 3_000 * STAKE });
    assert.equal(t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'main' }, amount: 100 * STAKE }).refused, undefined);
    assert.equal(t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'jackpot' }, amount: STAKE }).refused, undefined);
    const half = t.go({ kind: 'place-bet', at: 3, station: 1, spot: { bet: 'jackpot' }, amount: STAKE / 2 }).refused;
    assert.ok(half, 'half a chip is refused');
    t.go({ kind: 'timer', at: 2_000, countdown: t.state().countdown?.id ?? 0 });
    assert.equal(t.state().phase, 'dealing');
  });
});
