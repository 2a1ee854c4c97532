// A change is two journal entries: its `config.change`, then the `rules.record` of the rule set
// after it (issue 51). A journal that takes the first and refuses the second (a disk filling up
// between two commits) must not leave the running table on one value and the journal on another:
// a start applies every journalled change (`restore`), so the running table applies it too, at
// once for the credit limit, queued to the round's end for the limits. The refusal still reaches
// the caller, so the person making the change sees it failed and the ledger's fault is raised.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger } from '../../ledger/index.js';
import { ConfigChanges } from './config-changes.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { simulatedTableConfig, TableConfig } from './table-config.js';

const by = { who: 'tech.a', witness: 'manager.b', authorisation: 'DICJ-2026-CL-1' };
const log = pino({ level: 'silent' });

function rig(betweenRounds: () => boolean) {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-FAULT' });
  const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), creditLimit: 1_000_000 });
  const changes = new ConfigChanges({ config, ledger, log, bets: ['banker', 'player', 'tie'], betweenRounds });
  /** What a start over this journal and the same file would run with. */
  const restarted = () => {
    const fresh = TableConfig.parse({ ...simulatedTableConfig('baccarat'), creditLimit: 1_000_000 });
    new ConfigChanges({ config: fresh, ledger, log, bets: ['banker', 'player', 'tie'], betweenRounds: () => true }).restore();
    return fresh;
  };
  return { ledger, config, changes, restarted };
}

describe('a change whose rules record the journal refuses', () => {
  it('the credit limit journalled is the credit limit in effect, as after a restart; the caller is told it failed', () => {
    const t = rig(() => false);
    try {
      refusingOnce(t.ledger, 'rules.record');
      assert.throws(() => t.changes.change('creditLimit', 400_000, by), /SQLITE_FULL/);
      assert.equal(configChanges(t.ledger).length, 1, 'the change itself was journalled');
      assert.equal(t.restarted().creditLimit, 400_000);
      assert.equal(t.config.creditLimit, 400_000, 'in effect now, as the journal says');
    } finally {
      t.ledger.close();
    }
  });

  it('the limits journalled mid-round are queued to the round end, as a change that journalled both', () => {
    let between = false;
    const t = rig(() => between);
    try {
      const before = { ...t.config.limits };
      const after = { min: before.min * 2, max: before.max };
      refusingOnce(t.ledger, 'rules.record');
      assert.throws(() => t.changes.change('limits', after, by), /SQLITE_FULL/);
      assert.deepEqual(t.config.limits, before, 'not in the round in play');
      between = true;
      t.changes.applyQueued();
      assert.deepEqual(t.config.limits, after, 'in effect at the round end');
      assert.deepEqual(t.restarted().limits, after);
    } finally {
      t.ledger.close();
    }
  });

  it('a change the journal refuses outright is neither in effect nor queued', () => {
    const t = rig(() => true);
    try {
      refusingOnce(t.ledger, 'config.change');
      assert.throws(() => t.changes.change('creditLimit', 400_000, by), /SQLITE_FULL/);
      assert.equal(t.config.creditLimit, 1_000_000);
      assert.equal(configChanges(t.ledger).length, 0);
    } finally {
      t.ledger.close();
    }
  });
});
