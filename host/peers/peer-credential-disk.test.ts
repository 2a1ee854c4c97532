// A peer's withdrawal or removal by two people whose file write fails after its `peer.credential`
// entry was journalled (a full disk, a damaged folder; here the temporary file's path is a folder,
// so the write fails with EISDIR). Before: the write's exception left the step at once, so the
// guard's cached check was never dropped and the running transfers were never told: the withdrawn
// peer's link in stayed open, its secret still verified in the host's copy, the guard still
// allowed it, no fault was raised, and service mode showed a failure though the journal said the
// change was made. Now the change is in force in this run as soon as it is journalled, whatever
// the write does (as a remote station's revocation is, host/stadium/remote-stations.ts), and the
// failed write is said: in the result (the screen's words), and in the peer-integrity fault.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes, openLedger, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { changeSignal } from '../service/backend/changes.js';
import { peerActions } from '../service/backend/peers.js';
import { serviceJournal } from '../service/backend/service-journal.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { HostTransfers } from './host-transfers.js';
import { PEER_CREDENTIALS_FILE, PeerCredentials } from './peer-credentials.js';
import { PeerGuard } from './peer-guard.js';
import { PeerRegistry } from './peer-registry.js';

const WAR = TableId.parse('war-1');
const SECRET = 'a-secret-of-32-characters-or-more-000';
const by = ['Ana Lei', 'Bo Chan'] as const;

/** A host bj-1 whose data folder lets war-1 dial in, its transfers wired to its registry as host/start/transfers.ts wires them. */
function host(dir: string) {
  const ledger = openLedger(dir, 'BJ-1');
  PeerCredentials.inDataDir(dir).install(WAR, SECRET);
  const faults: string[] = [];
  const o = { dataDir: dir, self: 'bj-1', ledger, log: pino({ level: 'silent' }), fault: (d: string) => void faults.push(d), url: null };
  const registry = new PeerRegistry(o);
  const credentials = PeerCredentials.inDataDir(dir);
  const transfers = new HostTransfers({
    self: TableId.parse('bj-1'),
    currency: 'MOP',
    journal: new LedgerTransferJournal(ledger),
    peers: { v: 1, peers: [] },
    stations: [],
    credentials,
    log: o.log,
    betsInPlay: () => false,
    admits: (t) => registry.guard.allows(t),
  });
  registry.onRevoke((t) => transfers.drop(t));
  registry.onDialIn((t) => transfers.dialIn(t));
  /** The data folder refuses the next write of the credentials file (and frees it: `free()`). */
  const blocked = path.join(dir, `${PEER_CREDENTIALS_FILE}.${process.pid}.tmp`);
  return {
    ledger,
    registry,
    credentials,
    faults,
    options: o,
    block: () => mkdirSync(blocked),
    free: () => rmSync(blocked, { recursive: true }),
    lastAction: () => {
      const last = [...entriesOfTypes(ledger, ['peer.credential'])].at(-1);
      return last ? ((JSON.parse(last.body) as EntryBody).payload as { action: string }).action : null;
    },
  };
}

/** What the step returned, or what it threw. */
function outcome(act: () => { ok: boolean; unwritten?: string }): string {
  try {
    const r = act();
    return r.ok ? (r.unwritten ? `in force, not written: ${/EISDIR/.test(r.unwritten) ? 'EISDIR' : r.unwritten}` : 'in force, written') : 'refused';
  } catch (e) {
    return `threw ${e instanceof Error ? (e.message.split(':')[0] ?? '') : String(e)}`;
  }
}

describe('a peer credential change journalled, its files not written (issue 50 item 4, a full disk)', () => {
  for (const action of ['withdraw', 'revoke'] as const)
    it(`${action}: in force in this run at once, the write failure said, the next start still refusing the peer`, () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-disk-'));
      const h = host(dir);
      try {
        assert.ok(h.registry.guard.allows(WAR) && h.credentials.verify(WAR, SECRET), 'war-1 dials in before');
        h.block();
        const seen = {
          result: outcome(() => h.registry[action]('war-1', by)),
          journalled: h.lastAction(),
          secretVerifies: h.credentials.verify(WAR, SECRET),
          guardAllows: h.registry.guard.allows(WAR),
          faultSaysUnwritten: h.faults.some((f) => /war-1/.test(f) && /could not be written/.test(f)),
          nextStartRefuses: new PeerGuard(h.options).check().has(WAR),
        };
        assert.deepEqual(seen, {
          result: 'in force, not written: EISDIR',
          journalled: action,
          secretVerifies: false,
          guardAllows: false,
          faultSaysUnwritten: true,
          nextStartRefuses: true,
        });
        // The disk freed, the same change made again writes the files: they are the journal's once more.
        h.free();
        assert.equal(
          outcome(() => h.registry[action]('war-1', by)),
          'in force, written',
        );
        assert.equal(PeerCredentials.inDataDir(dir).secretSha256(WAR), null, 'the file no longer lets war-1 in');
        assert.equal(new PeerGuard(h.options).check().size, 0, 'the next start finds the files the journal');
        assert.equal(h.credentials.verify(WAR, SECRET), false);
      } finally {
        h.ledger.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });

  it('service mode says the change was made and that the files were not written, in each of its words', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'peer-disk-'));
    const h = host(dir);
    try {
      const changes = changeSignal();
      const part = peerActions({ peers: h.registry, log: h.options.log }, () => 0, serviceJournal(h.ledger, changes), changes);
      h.block();
      const withdrawn = part.withdraw('war-1', [...by]);
      h.free();
      PeerCredentials.inDataDir(dir).install(WAR, SECRET);
      h.block();
      const removed = part.revoke('war-1', [...by]);
      part.dispose();
      assert.deepEqual(
        [withdrawn, removed],
        [
          { ok: true, key: 'service.done.peerWithdrawUnwritten', values: { table: 'war-1' } },
          { ok: true, key: 'service.done.peerRevokeUnwritten', values: { table: 'war-1' } },
        ],
      );
      for (const tag of ['en', 'pt', 'zh-Hant', 'zh-Hans']) {
        const catalogue = JSON.parse(readFileSync(path.join('locales/catalogues', `${tag}.json`), 'utf8')) as {
          service: { done: Record<string, string>; peers: Record<string, unknown> & { fileRefused: Record<string, string> } };
        };
        for (const words of [
          catalogue.service.done['peerWithdrawUnwritten'],
          catalogue.service.done['peerRevokeUnwritten'],
          catalogue.service.peers['issueUnwritten'],
        ])
          assert.match(String(words), /\{\{table\}\}/, tag);
        assert.ok(catalogue.service.peers.fileRefused['unwritten'], tag);
      }
    } finally {
      h.ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
