import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warTableGame } from '../war/table-game.js';
import { baccaratTableGame } from '../baccarat/table-game.js';
import type { JournalRecord } from './effects.js';
import { foldJournal, type JournalItem } from './fold.js';
import { cardOf } from '../cards/card.js';
import { journalledInput, type TableInput } from './inputs.js';
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
    journal.push({ kind: 'input', seq: ++seq, input: journalledInput(input), effects: r.journal.length });
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
  for (const card of ['5S', 'KD', '9C'] as const) t.feed({ kind: 'card', at: 1_100, card: cardOf(card) });
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

// A journal written by another program (an earlier build): the table's entries are compared by
// their facts and money, not their words (docs/ledger.md, "Upgrades").
describe('the fold of a journal another program wrote', () => {
  const EARLIER = 'a'.repeat(64);
  const THIS = 'b'.repeat(64);
  const powerReset = (seq: number, programHash?: string): JournalItem => ({
    kind: 'entry',
    seq,
    record: { type: 'power.reset', txId: null, payload: { clean: true, softwareVersion: '0.1.0', ...(programHash ? { programHash } : {}) } },
    credits: [],
  });
  /** The war coup as an earlier build journalled it: each settlement line cited otherwise, after its power reset. */
  function earlier(change: (record: Extract<JournalRecord, { type: 'round.settle' }>) => Extract<JournalRecord, { type: 'round.settle' }>, program = EARLIER) {
    const t = warCoup();
    const journal = t.journal.map((item) =>
      item.kind === 'entry' && item.record.type === 'round.settle'
        ? { ...item, record: change(item.record as Extract<JournalRecord, { type: 'round.settle' }>) }
        : item,
    );
    return { t, journal: [powerReset(0, program), ...journal] };
  }
  const recited = (r: Extract<JournalRecord, { type: 'round.settle' }>) => ({
    ...r,
    payload: { ...r.payload, lines: r.payload.lines.map((l) => ({ ...l, rule: 'macau-war' })) },
  });

  it('reads a settlement cited otherwise by its facts, and comes to the live table', () => {
    const { t, journal } = earlier(recited);
    const folded = foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS });
    assert.deepEqual(folded.problems, []);
    assert.equal(folded.byFacts, 1, 'the settlement, read by its facts');
    assert.deepStrictEqual(folded.state, t.state);
  });

  it('compares byte for byte what this program wrote, and everything when no program is named', () => {
    const { journal } = earlier(recited, THIS);
    assert.match(foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /round\.settle differs/);
    assert.match(foldJournal(earlier(recited).journal, warTableGame('macau'), params).problems[0] ?? '', /round\.settle differs/);
    // A power reset of this program after the earlier one: what follows it is this program's.
    const mixed = [powerReset(0, EARLIER), powerReset(0, THIS), ...earlier(recited).journal.slice(1)];
    assert.match(foldJournal(mixed, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /round\.settle differs/);
  });

  it('takes an entry without a field this program adds (an earlier build did not write it)', () => {
    // As a baccarat hold's entry gained the settled round's id (issue 33 item 6): here, the round's decisions.
    const { journal } = earlier((r) => {
      const { decisions: _added, ...payload } = r.payload;
      return { ...r, payload: payload as typeof r.payload };
    });
    assert.deepEqual(foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS }).problems, []);
    // A field the journal has that this program does not write is a fact it does not re-derive.
    const extra = earlier((r) => ({ ...r, payload: { ...r.payload, shoeId: 'S-1' } })).journal;
    assert.match(foldJournal(extra, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /facts differ/);
  });

  it('stops when the money differs, whatever the program: a stake, a net, a station, a card', () => {
    type Line = Extract<JournalRecord, { type: 'round.settle' }>['payload']['lines'][number];
    for (const change of [
      (l: Line): Line => ({ ...l, net: l.net + 1 }),
      (l: Line): Line => ({ ...l, stake: l.stake + 1 }),
      (l: Line): Line => ({ ...l, station: l.station === 1 ? 2 : 1 }),
    ]) {
      const { journal } = earlier((r) => ({ ...r, payload: { ...r.payload, lines: r.payload.lines.map((l) => ({ ...change(l), rule: 'macau-war' })) } }));
      assert.match(foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /facts differ/);
    }
    const { journal } = earlier((r) => ({ ...r, payload: { ...r.payload, cards: [...r.payload.cards].reverse() } }));
    assert.match(foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /facts differ/);
  });

  it('stops when the credits the journal recorded are not the ones this program derives', () => {
    const { journal } = earlier(recited);
    const i = journal.findIndex((x) => x.kind === 'entry' && x.record.type === 'round.settle');
    const item = journal[i];
    assert.ok(item?.kind === 'entry');
    const moved = journal.map((x, j) => (j === i ? { ...item, credits: item.credits.map(([s, c]) => [s, c + 100] as const) } : x));
    assert.match(foldJournal(moved, warTableGame('macau'), params, undefined, { program: THIS }).problems[0] ?? '', /credit of station \d+/);
  });

  it('passes over a command an earlier build took that this one refuses, when it moved nothing', () => {
    const t = warCoup();
    // An input that journalled nothing (chips on a spot) and that this program refuses.
    const refused: JournalItem = {
      kind: 'input',
      seq: 998,
      input: { kind: 'place-bet', at: 4, station: 1, spot: { bet: 'main' }, amount: 9_999_999 },
      effects: 0,
    };
    const journal = [powerReset(0, EARLIER), ...t.journal.slice(0, 3), refused, ...t.journal.slice(3)];
    const folded = foldJournal(journal, warTableGame('macau'), params, undefined, { program: THIS });
    assert.deepEqual(folded.problems, []);
    assert.equal(folded.skippedInputs, 1);
    assert.deepStrictEqual(folded.state, t.state);
    assert.match(foldJournal(journal, warTableGame('macau'), params).problems[0] ?? '', /refused on replay/, 'not without a program named');
  });
});
