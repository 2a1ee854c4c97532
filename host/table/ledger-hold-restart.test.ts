// A table whose journal refuses a write holds (`journal-refused`); when the journal refuses the
// hold's own entry too, the hold is in memory only (runtime.ts `refused`). Decided (docs/table-host.md,
// "A ledger hold the journal refuses"): right, as nothing plays while it lasts and nothing of the
// refused input happened. What a restart does with it: the fault still there, the start's own
// `resume` is refused and holds the table again; the fault gone, the table opens unheld, as
// nothing was journalled that a hold would have to settle.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { entriesOfTypes, openLedger } from '../../ledger/index.js';
import { tableParams } from '../config/table-params.js';
import { refusingOnce, refusingUntilReleased } from '../testing/refusing-ledger.js';
import { credit, manualTimers, silent, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { openTable } from './start-table.js';
import { openTableGame } from './table-game.js';

type Command = Parameters<TestTable['hub']['commands']['submit']>[2];
const cmd = (t: TestTable, command: Command) => submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), command));
const BET: Command = { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 };

/**
 * A war table whose bet the journal refused, and then the hold's own entry and every write of the
 * table after it (its faults' input) until it stopped: held in memory only, stopped. `tookAWrite`:
 * the journal took the table's writes again before the stop, so the next (a card the shoe read
 * during the hold) journalled the hold first, late.
 */
function heldInMemory(tookAWrite = false): TestTable {
  const t = testTable();
  credit(t.ledger, 1, 50_000);
  const release = refusingUntilReleased(t.ledger, 'table.input');
  const r = cmd(t, BET);
  assert.equal(r.ok, false, 'the bet refused: it could not be journalled');
  assert.equal(t.table.state.hold?.reason, 'ledger', 'held');
  assert.equal(t.ledger.credit(1), 50_000, 'no chip, no credit moved');
  assert.equal(cmd(t, BET).ok, false, 'nothing plays while it holds');
  if (tookAWrite) {
    release();
    t.table.shoe.onCard(parseCard('5S'), 7);
  }
  t.stop();
  return t;
}

describe('a ledger hold the journal refused too (in memory only), at the next start', () => {
  it('the fault still there: the start’s own resume is refused and holds the table again, in memory', () => {
    const t = heldInMemory();
    const ledger = openLedger(t.dir, 'T-FLOOR');
    let stop = (): void => {};
    try {
      const inputs = [...entriesOfTypes(ledger, ['table.input'])].length;
      // The journal refuses the table's writes still (the resume's, then its hold's).
      refusingOnce(ledger, 'table.input');
      refusingOnce(ledger, 'table.input');
      const clock = manualTimers();
      const params = tableParams(t.config);
      const opened = openTableGame(t.config, (game) => openTable(game, { ledger, log: silent, timers: clock.timers, params }));
      stop = () => opened.table.stop();
      opened.resume({ newShoe: false, params });
      assert.equal(opened.table.state.hold?.reason, 'ledger', 'held again: not silently unheld');
      assert.equal(opened.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, false);
      assert.equal([...entriesOfTypes(ledger, ['table.input'])].length, inputs, 'nothing journalled');
    } finally {
      stop();
      ledger.close();
      testTable({ dir: t.dir }).close();
    }
  });

  it('the fault gone: the table opens unheld, the credit whole, and plays', () => {
    const t = heldInMemory();
    const again = testTable({ dir: t.dir });
    try {
      assert.equal(again.table.state.hold, null);
      assert.equal(again.ledger.credit(1), 50_000);
      assert.equal(cmd(again, BET).ok, true);
    } finally {
      again.close();
    }
  });

  it('the journal took a write after the hold (the table journalled it then, late): the table opens held, for two people to void', () => {
    const t = heldInMemory(true);
    const again = testTable({ dir: t.dir });
    try {
      assert.equal(again.table.state.hold?.reason, 'ledger', 'the hold the journal holds, restored');
      assert.equal(again.ledger.credit(1), 50_000, 'the refused bet took nothing');
      assert.equal(cmd(again, BET).ok, false, 'nothing plays until it is voided');
    } finally {
      again.close();
    }
  });
});
