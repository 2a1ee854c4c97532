// Issue 50 item 4 on the command line: `etg service peer-file` makes this table's enrolment file for
// a peer with the host stopped (two people, their PINs on standard input, journalled), the peer's
// registry takes it once, and `etg service peer-withdraw` revokes the credential.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { PeerCredentials } from '../../host/peers/peer-credentials.js';
import { PeerOffer } from '../../host/peers/peer-offer.js';
import { PeerRegistry } from '../../host/peers/peer-registry.js';
import { AccountStore } from '../../host/service/accounts.js';
import { tableCertificate } from '../../host/stadium/table-certificate.js';
import { entriesOfTypes, openExistingLedger, openLedger, PAYLOADS, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'peer-file-cli-'));
const war = path.join(root, 'war-1');
const bj = path.join(root, 'bj-1');
const BJ = TableId.parse('bj-1');
const SUP = { name: 'Ana Lei', staff: '1001', pin: '482915', role: 'supervisor' } as const;
const TECH = { name: 'Bo Chan', staff: '1002', pin: '739164', role: 'technician' } as const;

function etg(stdin: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [path.resolve('bin/etg.js'), 'service', ...args], { encoding: 'utf8', input: stdin });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The folder's `peer.credential` entries. */
function entries(dir: string) {
  const ledger = openExistingLedger(dir);
  try {
    // Without the `none` the folder's first registry journals (it had no peer files to adopt).
    return [...entriesOfTypes(ledger, ['peer.credential'])]
      .map((e) => PAYLOADS['peer.credential'].parse((JSON.parse(e.body) as EntryBody).payload))
      .filter((p) => p.action !== 'none');
  } finally {
    ledger.close();
  }
}

describe('etg service peer-file and peer-withdraw (issue 50 item 4)', () => {
  before(async () => {
    for (const [dir, table] of [
      [war, 'war-1'],
      [bj, 'bj-1'],
    ] as const) {
      mkdirSync(dir);
      // As a first start leaves the folder: its ledger, its certificate, its accounts.
      openLedger(dir, table).close(); // under its table id, as a default start makes it (a table with peers syncs under it)
      await tableCertificate(dir, table, ['127.0.0.1']);
      const store = new AccountStore(dir);
      await store.add(SUP, null);
      await store.add(TECH, SUP);
      store.close();
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const out = path.join(root, 'war-1-for-bj-1.json');
  const pins = `${SUP.pin}\n${TECH.pin}\n`;

  it('refuses one person as both, and a wrong PIN, making nothing', () => {
    const same = etg(pins, 'peer-file', '--data-dir', war, '--for', 'bj-1', '--url', 'https://127.0.0.1:9443', '--by', SUP.staff, '--second', SUP.staff);
    assert.equal(same.code, 2, same.err);
    const wrong = etg(
      `${SUP.pin}\n000000\n`,
      'peer-file',
      '--data-dir',
      war,
      '--for',
      'bj-1',
      '--url',
      'https://127.0.0.1:9443',
      '--by',
      SUP.staff,
      '--second',
      TECH.staff,
    );
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /second person 1002 refused: bad-pin/);
    assert.deepEqual(entries(war), []);
  });

  it("makes war-1's file for bj-1 (owner-only, journalled with both names, the secret kept hashed); bj-1 takes it once", () => {
    const r = etg(
      pins,
      'peer-file',
      '--data-dir',
      war,
      '--for',
      'bj-1',
      '--url',
      'https://127.0.0.1:9443',
      '--by',
      SUP.staff,
      '--second',
      TECH.staff,
      '--out',
      out,
    );
    assert.equal(r.code, 0, r.err);
    assert.equal(statSync(out).mode & 0o777, 0o600);
    const text = readFileSync(out, 'utf8');
    const offer = PeerOffer.parse(JSON.parse(text));
    assert.deepEqual([offer.table, offer.for, offer.terminal, offer.url], ['war-1', 'bj-1', 'war-1', 'https://127.0.0.1:9443']);
    const issued = entries(war).at(-1);
    assert.deepEqual([issued?.table, issued?.action, issued?.credential], ['bj-1', 'issue', offer.credential]);
    assert.deepEqual(issued?.by, ['Ana Lei (1001)', 'Bo Chan (1002)']);
    assert.ok(PeerCredentials.inDataDir(war).verify(BJ, offer.secret), 'war-1 lets bj-1 in with it');
    assert.ok(!readFileSync(path.join(war, 'ledger.sqlite')).toString('latin1').includes(offer.secret), 'never journalled');
    // Never written over another file.
    const again = etg(
      pins,
      'peer-file',
      '--data-dir',
      war,
      '--for',
      'bj-1',
      '--url',
      'https://127.0.0.1:9443',
      '--by',
      SUP.staff,
      '--second',
      TECH.staff,
      '--out',
      out,
    );
    assert.equal(again.code, 1);
    assert.match(again.err, /EEXIST/);
    assert.equal(entries(war).length, 1, 'refused before any credential is made: the first file still works');
    assert.ok(PeerCredentials.inDataDir(war).verify(BJ, offer.secret));
    // A refused pair of PINs leaves no empty file behind.
    const other = path.join(root, 'refused.json');
    assert.equal(
      etg(
        `${SUP.pin}\n000000\n`,
        'peer-file',
        '--data-dir',
        war,
        '--for',
        'bj-1',
        '--url',
        'https://127.0.0.1:9443',
        '--by',
        SUP.staff,
        '--second',
        TECH.staff,
        '--out',
        other,
      ).code,
      1,
    );
    assert.equal(existsSync(other), false);

    // bj-1's registry (its service screen's peer-add) takes it, once.
    const ledger = openExistingLedger(bj);
    try {
      const registry = new PeerRegistry({ dataDir: bj, self: 'bj-1', ledger, log: pino({ level: 'silent' }), fault: () => assert.fail('no fault') });
      const added = registry.add(text, [], ['Ana Lei (1001)', 'Bo Chan (1002)']);
      assert.ok(added.ok, JSON.stringify(added));
      const replay = registry.add(text, [], ['Ana Lei (1001)', 'Bo Chan (1002)']);
      assert.equal(replay.ok ? null : replay.refusal, 'replayed');
    } finally {
      ledger.close();
    }
  });

  it("peer-withdraw revokes bj-1's credential to dial war-1, journalled", () => {
    const r = etg(pins, 'peer-withdraw', '--data-dir', war, '--for', 'bj-1', '--by', SUP.staff, '--second', TECH.staff);
    assert.equal(r.code, 0, r.err);
    assert.equal(PeerCredentials.inDataDir(war).secretSha256(BJ), null);
    assert.deepEqual(
      entries(war).map((e) => e.action),
      ['issue', 'withdraw'],
    );
    const none = etg(pins, 'peer-withdraw', '--data-dir', war, '--for', 'bj-1', '--by', SUP.staff, '--second', TECH.staff);
    assert.equal(none.code, 1);
    assert.match(none.err, /holds no credential/);
  });
});
