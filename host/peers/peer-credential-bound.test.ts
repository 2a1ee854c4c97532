// The credentials file holds at most 64 peer tables (its schema, `MAX_PEER_CREDENTIALS`), but two
// people's `issue` for a 65th table journalled it and wrote a file of 65 that nothing could read
// again: the next issue or enrolment threw, and the next start refused every peer (the file does
// not parse: peer-integrity), transfers stopped at the table. A file for one more table is now
// refused before anything is journalled, with a reason the screen words; a corrupt file, too.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes, openLedger, type Ledger } from '../../ledger/index.js';
import { tableCertificate } from '../stadium/table-certificate.js';
import { MAX_PEER_CREDENTIALS, PEER_CREDENTIALS_FILE, PeerCredentials } from './peer-credentials.js';
import { PeerRegistry } from './peer-registry.js';

describe('peer registry: the credentials file kept readable', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-credential-bound-'));
  let ledger: Ledger;
  before(async () => {
    await tableCertificate(dir, 'bj-1', ['10.0.0.1']);
    ledger = openLedger(dir, 'bj-1');
  });
  after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const registry = () =>
    new PeerRegistry({
      dataDir: dir,
      self: 'bj-1',
      ledger,
      log: pino({ level: 'silent' }),
      fault: () => {},
      url: 'https://10.0.0.1:8443',
      now: () => Date.parse('2026-12-04T04:00:00Z'),
    });
  const by = ['Ana Lei', 'Bo Chan'] as const;
  const count = () => [...entriesOfTypes(ledger, ['peer.credential'])].length;

  it(`issues files for ${MAX_PEER_CREDENTIALS} tables, refuses one more before journalling, and still issues anew for a table it holds`, () => {
    const r = registry();
    for (let i = 1; i <= MAX_PEER_CREDENTIALS; i++) assert.equal(r.issue(`war-${i}`, by).ok, true, `war-${i}`);
    const before = count();
    const over = r.issue(`war-${MAX_PEER_CREDENTIALS + 1}`, by);
    assert.equal(over.ok, false);
    assert.equal(over.ok ? null : over.reason, 'too-many-credentials');
    assert.equal(count(), before, 'nothing journalled');
    const held = PeerCredentials.inDataDir(dir);
    assert.equal(held.tables().length, MAX_PEER_CREDENTIALS, 'the file still reads, with every credential');
    const again = r.issue('war-5', by);
    assert.equal(again.ok, true, 'a table already held is issued a new file (its old secret stops working)');
    assert.equal(PeerCredentials.inDataDir(dir).tables().length, MAX_PEER_CREDENTIALS);
  });

  it('refuses to issue, withdraw or remove while the credentials file cannot be read, journalling nothing (issue journalled it, the other two threw)', () => {
    const file = path.join(dir, PEER_CREDENTIALS_FILE);
    const kept = readFileSync(file, 'utf8');
    writeFileSync(file, '{ not json');
    try {
      const before = count();
      const r = registry().issue('war-1', by);
      assert.equal(r.ok ? null : r.reason, 'unreadable');
      // Withdrawing or removing a peer read the file too, and threw its parse error to the screen.
      const w = registry().withdraw('war-1', by);
      assert.equal(w.ok ? null : w.reason, 'unreadable');
      const v = registry().revoke('war-1', by);
      assert.equal(v.ok ? null : v.reason, 'unreadable');
      assert.equal(count(), before);
    } finally {
      writeFileSync(file, kept);
    }
  });
});
