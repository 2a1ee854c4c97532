// The upstream reads a table's `service.account` entries as the table does, or an entry the table
// believes makes a supervisor could pass the floor's alarm unseen (upstream/ingest/supervisor-accounts.ts
// folds them apart from the host's code, which the upstream does not import). The two folds are run
// on the same random journals and compared; the payload's roles and actions are the schema's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PAYLOADS } from '../../ledger/index.js';
import { JournalledAccounts, type AccountJournal, type JournalledEntry } from '../../host/service/account-journal.js';
import { ACCOUNT_ACTIONS, ACCOUNT_ROLES, foldAccount, makesSupervisor, type AccountEntry, type Standing } from '../../upstream/ingest/supervisor-accounts.js';

const schema = PAYLOADS['service.account'];

/** A journal holding these entries, read as the host reads its ledger. */
function journalOf(entries: readonly AccountEntry[]): AccountJournal {
  const all: JournalledEntry[] = entries.map((payload, i) => ({ seq: i + 1, type: 'service.account', payload: schema.parse(payload) }));
  return {
    record: () => [],
    denied: () => undefined,
    head: () => all.length,
    after: (seq) => all.filter((e) => e.seq > seq),
  };
}

const entry = fc.record(
  {
    by: fc.constant('Ana (1001)'),
    staff: fc.constantFrom('1001', '1002', '1003'),
    name: fc.constantFrom('Ana', 'Bruno'),
    role: fc.constantFrom(...ACCOUNT_ROLES),
    action: fc.constantFrom(...ACCOUNT_ACTIONS),
    pin: fc.constantFrom('a', 'b', 'c').map((c) => c.repeat(64)),
    disabled: fc.boolean(),
  },
  { requiredKeys: ['by', 'staff', 'name', 'role'] },
);

describe('the upstream folds service accounts as the table does', () => {
  it('the roles and actions it reads are the schema’s', () => {
    const shape = schema.shape;
    assert.deepEqual([...ACCOUNT_ROLES].sort(), [...shape.role.options].sort());
    assert.deepEqual([...ACCOUNT_ACTIONS].sort(), [...shape.action.unwrap().options].sort());
  });

  it('every account stands as the host’s JournalledAccounts has it, after any journal', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
        const host = new JournalledAccounts(journalOf(entries)).refresh();
        const folded = new Map<string, Standing>();
        for (const p of entries) folded.set(p.staff, foldAccount(folded.get(p.staff), p));
        for (const staff of ['1001', '1002', '1003']) {
          const h = host.get(staff);
          assert.deepEqual(folded.get(staff), h ? { role: h.role, disabled: h.disabled, pin: h.pin } : undefined, staff);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a supervisor made, by each way the host lets one be made', () => {
    const sup: Standing = { role: 'supervisor', disabled: false, pin: 'a' };
    assert.equal(makesSupervisor(undefined, sup), true, 'added');
    assert.equal(makesSupervisor({ ...sup, role: 'technician' }, sup), true, 'raised');
    assert.equal(makesSupervisor({ ...sup, disabled: true }, sup), true, 'enabled again');
    assert.equal(makesSupervisor({ ...sup, pin: 'b' }, sup), true, 'a new PIN');
    assert.equal(makesSupervisor(sup, sup), false, 'unchanged');
    assert.equal(makesSupervisor(undefined, { ...sup, disabled: true }), false, 'added disabled');
    assert.equal(makesSupervisor(sup, { ...sup, role: 'auditor' }), false, 'lowered');
  });
});
