// A card is parsed once, where the shoe (or a person) reports it, and is the same `Card` value in
// the table's input, its step, its holds and the game (issue 32 item 4). The journal keeps the
// code it always kept, so a journal written before folds as it did.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Card } from '../cards/card.js';
import { warTableGame } from '../war/table-game.js';
import { foldJournal, type JournalItem } from './fold.js';
import { journalledInput, TableInput } from './inputs.js';
import type { TableParams } from './state.js';
import { initialTable, step } from './step.js';

const params: TableParams = {
  tableId: 'CARD-1',
  stations: [{ station: 1, seat: 1 }],
  limits: { min: 100, max: 10_000 },
  betLimits: {},
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

describe('a card in a table input', () => {
  it('is read from the journal as a Card value and written back as the code it was', () => {
    const stored = { kind: 'card', at: 5, card: 'TD', sequence: 3 };
    const input = TableInput.parse(stored);
    assert.equal(input.kind, 'card');
    assert.deepEqual(input.kind === 'card' ? input.card : null, { rank: 'T', suit: 'D' });
    assert.deepEqual(journalledInput(input), stored);
    assert.equal(JSON.stringify(journalledInput(input)), '{"kind":"card","at":5,"card":"TD","sequence":3}');
    const entered = TableInput.parse({ kind: 'enter-card', at: 6, card: 'QH', supervisor: 'a', witness: 'b' });
    assert.deepEqual(journalledInput(entered), { kind: 'enter-card', at: 6, card: 'QH', supervisor: 'a', witness: 'b' });
  });

  it('is refused in the journal in any form but a card code', () => {
    for (const card of ['10D', 'td', 'XX', { rank: 'T', suit: 'D' }, 42]) {
      assert.equal(TableInput.safeParse({ kind: 'card', at: 5, card }).success, false, `${JSON.stringify(card)} is not a journalled card`);
    }
  });

  it('reaches the table as the value the edge made: the hold it causes holds that very card', () => {
    const game = warTableGame('macau');
    let state = step(initialTable(params, game), { kind: 'open', at: 1, params, game: game.identity }, game).state;
    // Betting: no card is expected, so a card read now is an extra card and the table holds.
    const card: Card = { rank: '7', suit: 'C' };
    const r = step(state, { kind: 'card', at: 2, card, sequence: 1 }, game);
    state = r.state;
    assert.equal(state.hold?.reason, 'extra-card');
    assert.equal(state.hold?.card, card, 'the same value, not a card parsed again from a code');
    // What it journalled names the card by its code, as before.
    assert.deepEqual(
      r.journal.map((e) => (e.type === 'misread' ? e.payload.card : null)),
      ['7C'],
    );
  });

  it('folds from a journal written with codes, as journals always were', () => {
    const game = warTableGame('macau');
    const live = [
      { kind: 'open', at: 1, params, game: game.identity },
      { kind: 'card', at: 2, card: '7C', sequence: 1 },
    ] as const;
    let state = initialTable(params, game);
    const items: JournalItem[] = [];
    let seq = 0;
    for (const stored of live) {
      const r = step(state, TableInput.parse(stored), game);
      items.push({ kind: 'input', seq: ++seq, input: stored, effects: r.journal.length });
      for (const e of r.journal) items.push({ kind: 'entry', seq: ++seq, record: e, credits: [] });
      state = r.state;
    }
    const folded = foldJournal(items, game, params);
    assert.deepEqual(folded.problems, []);
    assert.deepEqual(folded.state.hold?.card, { rank: '7', suit: 'C' });
    assert.deepEqual(folded.state, state);
  });
});
