// `etg ledger verify` reads the data folder it is given, often a copy taken off a cabinet as
// evidence, or a folder beside a host of another build. Its ledger part opens read-only
// (tests/security/ledger-readonly-tools.test.ts); its service accounts part opened the accounts
// store as the host does: migrated to this build's version, and an old `service-accounts.json`
// not imported yet was imported into it and renamed. Each case here compares every file of the
// folder, and the store's version, before and after the accounts' check, and what it answers
// with what the host would find.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { verifyAccounts } from '../../cli/ledger/verify-accounts.js';
import { ledgerAccountJournal } from '../../host/service/account-journal.js';
import { ACCOUNTS_DB, AccountStore } from '../../host/service/accounts.js';
import { LEGACY_ACCOUNTS_FILE, openAccountsDb } from '../../host/service/accounts-db.js';
import { hashPin } from '../../host/service/pin-hash.js';
import { earlierBuildsStore, setRole } from '../../host/service/testing/tamper-accounts.js';
import { openExistingLedger, openLedger } from '../../ledger/index.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function folder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'accounts-verify-'));
  dirs.push(dir);
  openLedger(dir, 'T1').close();
  return dir;
}

const EMPTY = createHash('sha256').digest('hex');

/** Every file of the folder by its SHA-256 and modification time, but SQLite's shared-memory index (`-shm`). */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const st = statSync(file);
    if (st.isFile() && !name.endsWith('-shm')) files[name] = `${createHash('sha256').update(readFileSync(file)).digest('hex')} ${st.mtimeMs}`;
  }
  return files;
}

/**
 * Nothing changed: SQLite may leave an empty `-wal` beside a database it only read, if none was
 * there (docs/security.md); any other file new, gone or changed is a write.
 */
function assertUnchanged(dir: string, before: Record<string, string>): void {
  const after = snapshot(dir);
  for (const [name, seen] of Object.entries(after)) if (!(name in before) && name.endsWith('-wal') && seen.startsWith(`${EMPTY} `)) delete after[name];
  assert.deepEqual(after, before);
}

/** The store's `user_version` as its file's header holds it (offset 60, SQLite's file format §1.3), every connection closed. */
function accountsVersion(dir: string): number {
  return readFileSync(path.join(dir, ACCOUNTS_DB)).readUInt32BE(60);
}

/** As `etg ledger verify` runs it: the ledger opened read-only (cli/ledger/common.ts). */
function verify(dir: string): ReturnType<typeof verifyAccounts> {
  const ledger = openExistingLedger(dir, { readonly: true });
  try {
    return verifyAccounts(dir, ledger);
  } finally {
    ledger.close();
  }
}

/** The JSON file the accounts lived in before the store, with one account (Ana, supervisor). */
async function legacyFile() {
  return {
    version: 1,
    accounts: [
      {
        staff: '1001',
        name: 'Ana',
        role: 'supervisor',
        pin: await hashPin('482915', FAST),
        createdAt: '2025-01-01T00:00:00.000Z',
        createdBy: 'first-run set-up',
        failures: 0,
        lockedUntil: null,
      },
    ],
  };
}

describe("etg ledger verify's service accounts part writes nothing to the folder it reads", () => {
  it("an earlier build's store (version 1): read as the host would read it, and left at version 1", async () => {
    const dir = folder();
    earlierBuildsStore(dir, 1, { staff: '1001', name: 'Ana', role: 'supervisor', pin: await hashPin('482915', FAST) });
    const before = snapshot(dir);
    const report = verify(dir);
    assert.deepEqual(report, { checked: 'service accounts (1): not journalled yet (the host adopts them at its next start)', problems: [] });
    assert.equal(accountsVersion(dir), 1, 'the store is still at its version');
    assertUnchanged(dir, before);
  });

  for (const withStore of [true, false])
    it(`an old service-accounts.json not imported yet${withStore ? '' : ', and no store'}: counted as the host would import it, and left unimported where it is`, async () => {
      const dir = folder();
      if (withStore) openAccountsDb(dir).close();
      writeFileSync(path.join(dir, LEGACY_ACCOUNTS_FILE), JSON.stringify(await legacyFile()));
      const before = snapshot(dir);
      const report = verify(dir);
      assert.deepEqual(report, { checked: 'service accounts (1): not journalled yet (the host adopts them at its next start)', problems: [] });
      assert.ok(existsSync(path.join(dir, LEGACY_ACCOUNTS_FILE)), 'the old file is where it was');
      assert.ok(!existsSync(path.join(dir, `${LEGACY_ACCOUNTS_FILE}.imported`)), 'not renamed');
      assertUnchanged(dir, before);
    });

  it('a journalled store whose row was changed behind the journal: the difference is still reported, and the store left as it was', async () => {
    const dir = folder();
    const ledger = openLedger(dir, 'T1');
    const store = new AccountStore(dir, { scrypt: FAST, journal: ledgerAccountJournal(ledger) });
    try {
      await store.add({ name: 'Ana', role: 'supervisor', pin: '482915' }, null);
      await store.add({ name: 'Bo', role: 'technician', pin: '739164' }, { staff: '1001', pin: '482915' });
    } finally {
      store.close();
      ledger.close();
    }
    setRole(dir, '1002', 'supervisor');
    const before = snapshot(dir);
    const report = verify(dir);
    assert.equal(report.checked, 'service accounts (2) against the journal');
    assert.equal(report.problems.length, 1, JSON.stringify(report));
    assert.match(report.problems[0] ?? '', /1002.*role/);
    assertUnchanged(dir, before);
  });
});
