import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warTableGame } from '../war/table-game.js';
import { baccaratTableGame } from '../baccarat/table-game.js';
import type { JournalRecord } from './effects.js';
import { foldJournal, type JournalItem } from './fold.js';
import type { TableInput } from './inputs.js';
import type { TableParams, TableState } from './state.js';
import { initialTable, step } from './step.js';
import type { GameDefinition } from './game.js';

const params: TableParams = {
  tableId: 'FOLD-1',
  stations: [
    { station: 1, seat: 1 },
    { station: 2, seat: 2 },
  ],
  limits: { min: 100, max: 10_000 },
  betLimits: {},
  timings: { bettingMs: 1_000, decisionMs: 1_000, resultsMs: 500 },
};

/** A live table that journals as the runtime does: each taken input, then what its step wrote. */
function live<S, R>(game: GameDefinition<S, R>) {
  let state: TableState<S, R> = initialTable(params, game);
  const journal: JournalItem[] = [];
  let seq = 0;
  const feed = (input: TableInput) => {
    const r = step(state, input, game);
    if (r.refused || r.state === state) return r;
    journal.push({ kind: 'input', seq: ++seq, input, effects: r.journal.length });
    // The credits the transaction moved ride on its last entry, as the ledger would record them.
    const moved = Object.entries(r.state.credits)
      .filter(([st, c]) => state.credits[Number(st)] !== c)
      .map(([st, c]): [number, number] => [Number(st), c]);
    r.journal.forEach((e, i) => journal.push({ kind: 'entry', seq: ++seq, record: e, credits: i === r.journal.length - 1 ? moved : [] }));
    state = r.state;
    for (const e of r.effects) if (e.type === 'next') feed({ kind: e.input, at: 0 });
    return r;
  };
  /** A note credited: an entry the table did not write, with the credit it moved. */
  const note = (station: number, after: number) => {
    journal.push({ kind: 'entry', seq: ++seq, record: { type: 'bill.credit', txId: `n${seq}`, payload: {} }, credits: [[station, after]] });
    state = step(state, { kind: 'credit', station, balance: after }, game).state;
  };
  return {
    feed,
    note,
    journal,
    get state() {
      return state;
    },
  };
}

/** A war coup: two stations bet, seat 1 loses to the croupier, seat 2 wins. */
function warCoup() {
  const t = live(warTableGame('macau'));
  t.feed({ kind: 'open', at: 1, params, game: 'war/macau' });
  t.note(1, 1_000);
  t.note(2, 1_000);
  t.feed({ kind: 'place-bet', at: 2, station: 1, spot: { bet: 'main' }, amount: 500 });
  t.feed({ kind: 'place-bet', at: 3, station: 2, spot: { bet: 'main' }, amount: 300 });
  t.feed({ kind: 'timer', at: 1_001, countdown: t.state.countdown?.id ?? 0 });
  for (const card of ['5S', 'KD', '9C'] as const) t.feed({ kind: 'card', at: 1_100, card });
  return t;
}

describe('the fold of a journal', () => {
  it('is the live table, settlement and credits included', () => {
    const t = warCoup();
    assert.equal(t.state.phase, 'results');
    assert.deepEqual(t.state.credits, { 1: 500, 2: 1_300 });
    const folded = foldJournal(t.journal, warTableGame('macau'), params);
    assert.deepEqual(folded.problems, []);
    assert.equal(folded.opened, true);
    assert.deepStrictEqual(folded.state, t.state);
  });

  it("stops at an entry its input's step does not write (a journal written under other rules)", () => {
    const t = warCoup();
    const settle = t.journal.findIndex((i) => i.kind === 'entry' && i.record.type === 'round.settle');
    const item = t.journal[settle];
    assert.ok(item?.kind === 'entry');
    const record = item.record as Extract<JournalRecord, { type: 'round.settle' }>;
    const tampered = { ...record, payload: { ...record.payload, lines: record.payload.lines.map((l) => ({ ...l, net: l.net + 1 })) } };
    const journal = t.journal.map((x, i) => (i === settle ? { ...item, record: tampered } : x));
    const folded = foldJournal(journal, warTableGame('macau'), params);
    assert.match(folded.problems[0] ?? '', /round\.settle differs from what its input's step writes/);
  });

  it('stops at a journalled input its step refuses, and at one it cannot read', () => {
    const t = warCoup();
    const refused: JournalItem = { kind: 'input', seq: 999, input: { kind: 'decide', at: 5, station: 1, action: 'war' }, effects: 1 };
    assert.match(foldJournal([...t.journal, refused], warTableGame('macau'), params).problems[0] ?? '', /refused on replay/);
    const unread: JournalItem = { kind: 'input', seq: 999, input: { kind: 'teleport' }, effects: 0 };
    assert.match(foldJournal([...t.journal, unread], warTableGame('macau'), params).problems[0] ?? '', /not a table input this version reads/);
  });

  it('does not fold a table opened under another game through this one, but keeps its credits', () => {
    const t = warCoup();
    const folded = foldJournal(t.journal, baccaratTableGame('macau-commission'), params);
    assert.deepEqual(folded.problems, []);
    assert.equal(folded.opened, false, "the journal's table is war, not this baccarat");
    assert.deepEqual(folded.state.credits, { 1: 500, 2: 1_300 }, "every credit the journal moved, the war coup's included");
    assert.equal(folded.state.round, null, 'nothing of the war round');
  });
});
