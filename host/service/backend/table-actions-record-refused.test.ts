// A table switch from service mode (a new shoe declared, the table reopened, a fault cleared) whose
// `service.action` record the journal refuses (a disk filling up). The record goes in the switch's
// own write (the table's `shoe-loaded` step, the fault's `tilt.clear`): both are written or
// neither. Refused, the person is told the switch did not happen (nothing journalled, the table as
// it was), and asking again makes it once, with its record. Before, the switch was journalled
// first and its record after: a refused record left a switch with no record of who made it.
// The table closed is the exception: its fault is held even when the journal refuses its raise
// (the safe side), so a refused record is logged and the person told it is done.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../../engine/cards/card.js';
import { entriesOfTypes, type Ledger } from '../../../ledger/index.js';
import { refusingOnce } from '../../testing/refusing-ledger.js';
import { testTable, type TestTable } from '../../testing/table-kit.js';
import type { BackendResult } from '../service-backend.js';
import { changeSignal } from './changes.js';
import { serviceJournal } from './service-journal.js';
import { tableActions } from './table-actions.js';

function actions(t: TestTable) {
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  const act = tableActions(
    { table: t.table, config: t.config, shoe: { simulator: () => null }, floor: t.floor, log },
    serviceJournal(t.ledger, changeSignal()),
  );
  return { act, errors };
}

const held = (t: TestTable, kind: string) => t.floor.tilts.list().some((h) => h.kind === kind);
const count = (t: TestTable, type: 'service.action' | 'tilt.clear') => [...entriesOfTypes(t.ledger, [type])].length;

function answer(act: () => BackendResult): BackendResult | 'threw' {
  try {
    return act();
  } catch {
    return 'threw';
  }
}

/** Every batch the ledger is asked to write from now on, as its entries' types (a refused one too). */
function batches(ledger: Ledger): string[][] {
  const seen: string[][] = [];
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (es, then) => {
    seen.push(es.map((e) => e.type));
    return appendMany(es, then);
  };
  const append = ledger.append.bind(ledger);
  ledger.append = (e) => {
    seen.push([e.type]);
    return append(e);
  };
  return seen;
}

function refusedNotDone(r: BackendResult | 'threw', key: string): void {
  assert.ok(r !== 'threw' && !r.ok, `the person is told it was not done: ${JSON.stringify(r)}`);
  assert.equal(r.notice?.key, key);
}

describe('a table switch from service mode whose service.action record the journal refuses', () => {
  it('a new shoe declared: refused whole (no new shoe, no record), told so; asked again, one new shoe with its record in its write', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      t.table.shoe.onNewShoe();
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const { act } = actions(t);
      const shoeNo = t.table.state.shoeNo;
      const head = t.ledger.headOf().seq;
      refusingOnce(t.ledger, 'service.action');
      const seen = batches(t.ledger);
      refusedNotDone(
        answer(() => act.newShoe('sup')),
        'serviceRefusal.actNotJournalled',
      );
      assert.equal(t.table.state.shoeNo, shoeNo, 'no new shoe');
      assert.equal(t.ledger.headOf().seq, head, 'nothing journalled (no hold for it either)');
      assert.equal(t.table.state.hold, null);
      const again = answer(() => act.newShoe('sup'));
      assert.ok(again !== 'threw' && again.ok, JSON.stringify(again));
      assert.equal(t.table.state.shoeNo, shoeNo + 1, 'one new shoe');
      assert.equal(count(t, 'service.action'), 1);
      const taken = seen.filter((b) => b.includes('service.action'));
      assert.equal(taken.length, 2);
      for (const b of taken) assert.equal(b[0], 'table.input', `the record in the shoe's own write: ${b.join(', ')}`);
    } finally {
      t.close();
    }
  });

  it('the table reopened: refused whole (still closed, no clear, no record), told so; asked again, reopened once with its record', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const { act } = actions(t);
      assert.equal(act.setTableOpen(false, 'sup').ok, true);
      const clears = count(t, 'tilt.clear');
      refusingOnce(t.ledger, 'service.action');
      const seen = batches(t.ledger);
      refusedNotDone(
        answer(() => act.setTableOpen(true, 'sup')),
        'serviceRefusal.tiltLedgerRefuses',
      );
      assert.equal(held(t, 'table-closed'), true, 'still closed');
      assert.equal(count(t, 'tilt.clear'), clears, 'no clear journalled');
      assert.equal(count(t, 'service.action'), 1, 'only the close’s record');
      const again = answer(() => act.setTableOpen(true, 'sup'));
      assert.ok(again !== 'threw' && again.ok, JSON.stringify(again));
      assert.equal(held(t, 'table-closed'), false);
      assert.equal(count(t, 'tilt.clear'), clears + 1);
      assert.equal(count(t, 'service.action'), 2);
      const taken = seen.filter((b) => b.includes('service.action'));
      assert.deepEqual(taken, [
        ['tilt.clear', 'service.action'],
        ['tilt.clear', 'service.action'],
      ]);
    } finally {
      t.close();
    }
  });

  it('a fault cleared: refused whole (still held, no clear, no record), told so; asked again, cleared once with its record', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const { act } = actions(t);
      t.floor.tilts.raise('shoe-alarm', {});
      t.floor.tilts.conditionGone('shoe-alarm');
      refusingOnce(t.ledger, 'service.action');
      const seen = batches(t.ledger);
      refusedNotDone(
        answer(() => act.clearTilt('shoe-alarm', undefined, 'sup', 'supervisor')),
        'serviceRefusal.tiltLedgerRefuses',
      );
      assert.equal(held(t, 'shoe-alarm'), true);
      assert.equal(count(t, 'tilt.clear'), 0);
      assert.equal(count(t, 'service.action'), 0);
      const again = answer(() => act.clearTilt('shoe-alarm', undefined, 'sup', 'supervisor'));
      assert.ok(again !== 'threw' && again.ok, JSON.stringify(again));
      assert.equal(held(t, 'shoe-alarm'), false);
      assert.equal(count(t, 'tilt.clear'), 1);
      assert.equal(count(t, 'service.action'), 1);
      assert.deepEqual(
        seen.filter((b) => b.includes('service.action')),
        [
          ['tilt.clear', 'service.action'],
          ['tilt.clear', 'service.action'],
        ],
      );
    } finally {
      t.close();
    }
  });

  it('the table closed: its fault held whatever the record; a refused record logged, the person told it is done', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const { act, errors } = actions(t);
      refusingOnce(t.ledger, 'service.action');
      assert.equal(act.setTableOpen(false, 'sup').ok, true);
      assert.equal(held(t, 'table-closed'), true);
      assert.equal(errors.length, 1);
    } finally {
      t.close();
    }
  });
});
