// A second process of the kiosk user can append a well-formed `service.account` entry through the
// ledger's own code (a new supervisor with a PIN digest, `by` naming a real supervisor) and the
// matching accounts-store row: the table's audit and its witness pass it (docs/security.md,
// "Service accounts"). What sees it is the upstream's copy of the journal, so the floor must hear of
// every account the journal makes a supervisor: added as one, raised to one, enabled again, or
// given a new PIN (whoever set it knows it). `supervisor-account` alarms, raised at ingest in the
// batch's transaction (upstream/ingest/supervisor-accounts.ts), bounded per batch as the kiosk
// faults are; the adoption (the one-time baseline) is one alarm. No detail holds a PIN digest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '../../upstream/index.js';
import { FAULT_ALARMS_EACH } from '../../upstream/ingest/kiosk-faults.js';
import { backofficeKit } from './backoffice-kit.js';
import { lyingTable, type LyingEntry } from './lying-journal-kit.js';
import { DATABASES } from '../sync/upstream-databases.js';
import { alarmRig, lastAlarmId, raisedAlarms, type RaisedAlarm } from './alarm-rig.js';

const KIND = 'supervisor-account';
const TS = '2026-12-01T02:00:00.000Z';
type Role = 'technician' | 'supervisor' | 'auditor';
type Action = 'disable' | 'enable' | 'unlock' | 'reset-pin' | 'role' | 'adopt';

const digest = (n: number): string => n.toString(16).padStart(64, '0');
const ANA = 'Ana (1001)';

/** A `service.account` payload as ledger/service-payloads.ts has it. */
function account(staff: string, role: Role, action?: Action, extra: { by?: string; pin?: string; disabled?: boolean; name?: string } = {}) {
  const withPin = action === undefined || action === 'adopt' || action === 'reset-pin';
  return {
    by: extra.by ?? ANA,
    staff,
    name: extra.name ?? `name ${staff}`,
    role,
    ...(action ? { action } : {}),
    ...(extra.pin !== undefined ? { pin: extra.pin } : withPin ? { pin: digest(Number(staff)) } : {}),
    ...(extra.disabled !== undefined ? { disabled: extra.disabled } : action === 'adopt' ? { disabled: false } : {}),
  };
}

type Raised = Omit<RaisedAlarm, 'kind'>;
const raised = async (db: Db, after = 0): Promise<Raised[]> => (await raisedAlarms(db, [KIND], after)).map(({ terminal, detail }) => ({ terminal, detail }));

/** No detail carries a PIN digest, under any name. */
function noPin(list: readonly Raised[]): void {
  for (const a of list) {
    assert.ok(!('pin' in a.detail), JSON.stringify(a.detail));
    assert.doesNotMatch(JSON.stringify(a.detail), /[0-9a-f]{64}/, 'no digest in the detail');
  }
}

for (const database of DATABASES) {
  describe(`supervisor accounts a table journals reach the floor as alarms (${database})`, () => {
    const rig = alarmRig(database, [KIND]);
    /** Appends the payloads through the ledger's own code (as a second process of the kiosk user can), syncs, and gives the alarms it raised. */
    const journal = async (...payloads: ReturnType<typeof account>[]): Promise<{ seqs: number[]; alarms: Raised[] }> => {
      const r = await rig.journal(payloads.map((payload) => ({ type: 'service.account' as const, payload })));
      const alarms = r.alarms.map(({ terminal, detail }) => ({ terminal, detail }));
      noPin(alarms);
      return { seqs: r.seqs, alarms };
    };

    it('the adoption of three supervisors (and a technician) is one alarm naming them', async () => {
      const { seqs, alarms } = await journal(
        account('1001', 'supervisor', 'adopt', { by: 'first-run set-up' }),
        account('1002', 'supervisor', 'adopt', { by: 'first-run set-up' }),
        account('1003', 'technician', 'adopt', { by: 'first-run set-up' }),
        account('1004', 'supervisor', 'adopt', { by: 'first-run set-up' }),
      );
      assert.deepEqual(alarms, [{ terminal: 'T1', detail: { seq: seqs[0], action: 'adopt', role: 'supervisor', count: 3, staff: ['1001', '1002', '1004'] } }]);
    });

    it('a supervisor added is one alarm with who, by whom and the entry; a technician added is none', async () => {
      const sup = await journal(account('1005', 'supervisor', undefined, { name: 'Bruno' }));
      assert.deepEqual(sup.alarms, [
        { terminal: 'T1', detail: { seq: sup.seqs[0], staff: '1005', name: 'Bruno', action: 'add', role: 'supervisor', by: ANA } },
      ]);
      assert.deepEqual((await journal(account('1006', 'technician'))).alarms, [], 'a technician added');
      assert.deepEqual((await journal(account('1007', 'auditor'))).alarms, [], 'an auditor added');
    });

    it('raised to supervisor, enabled again, a new PIN: an alarm each; the other changes none', async () => {
      const raisedTo = await journal(account('1006', 'supervisor', 'role'));
      assert.deepEqual(
        raisedTo.alarms.map((a) => [a.detail.seq, a.detail.staff, a.detail.action, a.detail.role]),
        [[raisedTo.seqs[0], '1006', 'role', 'supervisor']],
      );
      assert.deepEqual((await journal(account('1007', 'technician', 'role'))).alarms, [], 'an auditor made a technician');
      assert.deepEqual((await journal(account('1002', 'supervisor', 'disable'))).alarms, [], 'a supervisor disabled');
      const enabled = await journal(account('1002', 'supervisor', 'enable'));
      assert.deepEqual(
        enabled.alarms.map((a) => [a.detail.staff, a.detail.action, a.detail.role]),
        [['1002', 'enable', 'supervisor']],
      );
      assert.deepEqual((await journal(account('1003', 'technician', 'disable'), account('1003', 'technician', 'enable'))).alarms, [], 'a technician');
      assert.deepEqual((await journal(account('1004', 'supervisor', 'unlock'))).alarms, [], 'a supervisor unlocked');
      const reset = await journal(account('1004', 'supervisor', 'reset-pin', { pin: digest(99) }));
      assert.deepEqual(
        reset.alarms.map((a) => [a.detail.staff, a.detail.action, a.detail.by]),
        [['1004', 'reset-pin', ANA]],
      );
      // Their own new PIN too: `by` is whatever the appender wrote, so it cannot exempt an entry.
      const own = await journal(account('1004', 'supervisor', 'reset-pin', { pin: digest(98), by: 'name 1004 (1004)' }));
      assert.equal(own.alarms.length, 1);
      assert.deepEqual((await journal(account('1003', 'technician', 'reset-pin', { pin: digest(97) }))).alarms, [], 'a technician’s new PIN');
      assert.deepEqual((await journal(account('1006', 'technician', 'role'))).alarms, [], 'a supervisor made a technician');
    });
  });
}

