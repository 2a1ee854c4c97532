// A trigger planted in service-accounts.sqlite with the kiosk user's file access, the host stopped
// (found by a read-only review): `AFTER UPDATE OF failures ON accounts … SET failures = 0,
// locked_until = NULL` turned the lockout off for good. The account audit compares each row with
// the journal (pin, role, name, disabled, lock), never the schema; 40 wrong PINs were 40
// `bad-pin`, then the right PIN signed in, and no lock was ever journalled. A `RAISE(ABORT)` on
// every update made every PIN check throw (service mode closed, Unlock included). Each variant is
// played through the path the host's start takes (AccountStore, then adopt and audit), through
// `etg ledger verify`'s accounts part, and once through the host's start itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { verifyAccounts } from '../../cli/ledger/verify-accounts.js';
import { ledgerAccountJournal } from '../../host/service/account-journal.js';
import { ACCOUNTS_DB, AccountStore } from '../../host/service/accounts.js';
import { plantSchema, plantSchemaRow } from '../../host/service/testing/tamper-accounts.js';
import { openLedger, StoreOpenError, type Ledger } from '../../ledger/index.js';
import { folderWithAccounts, removeFolder, startServiceHost } from './service-kit.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const policy = { maxFailures: 5, lockMs: 15 * 60_000 };
const ANA = { name: 'Ana', role: 'supervisor', pin: '482915' } as const;
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The reviewer's trigger, under any name: every failure counted is set back to none. */
const floor = (name: string) =>
  `CREATE TRIGGER ${name} AFTER UPDATE OF failures ON accounts WHEN NEW.failures >= 1
   BEGIN UPDATE accounts SET failures = 0, locked_until = NULL WHERE staff = NEW.staff; END`;

/** A data folder with its ledger and two journalled accounts (Ana 1001, supervisor; Bo 1002), everything closed. */
async function folder(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-schema-'));
  dirs.push(dir);
  const ledger = openLedger(dir, 'T1');
  const store = new AccountStore(dir, { scrypt: FAST, journal: ledgerAccountJournal(ledger), policy });
  try {
    await store.add(ANA, null);
    await store.add({ name: 'Bo', role: 'technician', pin: '739164' }, { staff: '1001', pin: ANA.pin });
  } finally {
    store.close();
    ledger.close();
  }
  return dir;
}

/** The store as the host's start opens it (host/start/service.ts), adopted and audited (ServiceHost). */
function openAsTheStart(dir: string, ledger: Ledger): AccountStore {
  const store = new AccountStore(dir, { scrypt: FAST, journal: ledgerAccountJournal(ledger), policy });
  store.adopt();
  assert.deepEqual(store.audit(), [], 'the audit at start');
  return store;
}

/** 40 wrong PINs for Ana, then her right one: what each was answered. */
async function guess(store: AccountStore): Promise<{ wrong: Record<string, number>; right: string }> {
  const wrong: Record<string, number> = {};
  for (let i = 0; i < 40; i++) {
    let k: string;
    try {
      const r = await store.check('1001', String(100_000 + i));
      k = r.ok ? 'ok' : r.reason;
    } catch (e) {
      k = `threw: ${e instanceof Error ? e.message : String(e)}`;
    }
    wrong[k] = (wrong[k] ?? 0) + 1;
  }
  const right = await store.check('1001', ANA.pin).then(
    (r) => (r.ok ? 'signed in' : r.reason),
    (e: unknown) => `threw: ${e instanceof Error ? e.message : String(e)}`,
  );
  return { wrong, right };
}

const attacks: { what: string; named: string; plant(dir: string): void }[] = [
  {
    what: "the reviewer's trigger setting the failures back to none",
    named: 'trigger accounts_failures_floor',
    plant: (dir) => plantSchema(dir, floor('accounts_failures_floor')),
  },
  {
    // A name any client may CREATE; a check that skips names LIKE 'sqlite_%' skips it (LIKE reads _ as any character).
    what: 'the same trigger named sqliteXfloor',
    named: 'trigger sqliteXfloor',
    plant: (dir) => plantSchema(dir, floor('sqliteXfloor')),
  },
  {
    what: 'the same trigger written into sqlite_schema as sqlite_floor (writable_schema)',
    named: 'trigger sqlite_floor',
    plant: (dir) => plantSchemaRow(dir, { type: 'trigger', name: 'sqlite_floor', table: 'accounts', sql: floor('sqlite_floor') }),
  },
  {
    what: 'a trigger that makes every PIN check throw',
    named: 'trigger accounts_jam',
    plant: (dir) => plantSchema(dir, "CREATE TRIGGER accounts_jam BEFORE UPDATE ON accounts BEGIN SELECT RAISE(ABORT, 'jammed'); END"),
  },
];

