import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { TransferHost } from '../../host/transfers/transfer-host.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { alarms, enrolTerminal, ingest, type Db } from '../../upstream/index.js';
import { openDatabase } from './upstream-databases.js';
import { reconcileTransfers } from '../../upstream/transfers.js';

// The upstream pairs the transfers of the table hosts' synced ledgers (issue 34): the two honest
// hosts' completed transfer is named nowhere, the one still open is an alarm once it has been
// open longer than the set time (and once only), and a credit its sender never debited (a lying
// peer's) is an alarm with the money it made: here once it is older than the set time, since the
// sender's ledger ends within the clock-skew margin of it (its debit could still be on its way;
// the suite below has the sender sync past it).

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

    db = (await openDatabase('pglite')).db;
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
    // The lie waits for bac's sync: bac's last entry is not a margin past war's credit.
    assert.deepEqual(r.disagreements, []);
    assert.deepEqual(
      r.pending.map((d) => [d.id.serial, d.disagreements, d.net, d.awaiting]),
      [[99, ['taken-not-sent'], 700, BAC]],
    );
    assert.deepEqual(r.unreadable, []);
    // No alarm yet: the open transfer and the one-sided credit are younger than the set time.
    assert.deepEqual(await alarms(db), []);
  });

  it('alarms once on a transfer open longer than the set time, and on the credit nobody debited', async () => {
    const later = new Date(Date.now() + 2 * 3600 * 1000);
    const r = await reconcileTransfers(db, { openAfterSeconds: 3600 }, later);
    // The open transfer under bac; the credit nobody debited under bac and under war: no journal
    // tells a sender that offered without a debit from a receiver that credited itself.
    assert.equal(r.raised, 3);
    assert.deepEqual(
      r.disagreements.map((d) => [d.id.serial, d.disagreements, d.net]),
      [[99, ['taken-not-sent'], 700]],
    );
    assert.deepEqual(r.pending, []);
    const lie = (await alarms(db)).filter((a) => a.kind === 'transfer-disagreement');
    assert.deepEqual(lie.map((a) => [a.terminalId, (a.detail as { id: unknown }).id]).sort(), [
      [BAC, { origin: BAC, serial: 99 }],
      [WAR, { origin: BAC, serial: 99 }],
    ]);
    const open = (await alarms(db)).filter((a) => a.kind === 'transfer-open-too-long');
    assert.equal(open.length, 1);
    assert.equal(open[0]?.terminalId, BAC);
    assert.deepEqual((open[0]?.detail as { id: unknown }).id, { origin: BAC, serial: 2 });
    // Again: the alarm stands, none is added.
    assert.equal((await reconcileTransfers(db, { openAfterSeconds: 3600 }, later)).raised, 0);
    assert.equal((await alarms(db)).length, 3);
  });
});

