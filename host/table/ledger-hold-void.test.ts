// A ledger hold the journal refused too is in memory only (runtime.ts `refused`; docs/table-host.md,
// "A ledger hold the journal refuses"). Two people then void it to lift it, the journal taking writes
// again. Before, the void journalled a `misread` resolving (`round-void`) a hold the journal never
// had: a false record, and a journal that no longer folds (the fold, without the hold, refuses the
// void). Now the hold is journalled first, late and saying so, in the void's own turn; the void
// then lifts it as any hold, and the journal folds to the live table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foldJournal } from '../../engine/table/fold.js';
import { parseCard } from '../../engine/cards/card.js';
import { entriesOfTypes, tableJournal } from '../../ledger/index.js';
import { refusingUntilReleased } from '../testing/refusing-ledger.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { openTableGame } from './table-game.js';

type Command = Parameters<TestTable['hub']['commands']['submit']>[2];
const cmd = (t: TestTable, command: Command) => submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), command));
const BET: Command = { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 };
const BY = ['Ana Lei (1001)', 'Bo Chan (1002)'] as const;

/**
 * A war table whose bet the journal refused, and then the hold's own entry and the table's every
 * write after it (its faults' input): held in memory only. Then the journal takes writes again.
 */
function heldInMemory(): TestTable {
  const t = testTable();
  credit(t.ledger, 1, 50_000);
  const release = refusingUntilReleased(t.ledger, 'table.input');
  assert.equal(cmd(t, BET).ok, false);
  assert.equal(t.table.state.hold?.reason, 'ledger', 'held');
  release();
  assert.equal([...entriesOfTypes(t.ledger, ['misread'])].length, 0, 'the hold is in memory only');
  return t;
}

const misreads = (t: TestTable) => [...entriesOfTypes(t.ledger, ['misread'])].map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
const inputs = (t: TestTable) =>
  [...entriesOfTypes(t.ledger, ['table.input'])].map((e) => (JSON.parse(e.body) as { payload: { input: Record<string, unknown> } }).payload.input);
const folds = (t: TestTable) => openTableGame(t.config, (game) => foldJournal(tableJournal(t.ledger), game, t.table.state.params).problems);

describe('a void of a ledger hold the journal never had', () => {
  it('journals the hold first, saying it was not journalled when it began; the void lifts it; the journal folds', () => {
    const t = heldInMemory();
    try {
      const r = t.table.input({ kind: 'void', at: Date.now(), reason: 'journal back: lift the hold', authorisedBy: [...BY] });
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(t.table.state.hold, null, 'lifted');
      const [pending, lifted, ...more] = misreads(t);
      assert.deepEqual(more, []);
      assert.equal(pending?.resolution, 'pending', 'the hold, journalled before its resolution');
      assert.equal(pending?.detail, 'ledger');
      assert.equal(lifted?.resolution, 'round-void');
      const held = inputs(t).find((i) => i.kind === 'journal-refused');
      assert.match(String(held?.reason), /journalled late/, 'the record says the hold was not journalled when it began');
      assert.deepEqual(folds(t), [], 'the journal folds to the table: the void resolves a hold it holds');
      assert.equal(t.ledger.credit(1), 50_000, 'the refused bet took nothing');
    } finally {
      t.close();
    }
  });

  it('the journal still refusing: the void is refused to the people, nothing journalled, still held', () => {
    const t = heldInMemory();
    try {
      const release = refusingUntilReleased(t.ledger, 'table.input');
      const r = t.table.input({ kind: 'void', at: Date.now(), reason: 'lift the hold', authorisedBy: [...BY] });
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.act?.why, 'not-journalled');
      assert.equal(t.table.state.hold?.reason, 'ledger', 'still held');
      assert.deepEqual(misreads(t), [], 'nothing journalled');
      release();
      assert.equal(t.table.input({ kind: 'void', at: Date.now(), reason: 'lift the hold', authorisedBy: [...BY] }).ok, true);
      assert.deepEqual(
        misreads(t).map((m) => m.resolution),
        ['pending', 'round-void'],
      );
      assert.deepEqual(folds(t), []);
    } finally {
      t.close();
    }
  });

  it("the table's own write during the hold (a card read) journals the hold first: the journal folds, after the read and after the void", () => {
    // A read-only review of 2 December: only a person's act journalled the late hold, so a card
    // read during it was journalled as a misread with no hold before it, and the fold refused it.
    const t = heldInMemory();
    try {
      t.table.shoe.onCard(parseCard('5S'), 7);
      assert.deepEqual(folds(t), [], 'the journal folds after the read');
      assert.match(String(inputs(t).find((i) => i.kind === 'journal-refused')?.reason), /journalled late/);
      const r = t.table.input({ kind: 'void', at: Date.now(), reason: 'journal back: lift the hold', authorisedBy: [...BY] });
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(t.table.state.hold, null, 'lifted');
      assert.equal(inputs(t).filter((i) => i.kind === 'journal-refused').length, 1, 'the hold journalled once');
      assert.deepEqual(folds(t), [], 'the journal folds after the void');
      assert.equal(t.ledger.credit(1), 50_000);
    } finally {
      t.close();
    }
  });
});
