// An enrolment file (a remote station's, a peer table's) discarded while the journal refuses its
// `service.action` record (SQLITE_FULL): from its expiry timer, where a throw ends the host
// process, or from its session's end (a timer, a socket's close). The file is gone whatever the
// journal says (its secret must not stay in memory); the refused record is logged, never thrown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/index.js';
import { EnrolmentDownloads } from '../../stadium/enrolment-downloads.js';
import { refusingOnce } from '../../testing/refusing-ledger.js';
import type { PeerService, StadiumService } from './deps.js';
import { enrolment, expiryTimer } from './enrolment.js';
import { peerActions } from './peers.js';
import { serviceJournal } from './service-journal.js';

function errors() {
  const seen: { fields: object; msg: string }[] = [];
  const log = { error: (fields: object, msg: string) => void seen.push({ fields, msg }), warn: () => undefined, info: () => undefined };
  return { seen, log: log as never };
}
const changes = { changed: () => undefined, onChange: () => () => undefined } as never;
const session = { enterSeq: 7, who: 'Ana (1001)' };
const actions = (ledger: Ledger) =>
  [...ledger.entries(1)].filter((e) => e.type === 'service.action').map((e) => (JSON.parse(e.body) as { payload: { action: string } }).payload.action);

describe('an enrolment file discarded while the journal refuses its record', () => {
  it("the expiry timer: an `expired` that throws is logged, and the next file's deadline still kept", async () => {
    const { seen, log } = errors();
    const files = new EnrolmentDownloads<number>(() => Date.now(), 30);
    const gone: number[] = [];
    let first = true;
    const timer = expiryTimer(
      files,
      () => Date.now(),
      (g) => {
        gone.push(...g.map((f) => f.station));
        if (first) {
          first = false;
          throw new Error('SQLITE_FULL: database or disk is full');
        }
      },
      log,
    );
    files.hold(101, 'file-101', session);
    timer.arm();
    await new Promise((r) => setTimeout(r, 150));
    files.hold(102, 'file-102', session);
    timer.arm();
    await new Promise((r) => setTimeout(r, 150));
    timer.dispose();
    assert.deepEqual(gone, [101, 102]);
    assert.equal(seen.length, 1);
    assert.match(seen[0]?.msg ?? '', /expir/);
  });

  it("a station's file at its session's end: discarded, the refused record logged, nothing thrown", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-EXP' });
    const { seen, log } = errors();
    const stadium = {
      stations: () => [101],
      enrol: () => 'file-101',
      enrolledAt: () => null,
      screenConnected: () => false,
      acceptorConnected: () => false,
    } as unknown as StadiumService;
    const part = enrolment({ stadium, log }, () => Date.now(), serviceJournal(ledger, changes), changes);
    try {
      assert.equal(part.enrol(101, ['Ana', 'Rui'], session).ok, true);
      refusingOnce(ledger, 'service.action');
      assert.doesNotThrow(() => part.sessionEnded(session.enterSeq));
      assert.equal(part.takeEnrolment(101, session), null, 'the file outlived its session');
      assert.equal(seen.length, 1, JSON.stringify(seen));
      assert.ok(!actions(ledger).includes('enrolment-discarded'));
    } finally {
      part.dispose();
      ledger.close();
    }
  });

  it("a peer's file at its session's end: the same", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-EXP' });
    const { seen, log } = errors();
    const peers = { issue: () => ({ ok: true, table: 'T-B', file: 'file-T-B' }) } as unknown as PeerService;
    const part = peerActions({ peers, log }, () => Date.now(), serviceJournal(ledger, changes), changes);
    try {
      assert.equal(part.issueFile('T-B', ['Ana', 'Rui'], session).ok, true);
      refusingOnce(ledger, 'service.action');
      assert.doesNotThrow(() => part.sessionEnded(session.enterSeq));
      assert.equal(part.takeFile('T-B', session), null, 'the file outlived its session');
      assert.equal(seen.length, 1, JSON.stringify(seen));
    } finally {
      part.dispose();
      ledger.close();
    }
  });
});
