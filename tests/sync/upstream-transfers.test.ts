import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { TableId } from '../../ledger/transfer-terms.js';
import { alarms, enrolTerminal, ingest, openUpstreamDb, type Db } from '../../upstream/index.js';
import { reconcileTransfers } from '../../upstream/transfers.js';

// The upstream pairs the transfers of the table hosts' synced ledgers (issue 34): the two honest
// hosts' completed transfer is named nowhere, the one still open is an alarm once it has been
// open longer than the set time (and once only), and a credit its sender never debited (a lying
// peer's) is an alarm with the money it made.

const BAC = TableId.parse('bac-1');
const WAR = TableId.parse('war-1');
const STATION = 101;

describe('the upstream reconciles transfers across terminals (issue 34)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-transfers-'));
  let db: Db;
  const ledgers = new Map<TableId, Ledger>();

  before(async () => {
    const wire: { from: TableId; to: TableId; message: unknown }[] = [];
    const hosts = new Map<TableId, TransferHost>();
    for (const t of [BAC, WAR]) {
      const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t });
      ledgers.set(t, ledger);
      ledger.append(billCredit(STATION, 10_000, `${t}-note`));
      hosts.set(
        t,
        new TransferHost({
          self: t,
          currency: 'MOP',
          homes: { [STATION]: BAC },
          journal: new LedgerTransferJournal(ledger),
          send: (o) => wire.push({ from: t, to: o.to, message: o.message }),
          alarm: () => undefined,
        }),
      );
    }
    const bac = hosts.get(BAC);
    const war = hosts.get(WAR);
    assert.ok(bac && war);
    const deliver = () => {
      while (wire.length) {
        const w = wire.shift();
        if (w) hosts.get(w.to)?.receive(w.from, w.message);
      }
    };
    // Completed: debited, taken, closed.
    assert.deepEqual(bac.start(STATION, WAR, 500), {});
    deliver();
    // Open: debited, its offer never delivered.
    assert.deepEqual(bac.start(STATION, WAR, 300), {});
    wire.length = 0;
    // A lie over bac's link: an offer bac never debited, which war (honest, and unable to know) takes.
    war.receive(BAC, { kind: 'offer', transfer: { id: { origin: BAC, serial: 99 }, currency: 'MOP', station: STATION, from: BAC, to: WAR, amount: 700 } });
    wire.length = 0;

    db = await openUpstreamDb({});
    for (const [t, ledger] of ledgers) {
      await enrolTerminal(db, t);
      const entries = [...ledger.entries(1)].map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
      const first = ledger.entry(1);
      assert.ok(first);
      const r = await ingest(db, { terminalId: t, prevHash: first.prevHash, entries });
      assert.equal(r.status, 200, JSON.stringify(r));
    }
  });

  after(async () => {
    await db.close();
    for (const l of ledgers.values()) l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names nothing between honest hosts, and raises nothing before the set time', async () => {
    const r = await reconcileTransfers(db, { openAfterSeconds: 3600 });
    assert.equal(r.transfers, 3);
    assert.equal(r.completed, 1);
    assert.deepEqual(
      r.open.map((o) => [o.transfer.id.serial, o.transfer.amount, o.receiver]),
      [[2, 300, 'none']],
    );
    assert.deepEqual(
      r.disagreements.map((d) => [d.id.serial, d.disagreements, d.net]),
      [[99, ['taken-not-sent'], 700]],
    );
    assert.deepEqual(r.unreadable, []);
    // Only the lie is an alarm yet: the open transfer is younger than the set time.
    assert.deepEqual(
      (await alarms(db)).map((a) => a.kind),
      ['transfer-disagreement'],
    );
  });

  it('alarms once on a transfer open longer than the set time', async () => {
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const r = await reconcileTransfers(db, { openAfterSeconds: 3600 }, later);
    assert.equal(r.raised, 1);
    const open = (await alarms(db)).filter((a) => a.kind === 'transfer-open-too-long');
    assert.equal(open.length, 1);
    assert.equal(open[0]?.terminalId, BAC);
    assert.deepEqual((open[0]?.detail as { id: unknown }).id, { origin: BAC, serial: 2 });
    // Again: the alarm stands, none is added.
    assert.equal((await reconcileTransfers(db, { openAfterSeconds: 3600 }, later)).raised, 0);
    assert.equal((await alarms(db)).length, 2);
  });
});