// The table hosts sync their ledgers independently, so the upstream sees one end of a transfer
// before the other whenever one host's sync lags (killed, its upstream link cut). A lagging honest
// end is waited for; a lie is alarmed once the end it wrongs has synced past it, or has been
// waited for longer than the set time.
describe('the upstream waits for a lagging end, not for a lie (issue 34)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'upstream-transfers-lag-'));
  const t0 = Date.parse('2026-11-25T10:00:00.000Z');
  let clock = t0;
  const at = (seconds: number) => new Date(t0 + seconds * 1000);
  const ledgers = new Map<TableId, Ledger>();
  const dbs: Db[] = [];
  /** Which entry of each ledger is what. */
  const seqs = { bacOut: 0, bacComplete: 0, bacLater: 0, warIn: 0, warLie: 0 };

  before(() => {
    const wire: { from: TableId; to: TableId; message: unknown }[] = [];
    const hosts = new Map<TableId, TransferHost>();
    for (const t of [BAC, WAR]) {
      // Each ledger journals by the test's clock: the entries' ts are what the hosts' clocks said.
      const ledger = Ledger.open({ dataDir: path.join(dir, t), terminalId: t, clock: () => new Date(clock) });
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
    // An honest transfer at t0 + 1 s, completed.
    clock = at(1).getTime();
    assert.deepEqual(bac.start(STATION, WAR, 500), {});
    while (wire.length) {
      const w = wire.shift();
      if (w) hosts.get(w.to)?.receive(w.from, w.message);
    }
    // A lie over bac's link at t0 + 2 s: an offer bac never debited, which war (honest, and unable to know) takes.
    clock = at(2).getTime();
    war.receive(BAC, { kind: 'offer', transfer: { id: { origin: BAC, serial: 99 }, currency: 'MOP', station: STATION, from: BAC, to: WAR, amount: 700 } });
    wire.length = 0;
    // bac journals on 120 s later (a note): past the lie's time and the 60 s margin.
    clock = at(120).getTime();
    ledgers.get(BAC)?.append(billCredit(STATION, 1_000, 'bac-later-note'));
    const seqOf = (t: TableId, type: string, serial: number) =>
      [...(ledgers.get(t)?.entries(1) ?? [])].find((e) => e.type === type && e.body.includes(`"serial":${serial}`))?.seq ?? 0;
    seqs.bacOut = seqOf(BAC, 'transfer.out', 1);
    seqs.bacComplete = seqOf(BAC, 'transfer.complete', 1);
    seqs.bacLater = ledgers.get(BAC)?.headOf().seq ?? 0;
    seqs.warIn = seqOf(WAR, 'transfer.in', 1);
    seqs.warLie = seqOf(WAR, 'transfer.in', 99);
    assert.ok(
      Object.values(seqs).every((s) => s > 1),
      JSON.stringify(seqs),
    );
  });

  after(async () => {
    for (const db of dbs) await db.close();
    for (const l of ledgers.values()) l.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh upstream with both tables enrolled. */
  async function upstream(): Promise<Db> {
    const db = (await openDatabase('pglite')).db;
    dbs.push(db);
    for (const t of [BAC, WAR]) await enrolTerminal(db, t);
    return db;
  }
  /** Syncs a table's ledger to the upstream up to `seq` (from where the upstream holds it). */
  async function syncTo(db: Db, t: TableId, seq: number): Promise<void> {
    const ledger = ledgers.get(t);
    assert.ok(ledger);
    const held = Number((await db.query<{ seq: number }>('SELECT seq FROM heads WHERE terminal_id = $1', [t])).rows[0]?.seq ?? 0);
    const entries = [...ledger.entries(held + 1)].filter((e) => e.seq <= seq).map((e) => ({ seq: e.seq, hash: e.hash, body: e.body }));
    const prev = ledger.entry(held + 1);
    assert.ok(prev && entries.length > 0);
    const r = await ingest(db, { terminalId: t, prevHash: prev.prevHash, entries });
    assert.equal(r.status, 200, JSON.stringify(r));
  }
  const watch = { openAfterSeconds: 3600, skewMarginSeconds: 60 };
  const kinds = async (db: Db) => (await alarms(db)).map((a) => [a.kind, (a.detail as { id: { serial: number } }).id.serial]);

  it('raises nothing for a sender whose sync lags its receiver, and nothing once it has synced', async () => {
    const db = await upstream();
    await syncTo(db, WAR, seqs.warIn);
    await syncTo(db, BAC, seqs.bacOut - 1);
    const r = await reconcileTransfers(db, watch, at(10));
    assert.deepEqual(r.disagreements, []);
    assert.deepEqual(
      r.pending.map((p) => [p.id.serial, p.disagreements, p.awaiting]),
      [[1, ['taken-not-sent'], BAC]],
    );
    assert.equal(r.raised, 0);
    await syncTo(db, BAC, seqs.bacComplete);
    const later = await reconcileTransfers(db, watch, at(20));
    assert.deepEqual([later.completed, later.disagreements, later.pending, later.raised], [1, [], [], 0]);
    assert.deepEqual(await kinds(db), []);
  });

  it('raises nothing for a receiver whose sync lags its sender, and nothing once it has synced', async () => {
    const db = await upstream();
    await syncTo(db, BAC, seqs.bacLater);
    await syncTo(db, WAR, seqs.warIn - 1);
    const r = await reconcileTransfers(db, watch, at(130));
    assert.deepEqual(r.disagreements, []);
    assert.deepEqual(
      r.pending.map((p) => [p.id.serial, p.disagreements, p.awaiting]),
      [[1, ['completed-not-taken'], WAR]],
    );
    await syncTo(db, WAR, seqs.warIn);
    const later = await reconcileTransfers(db, watch, at(140));
    assert.deepEqual([later.completed, later.disagreements, later.pending, later.raised], [1, [], [], 0]);
    assert.deepEqual(await kinds(db), []);
  });

  it("alarms on a lying peer's credit once its honest sender has synced past it and the margin", async () => {
    const db = await upstream();
    await syncTo(db, WAR, seqs.warLie);
    // bac synced through its transfer (t0 + 1 s): not yet past the lie's time (t0 + 2 s) + 60 s. Waited for.
    await syncTo(db, BAC, seqs.bacComplete);
    const waiting = await reconcileTransfers(db, watch, at(130));
    assert.deepEqual(
      waiting.pending.map((p) => [p.id.serial, p.disagreements, p.awaiting]),
      [[99, ['taken-not-sent'], BAC]],
    );
    assert.deepEqual(await kinds(db), []);
    // bac's note at t0 + 120 s synced: its debit of #99, were there one, would be synced before it.
    await syncTo(db, BAC, seqs.bacLater);
    const r = await reconcileTransfers(db, watch, at(130));
    assert.deepEqual(
      r.disagreements.map((d) => [d.id.serial, d.disagreements, d.net]),
      [[99, ['taken-not-sent'], 700]],
    );
    assert.deepEqual([r.pending, r.raised], [[], 2]);
    assert.deepEqual(await kinds(db), [
      ['transfer-disagreement', 99],
      ['transfer-disagreement', 99],
    ]);
  });

  it("alarms on a lying peer's credit after the set time, though its sender never syncs past it", async () => {
    const db = await upstream();
    await syncTo(db, WAR, seqs.warLie);
    await syncTo(db, BAC, seqs.bacComplete);
    assert.equal((await reconcileTransfers(db, watch, at(2 + 3600))).raised, 0);
    const r = await reconcileTransfers(db, watch, at(2 + 3601));
    assert.deepEqual(
      r.disagreements.map((d) => [d.id.serial, d.disagreements]),
      [[99, ['taken-not-sent']]],
    );
    assert.equal(r.raised, 2, 'under bac and under war');
    assert.deepEqual(await kinds(db), [
      ['transfer-disagreement', 99],
      ['transfer-disagreement', 99],
    ]);
  });
});