describe('the accounts store schema against its migrations, at open', () => {
  it('control: the store as its migrations made it opens, 40 wrong PINs lock the account, the right PIN is refused as locked', async () => {
    const dir = await folder();
    const ledger = openLedger(dir, 'T1');
    try {
      const store = openAsTheStart(dir, ledger);
      try {
        assert.deepEqual(await guess(store), { wrong: { 'bad-pin': 4, locked: 36 }, right: 'locked' });
      } finally {
        store.close();
      }
      assert.deepEqual(verifyAccounts(dir, ledger), { checked: 'service accounts (2) against the journal', problems: [] });
    } finally {
      ledger.close();
    }
  });

  for (const attack of attacks) {
    it(`${attack.what}: refused at open, naming it; etg ledger verify's accounts part reports it`, async () => {
      const dir = await folder();
      attack.plant(dir);
      const ledger = openLedger(dir, 'T1');
      try {
        let refused: unknown = null;
        let store: AccountStore | null = null;
        try {
          store = openAsTheStart(dir, ledger);
        } catch (e) {
          refused = e;
        }
        if (store) {
          // What the start let through (the "before"): said in the failure.
          const seen = await guess(store);
          store.close();
          assert.fail(`the store opened with the planted ${attack.named}; 40 wrong PINs then the right one: ${JSON.stringify(seen)}`);
        }
        assert.ok(refused instanceof StoreOpenError, String(refused));
        assert.match(refused.message, new RegExp(`schema: ${attack.named} is not one the migrations create`));
        assert.match(refused.message, new RegExp(ACCOUNTS_DB.replace('.', '\\.')), 'the file is named');
        const report = verifyAccounts(dir, ledger);
        assert.equal(report.problems.length, 1, JSON.stringify(report));
        assert.match(report.problems[0] ?? '', new RegExp(`service accounts: .*schema: ${attack.named} is not one the migrations create`));
      } finally {
        ledger.close();
      }
    });
  }

  it("the host's start refuses the planted store, naming the trigger, and leaves the folder as it was; etg ledger verify exits 1 naming it", async () => {
    const dir = await folderWithAccounts();
    try {
      // A first start journals the accounts (adopts them); then the host is stopped and the trigger planted.
      await (await startServiceHost(dir)).close();
      plantSchema(dir, floor('accounts_failures_floor'));
      const file = path.join(dir, ACCOUNTS_DB);
      const before = createHash('sha256').update(readFileSync(file)).digest('hex');
      const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const timersBefore = timeouts();
      for (let start = 0; start < 2; start++) {
        // Twice: a refused start leaves nothing held (the folder's lock, the ledger), and refuses again the same.
        const started = await startServiceHost(dir).then(
          async (running) => {
            await running.close();
            return null;
          },
          (e: unknown) => e,
        );
        assert.ok(started instanceof Error, 'the host started with the planted trigger');
        assert.match(started.message, /service-accounts\.sqlite .*schema: trigger accounts_failures_floor is not one the migrations create/);
      }
      // Nothing the refused starts began keeps running (the disk-space timer kept the process of a refused `etg start` alive).
      assert.equal(timeouts(), timersBefore, 'no timer left by the refused starts');
      assert.equal(
        createHash('sha256').update(readFileSync(file)).digest('hex'),
        before,
        'the accounts file is left as found (nothing migrated, nothing written)',
      );
      const verify = spawnSync(process.execPath, [path.resolve('bin/etg.js'), 'ledger', 'verify', '--data-dir', dir], { encoding: 'utf8' });
      assert.equal(verify.status, 1, verify.stdout + verify.stderr);
      assert.match(verify.stdout, /MISMATCH: service accounts: .*schema: trigger accounts_failures_floor is not one the migrations create/);
    } finally {
      removeFolder(dir);
    }
  });
});

// The same triggers planted while the host runs (its store open, the schema checked at its open
// only): by the kiosk user's second process, between two sign-ins.
describe('the accounts store schema against its migrations, at every PIN check', () => {
  for (const attack of attacks) {
    it(`${attack.what}, planted while the store is open: the next check is refused as integrity, naming it, before its attempt is counted`, async () => {
      const dir = await folder();
      const ledger = openLedger(dir, 'T1');
      try {
        const store = openAsTheStart(dir, ledger);
        try {
          attack.plant(dir);
          const seen = await guess(store);
          assert.deepEqual(seen, { wrong: { integrity: 40 }, right: 'integrity' });
          assert.equal(store.find('1001')?.failures, 0, 'no attempt counted');
          const r = await store.check('1001', ANA.pin);
          assert.ok(!r.ok && r.reason === 'integrity', JSON.stringify(r));
          assert.match(r.problems.join('; '), new RegExp(`schema: ${attack.named} is not one the migrations create`));
        } finally {
          store.close();
        }
      } finally {
        ledger.close();
      }
    });
  }
});
