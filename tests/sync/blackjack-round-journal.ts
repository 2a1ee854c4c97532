// Test-only: one blackjack round as its table's runtime journals it (the engine's own step), for
// the back office's report tests: the bets of the window, then each card dealt to whom the engine's
// cue names and each decision of the seat it asks, as the test scripts them.
import assert from 'node:assert/strict';
import { cardOf, type CardCode } from '../../engine/cards/card.js';
import { blackjackTableGame } from '../../engine/blackjack/table-game.js';
import type { TableInput } from '../../engine/table/inputs.js';
import type { TableParams } from '../../engine/table/state.js';
import type { NewEntry } from '../../ledger/entries.js';
import { engineTable } from './engine-journal.js';

/** A table of `seats` stations, station n at seat n, with the report tests' limits and timings. */
export function seatedParams(tableId: string, seats: number, max = 100_000): TableParams {
  return {
    tableId,
    stations: Array.from({ length: seats }, (_, i) => ({ station: i + 1, seat: i + 1 })),
    limits: { min: 100, max },
    betLimits: {},
    timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
  };
}

/** A decision of a seat: its action, and an amount where the action takes one (insurance). */
export type Scripted = string | { action: string; amount: number };

export interface BlackjackRound {
  readonly profile: Parameters<typeof blackjackTableGame>[0];
  readonly params: TableParams;
  /** The window's bets, placed in this order. */
  readonly bets: readonly Omit<Extract<TableInput, { kind: 'place-bet' }>, 'kind' | 'at'>[];
  /** The cards each recipient is dealt, in order: a seat's number, or `dealer`. */
  readonly cards: Record<string, CardCode[]>;
  /** Each seat's decisions, in order (`stand` once they run out). */
  readonly decisions: Record<number, Scripted[]>;
}

/** The round's journal, each station with 10,000 of credit from a note; the round is settled. */
export function blackjackRoundJournal(r: BlackjackRound): NewEntry[] {
  const game = blackjackTableGame(r.profile);
  const t = engineTable(game, r.params, 10_000);
  // The shoe's first burns, before any bet.
  for (let i = 0; i < 20 && game.shoe.shoeCue(t.state.shoe); i++) t.feed({ kind: 'card', at: 2, card: cardOf('2C') });
  for (const b of r.bets) t.feed({ kind: 'place-bet', at: 3, ...b });
  t.feed({ kind: 'timer', at: 1_001, countdown: t.state.countdown?.id ?? 0 });
  for (let i = 0; t.state.phase === 'dealing' && i < 40; i++) {
    const round = t.state.round;
    assert.ok(round !== null);
    const due = game.round.pending(t.state.shoe, round);
    if (due.kind === 'decision') {
      const next = r.decisions[due.seat]?.shift() ?? 'stand';
      const { action, amount } = typeof next === 'string' ? { action: next, amount: undefined } : next;
      assert.ok(due.legal.includes(action as never), `seat ${due.seat}: ${action} not in ${due.legal.join(', ')}`);
      t.feed({ kind: 'decide', at: 1_100, station: due.seat, action, ...(amount === undefined ? {} : { amount }) } as TableInput);
    } else if (due.kind === 'card') {
      const to = due.cue.to === 'dealer' ? 'dealer' : String(due.cue.seat);
      const card = r.cards[to]?.shift();
      assert.ok(card, `no card left for ${to}`);
      t.feed({ kind: 'card', at: 1_100, card: cardOf(card) });
    }
  }
  assert.equal(t.state.phase, 'results', 'the round is settled');
  return t.entries;
}
