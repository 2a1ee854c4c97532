// Issue 53 item 4: each refusal of the three credential actions (issue, withdraw, revoke) carries a
// reason the screen words (`service.peers.refused.*`, four catalogues), and a refusal journals and
// writes nothing; an accepted one journals before the files change, through the one private step.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes, openLedger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { PeerCredentials } from './peer-credentials.js';
import { CREDENTIAL_REFUSALS, PeerRegistry, type CredentialRefusal } from './peer-registry.js';

const catalogues = ['zh-Hant', 'zh-Hans', 'pt', 'en'].map((tag) => ({
  tag,
  refused: (JSON.parse(readFileSync(path.join('locales/catalogues', `${tag}.json`), 'utf8')) as { service: { peers: { refused?: Record<string, string> } } })
    .service.peers.refused,
}));

describe('peer registry: the credential actions refuse with a reason the screen words (issue 53)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-registry-'));
  const ledger = openLedger(dir, 'BJ-1');
  after(() => {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const registry = (url: string | null) =>
    new PeerRegistry({
      dataDir: dir,
      self: 'bj-1',
      ledger,
      log: pino({ level: 'silent' }),
      fault: () => {},
      url,
      now: () => Date.parse('2026-11-27T04:00:00Z'),
    });
  const by = ['Ana Lei', 'Bo Chan'] as const;
  const count = () => [...entriesOfTypes(ledger, ['peer.credential'])].length;

  it('every reason is worded in the four catalogues, naming the table where it is named', () => {
    for (const { tag, refused } of catalogues)
      for (const reason of CREDENTIAL_REFUSALS) {
        const words = refused?.[reason];
        assert.ok(typeof words === 'string' && words.length > 0, `${tag}: service.peers.refused.${reason}`);
        if (reason === 'not-a-table' || reason === 'no-credential' || reason === 'not-a-peer' || reason === 'transfers-open')
          assert.match(words, /\{\{table\}\}/, `${tag}: ${reason}`);
      }
  });

  it('refuses each case with its reason, journalling and writing nothing', () => {
    // The folder's first registry journals once that it has no peers (`none`), before any action.
    registry(null);
    const before = count();
    const cases: [string, () => { ok: boolean; reason?: CredentialRefusal }, CredentialRefusal][] = [
      ['issue for a bad id', () => registry('https://10.0.0.1:8443').issue('not a table!', by), 'not-a-table'],
      ['withdraw a bad id', () => registry(null).withdraw('', by), 'not-a-table'],
      ['revoke a bad id', () => registry(null).revoke('BJ 1', by), 'not-a-table'],
      ['issue for itself', () => registry('https://10.0.0.1:8443').issue('bj-1', by), 'self'],
      ['issue with no LAN address', () => registry(null).issue('war-1', by), 'no-address'],
      ['issue with no certificate yet', () => registry('https://10.0.0.1:8443').issue('war-1', by), 'no-certificate'],
      ['withdraw a credential never made', () => registry(null).withdraw('war-1', by), 'no-credential'],
      ['revoke a table that is no peer', () => registry(null).revoke('war-1', by), 'not-a-peer'],
    ];
    for (const [what, act, reason] of cases) {
      const r = act();
      assert.equal(r.ok, false, what);
      assert.equal(r.reason, reason, what);
    }
    writeFileSync(path.join(dir, 'peers.json'), '{ not json');
    for (const act of [() => registry(null).withdraw('war-1', by), () => registry(null).revoke('war-1', by)]) assert.equal(reasonOf(act()), 'unreadable');
    rmSync(path.join(dir, 'peers.json'));
    assert.equal(count(), before, 'nothing journalled');
  });

  it('withdraws a credential held: journalled, then the credentials file changed, the listeners told', () => {
    PeerCredentials.inDataDir(dir).install(TableId.parse('war-1'), 'a-secret-of-32-characters-or-more-000');
    const r = registry(null);
    const told: string[] = [];
    r.onDialIn((t) => told.push(t));
    const before = count();
    assert.deepEqual(r.withdraw('war-1', by), { ok: true, table: 'war-1' });
    assert.equal(count(), before + 1);
    assert.equal(PeerCredentials.inDataDir(dir).secretSha256(TableId.parse('war-1')), null);
    assert.deepEqual(told, ['war-1']);
    assert.equal(reasonOf(r.withdraw('war-1', by)), 'no-credential', 'a second time: none held');
  });

  it('refuses to add a peer while the table syncs under a terminal id other than its table id (its next start would refuse the file)', () => {
    const before = count();
    const r = registry(null).add('any enrolment file', [201], by);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.detail, /terminal id "BJ-1", not its table id "bj-1"/);
    assert.equal(r.ok ? null : r.refusal, 'other-terminal-id', 'worded by the screen (service.peers.fileRefused)');
    assert.equal(count(), before, 'nothing journalled');
  });

  it('refuses to remove a peer while a transfer to it is open (its credit in flight would be stranded), then removes it once none is', () => {
    PeerCredentials.inDataDir(dir).install(TableId.parse('war-1'), 'a-secret-of-32-characters-or-more-001');
    const r = registry(null);
    let open = 2;
    r.attachOpenTransfers((t) => (t === 'war-1' ? open : 0));
    r.attachLinks(() => ({ out: true, in: true }));
    const before = count();
    assert.equal(reasonOf(r.revoke('war-1', by)), 'transfers-open');
    assert.equal(count(), before, 'nothing journalled');
    assert.notEqual(PeerCredentials.inDataDir(dir).secretSha256(TableId.parse('war-1')), null, 'its credential kept');
    open = 0;
    assert.deepEqual(r.revoke('war-1', by), { ok: true, table: 'war-1' });
  });

  it('removes a peer that cannot answer (its link down) though transfers to it are open: they stay in flight for a person', () => {
    PeerCredentials.inDataDir(dir).install(TableId.parse('war-1'), 'a-secret-of-32-characters-or-more-002');
    const r = registry(null);
    r.attachOpenTransfers(() => 3);
    r.attachLinks(() => ({ out: false, in: false }));
    assert.deepEqual(r.revoke('war-1', by), { ok: true, table: 'war-1' });
  });
});

/** The reason of a refusal (none for a change made). */
function reasonOf(r: { ok: boolean; reason?: CredentialRefusal }): CredentialRefusal | undefined {
  return r.reason;
}
