import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { StoreOpenError, storeVersion } from '../../ledger/index.js';
import { ACCOUNTS_DB, ACCOUNTS_LATEST, copyAccountsDb, LEGACY_ACCOUNTS_FILE, openAccountsDb } from './accounts-db.js';
import { AccountError, AccountStore } from './accounts.js';
import { hashPin } from './pin-hash.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const folder = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'accounts-db-'));
  dirs.push(d);
  return d;
};
const policy = { maxFailures: 3, lockMs: 60_000 };

/** An accounts file as the JSON store wrote it (version 1), with a pending action and a lock. */
async function legacyFile(dir: string): Promise<string> {
  const pin = await hashPin('482915', FAST);
  const text = JSON.stringify(
    {
      version: 1,
      accounts: [
        {
          staff: '1001',
          name: 'Ana',
          role: 'supervisor',
          pin,
          createdAt: '2025-01-01T00:00:00.000Z',
          createdBy: 'first-run set-up',
          failures: 0,
          lockedUntil: null,
          journalledSeq: 4,
        },
        {
          staff: '1002',
          name: 'Bo',
          role: 'technician',
          pin: await hashPin('739164', FAST),
          createdAt: '2025-01-02T00:00:00.000Z',
          createdBy: 'Ana (1001)',
          failures: 2,
          lockedUntil: null,
          disabled: true,
          unjournalled: [{ action: 'disable', by: 'Ana (1001)', at: '2025-01-03T00:00:00.000Z' }],
        },
      ],
    },
    null,
    1,
  );
  writeFileSync(path.join(dir, LEGACY_ACCOUNTS_FILE), text, { mode: 0o600 });
  return text;
}