describe('supervisor accounts from a hostile table', () => {
  it(`50 supervisors added in one batch are ${FAULT_ALARMS_EACH} alarms and one for the rest`, async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const adds: LyingEntry[] = Array.from({ length: 50 }, (_, i) => ({ type: 'service.account', ts: TS, payload: account(String(5000 + i), 'supervisor') }));
      assert.equal((await liar.send(adds)).statusCode, 200);
      const list = await raised(kit.db);
      noPin(list);
      assert.equal(list.length, FAULT_ALARMS_EACH + 1);
      assert.deepEqual(
        list.slice(0, FAULT_ALARMS_EACH).map((a) => a.detail.staff),
        Array.from({ length: FAULT_ALARMS_EACH }, (_, i) => String(5000 + i)),
      );
      const rest = Array.from({ length: 50 - FAULT_ALARMS_EACH }, (_, i) => FAULT_ALARMS_EACH + 1 + i);
      assert.deepEqual(list.at(-1)?.detail, {
        seq: FAULT_ALARMS_EACH + 1,
        staff: String(5000 + FAULT_ALARMS_EACH),
        name: `name ${5000 + FAULT_ALARMS_EACH}`,
        action: 'add',
        role: 'supervisor',
        by: ANA,
        count: rest.length,
        seqs: rest,
      });
    } finally {
      await kit.close();
    }
  });

  it('an entry is read as the table folds it, across batches: a re-enable saying technician, an unlock carrying a PIN', async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const entry = (payload: ReturnType<typeof account>): LyingEntry => ({ type: 'service.account', ts: TS, payload });
      assert.equal((await liar.send([entry(account('2001', 'supervisor')), entry(account('2001', 'supervisor', 'disable'))])).statusCode, 200);
      const from = await lastAlarmId(kit.db);
      // The table keeps the role it had on an enable (host/service/account-journal.ts), whatever the entry says;
      // and an action on a staff number never journalled makes the account, with the entry's PIN.
      const sent = await liar.send([
        entry(account('2001', 'technician', 'enable')),
        entry(account('2002', 'supervisor', 'unlock', { pin: digest(7) })),
        entry(account('2003', 'supervisor', 'disable', { pin: digest(8) })),
      ]);
      assert.equal(sent.statusCode, 200);
      const list = await raised(kit.db, from);
      noPin(list);
      assert.deepEqual(
        list.map((a) => [a.terminal, a.detail.staff, a.detail.action, a.detail.role]),
        [
          ['T9', '2001', 'enable', 'supervisor'],
          ['T9', '2002', 'unlock', 'supervisor'],
        ],
      );
    } finally {
      await kit.close();
    }
  });

  it('4,000 supervisors adopted are one alarm, its staff numbers and strings bounded', async () => {
    const kit = await backofficeKit();
    try {
      const liar = await lyingTable(kit.app, kit.db, 'T9');
      const long = 'x'.repeat(5_000);
      const adopts: LyingEntry[] = Array.from({ length: 4_000 }, (_, i) => ({
        type: 'service.account',
        ts: TS,
        payload: { ...account(String(10_000 + i), 'supervisor', 'adopt'), ...(i === 0 ? { staff: long, name: long, by: long } : {}) },
      }));
      assert.equal((await liar.send(adopts)).statusCode, 200);
      const list = await raised(kit.db);
      noPin(list);
      assert.equal(list.length, 1);
      const d = list[0]?.detail ?? {};
      assert.equal(d.count, 4_000);
      assert.ok(Array.isArray(d.staff) && d.staff.length <= 100, `${String((d.staff as unknown[]).length)} staff numbers listed`);
      assert.ok(JSON.stringify(d).length < 4_000, `${JSON.stringify(d).length} characters`);
    } finally {
      await kit.close();
    }
  });
});
