// A table switch from service mode (a new shoe, the table closed, a fault cleared) whose
// `service.action` record the journal refuses (a disk filling up). The switch itself is done and
// journalled by its own part before the record (the shoe's entries, the tilt's raise or clear), so
// it stands whatever becomes of the record. Before, the record's refusal was thrown: the person
// was told the switch had failed though it had not, and a retried new shoe declared a second shoe.
// Now the person is told it is done and the refused record is logged at error level.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { parseCard } from '../../../engine/cards/card.js';
import { entriesOfTypes } from '../../../ledger/index.js';
import { refusingOnce } from '../../testing/refusing-ledger.js';
import { testTable, type TestTable } from '../../testing/table-kit.js';
import { changeSignal } from './changes.js';
import { serviceJournal } from './service-journal.js';
import { tableActions } from './table-actions.js';

function actions(t: TestTable) {
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  const act = tableActions({ table: t.table, shoe: { simulator: () => null }, floor: t.floor, log }, serviceJournal(t.ledger, changeSignal()));
  return { act, errors };
}

const held = (t: TestTable, kind: string) => t.floor.tilts.list().some((h) => h.kind === kind);
const records = (t: TestTable) => [...entriesOfTypes(t.ledger, ['service.action'])].length;

describe('a table switch from service mode whose service.action record the journal refuses', () => {
  it('a new shoe: told done (not failed), the shoe changed once, the refusal logged; nothing thrown', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      t.table.shoe.onNewShoe();
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      const { act, errors } = actions(t);
      const shoeNo = t.table.state.shoeNo;
      refusingOnce(t.ledger, 'service.action');
      const r = act.newShoe('sup');
      assert.equal(r.ok, true);
      assert.equal(t.table.state.shoeNo, shoeNo + 1);
      assert.equal(records(t), 0);
      assert.equal(errors.length, 1);
    } finally {
      t.close();
    }
  });

  it('the table closed: told done, the table-closed fault held, the refusal logged; reopened after, with its record', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const { act, errors } = actions(t);
      refusingOnce(t.ledger, 'service.action');
      assert.equal(act.setTableOpen(false, 'sup').ok, true);
      assert.equal(held(t, 'table-closed'), true);
      assert.equal(errors.length, 1);
      assert.equal(act.setTableOpen(true, 'sup').ok, true);
      assert.equal(held(t, 'table-closed'), false);
      assert.equal(records(t), 1);
    } finally {
      t.close();
    }
  });

  it('a fault cleared: told done, the fault gone, the refusal logged', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const { act, errors } = actions(t);
      t.floor.tilts.raise('table-closed', {});
      refusingOnce(t.ledger, 'service.action');
      const r = act.clearTilt('table-closed', undefined, 'sup', 'supervisor');
      assert.equal(r.ok, true);
      assert.equal(held(t, 'table-closed'), false);
      assert.equal(errors.length, 1);
    } finally {
      t.close();
    }
  });
});