describe('service accounts database', () => {
  it('migration 1 creates the accounts and their pending actions, with constraints that refuse a bad row', () => {
    const db = openAccountsDb(folder(), 0);
    try {
      assert.equal(storeVersion(db), 0);
      db.close();
    } catch (e) {
      db.close();
      throw e;
    }
    const dir = folder();
    const v1 = openAccountsDb(dir, 1);
    try {
      assert.equal(storeVersion(v1), 1);
      assert.equal(v1.pragma('journal_mode', { simple: true }), 'wal');
      const tables = v1.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
      assert.deepEqual(tables, ['accounts', 'meta', 'unjournalled']);
      const row = (over: Record<string, unknown>) =>
        v1
          .prepare(
            `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
             VALUES (@staff, @name, 'technician', '{}', 'x', 'y', @failures, NULL, NULL, @disabled)`,
          )
          .run({ staff: '1', name: 'n', failures: 0, disabled: 0, ...over });
      assert.throws(() => row({ failures: -1 }), /CHECK/);
      assert.throws(() => row({ disabled: 2 }), /CHECK/);
      row({});
      assert.throws(() => row({ staff: '2' }), /UNIQUE/, 'names are unique');
      assert.throws(() => v1.prepare("INSERT INTO unjournalled (staff, action, by, at) VALUES ('1', 'delete', 'b', 'a')").run(), /CHECK/);
      assert.throws(() => v1.prepare("INSERT INTO unjournalled (staff, action, by, at) VALUES ('9', 'unlock', 'b', 'a')").run(), /FOREIGN KEY/);
      v1.pragma(`user_version = ${ACCOUNTS_LATEST + 1}`);
    } finally {
      v1.close();
    }
    assert.throws(() => openAccountsDb(dir), StoreOpenError, 'a database from newer software is refused');
  });

  it('imports the old JSON file once, keeps it renamed, and keeps every field (locks, pending actions, journalled seq)', async () => {
    const dir = folder();
    const text = await legacyFile(dir);
    const s = new AccountStore(dir, { policy, now: () => 1_000_000, scrypt: FAST });
    try {
      assert.equal(existsSync(path.join(dir, LEGACY_ACCOUNTS_FILE)), false);
      assert.equal(readFileSync(path.join(dir, `${LEGACY_ACCOUNTS_FILE}.imported`), 'utf8'), text, 'the old file is kept, renamed, unchanged');
      const legacy = (JSON.parse(text) as { accounts: unknown[] }).accounts;
      assert.deepEqual(s.list(), legacy);
      assert.equal((await s.check('1001', '482915')).ok, true, 'the imported PIN hash opens');
      assert.deepEqual(await s.check('1002', '739164').then((r) => !r.ok && r.reason), 'disabled');
    } finally {
      s.close();
    }
    // Opened again: nothing imported twice; a JSON file that appears later is not read.
    writeFileSync(path.join(dir, LEGACY_ACCOUNTS_FILE), JSON.stringify({ version: 1, accounts: [] }));
    const again = new AccountStore(dir, { policy, now: () => 1_000_000, scrypt: FAST });
    try {
      assert.equal(again.list().length, 2);
      assert.ok(existsSync(path.join(dir, LEGACY_ACCOUNTS_FILE)), 'a different file after the import is left alone');
    } finally {
      again.close();
    }
  });

  it('finishes an import cut between its commit and the rename without importing twice', async () => {
    const dir = folder();
    const text = await legacyFile(dir);
    new AccountStore(dir, { policy, now: () => 1_000_000, scrypt: FAST }).close();
    // The crash: the database holds the import, the file is back under its old name.
    writeFileSync(path.join(dir, LEGACY_ACCOUNTS_FILE), text);
    const s = new AccountStore(dir, { policy, now: () => 1_000_000, scrypt: FAST });
    try {
      assert.equal(s.list().length, 2);
      assert.equal(existsSync(path.join(dir, LEGACY_ACCOUNTS_FILE)), false, 'renamed this time');
    } finally {
      s.close();
    }
  });

  it('refuses a damaged JSON file with a clear error and imports nothing', () => {
    const dir = folder();
    writeFileSync(path.join(dir, LEGACY_ACCOUNTS_FILE), '{"version":1,"accounts":[{"staff":"1001"}]}');
    assert.throws(
      () => new AccountStore(dir, { policy, now: () => 0, scrypt: FAST }),
      (e: unknown) => e instanceof AccountError && /cannot be imported/.test(e.message),
    );
    assert.ok(existsSync(path.join(dir, LEGACY_ACCOUNTS_FILE)), 'the file stays where it was');
    const db = openAccountsDb(dir);
    try {
      assert.equal(db.prepare('SELECT COUNT(*) FROM accounts').pluck().get(), 0);
      assert.equal(db.prepare('SELECT COUNT(*) FROM meta').pluck().get(), 0);
    } finally {
      db.close();
    }
  });

  it('two connections (the host and a command) checking one account at once: one check at a time, each attempt counted before its hash, the lock after exactly the sixth', async () => {
    const dir = folder();
    const host = new AccountStore(dir, { policy: { maxFailures: 6, lockMs: 60_000 }, now: () => 1_000_000, scrypt: FAST });
    const tool = new AccountStore(dir, { policy: { maxFailures: 6, lockMs: 60_000 }, now: () => 1_000_000, scrypt: FAST });
    try {
      await host.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
      // Sent together: a check of the other connection still running is refused as busy, never run beside it.
      const first = await Promise.all([1, 2, 3, 4].map((i) => (i % 2 ? host : tool).check('1001', `00000${i}`)));
      const checked = first.filter((r) => !r.ok && r.reason === 'bad-pin').length;
      assert.ok(checked >= 1 && first.every((r) => !r.ok && (r.reason === 'bad-pin' || r.reason === 'busy')), JSON.stringify(first));
      assert.equal(host.find('1001')?.failures, checked, 'every check that ran was counted, none twice');
      let tries = checked;
      let last: Awaited<ReturnType<AccountStore['check']>> | null = null;
      for (let i = 0; tries < 6; i++) {
        last = await (i % 2 ? host : tool).check('1001', `10000${i}`);
        tries++;
      }
      assert.ok(last && !last.ok && last.reason === 'locked', 'the sixth wrong PIN, whichever connection counted it, locks');
      assert.ok(tool.find('1001')?.lockedUntil);
      assert.deepEqual(await host.check('1001', '482915').then((r) => !r.ok && r.reason), 'locked', 'the right PIN does not open it');
    } finally {
      host.close();
      tool.close();
    }
  });

  it('migration 2 adds the check reservation and the proposals table, keeping every account', async () => {
    const dir = folder();
    const v1 = openAccountsDb(dir, 1);
    try {
      v1.prepare(
        `INSERT INTO accounts (staff, name, role, pin, created_at, created_by, failures, locked_until, journalled_seq, disabled)
         VALUES ('1001', 'Ana', 'supervisor', ?, '2025-01-01T00:00:00.000Z', 'first-run set-up', 2, NULL, 4, 0)`,
      ).run(JSON.stringify(await hashPin('482915', FAST)));
    } finally {
      v1.close();
    }
    const v2 = openAccountsDb(dir);
    try {
      assert.equal(storeVersion(v2), 2);
      assert.deepEqual(v2.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all(), [
        'accounts',
        'meta',
        'proposals',
        'unjournalled',
      ]);
      assert.deepEqual(v2.prepare('SELECT staff, failures, journalled_seq, checking_until FROM accounts').get(), {
        staff: '1001',
        failures: 2,
        journalled_seq: 4,
        checking_until: null,
      });
      assert.deepEqual(v2.prepare("SELECT name FROM pragma_table_info('proposals') ORDER BY cid").pluck().all(), [
        'id',
        'staff',
        'change',
        'entry',
        'after_seq',
        'proposed_at',
      ]);
    } finally {
      v2.close();
    }
    const s = new AccountStore(dir, { policy, now: () => 1_000_000, scrypt: FAST });
    try {
      assert.equal(s.find('1001')?.failures, 2);
      assert.equal((await s.check('1001', '482915')).ok, true, 'the migrated row opens with its PIN');
    } finally {
      s.close();
    }
  });

  it('a store as its migrations make it opens at each of its versions, and after an ANALYZE (schema check: no false refusal)', () => {
    for (let version = 0; version <= ACCOUNTS_LATEST; version++) {
      const dir = folder();
      openAccountsDb(dir, version).close();
      const again = openAccountsDb(dir, version);
      try {
        assert.equal(storeVersion(again), version, 'reopened at its version');
        again.exec('ANALYZE');
      } finally {
        again.close();
      }
      // The statistics ANALYZE made (none on an empty file) pass at the file's version and after the migrations.
      openAccountsDb(dir, version).close();
      const latest = openAccountsDb(dir);
      try {
        assert.equal(storeVersion(latest), ACCOUNTS_LATEST);
        latest.exec('ANALYZE');
        if (version > 0) assert.ok(latest.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get(), 'the statistics table is there');
      } finally {
        latest.close();
      }
      openAccountsDb(dir).close();
    }
  });

  it("refuses, at the file's version and before migrating it, an object its migrations do not make, naming each difference", () => {
    const dir = folder();
    const v1 = openAccountsDb(dir, 1);
    try {
      // A table migration 2 would create, planted early; and an index dropped.
      v1.exec('CREATE TABLE proposals (x); DROP INDEX unjournalled_staff');
    } finally {
      v1.close();
    }
    assert.throws(
      () => openAccountsDb(dir),
      (e: Error) => {
        assert.ok(e instanceof StoreOpenError, String(e));
        assert.match(e.message, /service-accounts\.sqlite \(version 1\)/);
        assert.match(e.message, /schema: table proposals is not one the migrations create/);
        assert.match(e.message, /schema: index unjournalled_staff is missing \(the migrations create it\)/);
        return true;
      },
    );
  });

  it('a copy in memory (etg ledger verify) holds what is still in the -wal of a store open beside it, is checked as the file, and changes nothing on disk', () => {
    const dir = folder();
    const host = openAccountsDb(dir);
    try {
      host.pragma('wal_autocheckpoint = 0'); // the host's change stays in the -wal, as between checkpoints
      host.prepare("INSERT INTO meta (key, value) VALUES ('seen', 'in the wal')").run();
      const copy = copyAccountsDb(dir);
      try {
        assert.equal(copy.prepare("SELECT value FROM meta WHERE key = 'seen'").pluck().get(), 'in the wal');
        copy.prepare("UPDATE meta SET value = 'changed in memory' WHERE key = 'seen'").run();
      } finally {
        copy.close();
      }
      assert.equal(host.prepare("SELECT value FROM meta WHERE key = 'seen'").pluck().get(), 'in the wal');
      host.exec('CREATE TABLE planted (x)');
    } finally {
      host.close();
    }
    assert.throws(
      () => copyAccountsDb(dir),
      (e: Error) =>
        e instanceof StoreOpenError && e.message.includes(`${path.join(dir, ACCOUNTS_DB)} (version ${ACCOUNTS_LATEST})`) && /table planted/.test(e.message),
    );
  });

  it('a file that is not SQLite is refused naming it (the start said only "file is not a database")', () => {
    const dir = folder();
    writeFileSync(path.join(dir, ACCOUNTS_DB), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)));
    assert.throws(
      () => openAccountsDb(dir),
      (e: Error) => e instanceof StoreOpenError && e.message.startsWith(`${path.join(dir, ACCOUNTS_DB)} is not a SQLite database`),
    );
  });
});
