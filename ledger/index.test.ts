import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { credentialsFile, openExistingLedger, openLedger, startLedgerSync } from './index.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'ledger-index-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 1).toString('base64');

describe('startLedgerSync (for npm start -- --upstream URL --terminal-id ID)', () => {
  it('reads the enrolment credentials from the data folder and checks they are this terminal’s', async () => {
    const dir = path.join(tmp, 'k');
    const ledger = openLedger(dir, 'T-7');
    assert.throws(() => startLedgerSync({ ledger, terminalId: 'T-7', dataDir: dir, upstream: 'http://127.0.0.1:9' }), /upstream -- enroll --terminal-id T-7/);
    writeFileSync(credentialsFile(dir), JSON.stringify({ terminalId: 'T-8', key: KEY }));
    assert.throws(() => startLedgerSync({ ledger, terminalId: 'T-7', dataDir: dir, upstream: 'http://127.0.0.1:9' }), /for terminal T-8/);
    writeFileSync(credentialsFile(dir), JSON.stringify({ terminalId: 'T-7', key: KEY }));
    assert.throws(() => startLedgerSync({ ledger, terminalId: 'T-7', dataDir: dir }), /--upstream/);
    assert.throws(() => startLedgerSync({ ledger, terminalId: 'T-9', dataDir: dir, upstream: 'http://127.0.0.1:9' }), /T-7/);
    writeFileSync(credentialsFile(dir), JSON.stringify({ terminalId: 'T-7', key: KEY, upstream: 'http://127.0.0.1:9' }));
    const sync = startLedgerSync({ ledger, terminalId: 'T-7', dataDir: dir, idleMs: 5 });
    assert.equal(sync.status().upstream, 'http://127.0.0.1:9');
    assert.equal(sync.status().lagEntries, 0);
    await sync.stop();
    ledger.close();
    const again = openExistingLedger(dir);
    assert.equal(again.terminalId, 'T-7');
    again.close();
    assert.throws(() => openExistingLedger(path.join(tmp, 'nothing')), /no ledger/);
  });
});

describe('openExistingLedger(dir, { readonly: true }) (the tools that only read)', () => {
  it('reads the ledger and refuses to append to it, the head mark left as it was', () => {
    const dir = path.join(tmp, 'ro');
    const writer = openLedger(dir, 'T-3');
    writer.append({ type: 'door.open', payload: { door: 'main' } });
    writer.close();
    const mark = readFileSync(path.join(dir, 'ledger.sqlite.head'));
    const reader = openExistingLedger(dir, { readonly: true });
    try {
      assert.equal(reader.headOf().seq, 1);
      assert.throws(() => reader.append({ type: 'door.close', payload: { door: 'main' } }), /opened read-only/);
      assert.equal(reader.headOf().seq, 1);
    } finally {
      reader.close();
    }
    assert.deepEqual(readFileSync(path.join(dir, 'ledger.sqlite.head')), mark);
  });
});

describe('openExistingLedger on a file that is no ledger', () => {
  it('says what is wrong with it: not a SQLite database, a database with no ledger in it, an empty file', () => {
    const cases: [string, Buffer, RegExp][] = [
      ['noise', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)), /is not a SQLite database/],
      ['empty', Buffer.alloc(0), /holds no ledger \(no meta table\)/],
    ];
    for (const [name, bytes, said] of cases) {
      const dir = path.join(tmp, `bad-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'ledger.sqlite'), bytes);
      assert.throws(() => openExistingLedger(dir, { readonly: true }), said, name);
    }
  });

  it('the writer’s open (the host’s start) names the file that is not a database', () => {
    const dir = path.join(tmp, 'bad-writer');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'ledger.sqlite'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)));
    assert.throws(() => openLedger(dir, 'T-1'), /bad-writer\/ledger\.sqlite is not a SQLite database/);
  });
});
