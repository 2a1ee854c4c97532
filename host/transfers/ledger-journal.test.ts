import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Rng } from '../../engine/random/seeded-rng.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger, verifyLedger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import type { Outbound } from './effects.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { reconcile } from '../../terms/transfer-reconcile.js';
import { outgoingTransfers } from './state.js';
import { TransferHost } from './transfer-host.js';

// The transfer protocol over two real SQLite ledgers: hosts dropped between steps (the ledger
// closed uncleanly is what a kill leaves of it: only what was committed) and opened again from
// their files, messages lost, repeated and reordered. Every station's credit across the two
// ledgers, plus what is in flight, is what was put in; every transfer closes once.

const HOME = TableId.parse('home');
const WAR = TableId.parse('war');
const STATIONS = [101, 102, 103];
/** 101 and 102 are homed at HOME, 103 at WAR: a station's credit leaves its home and comes back. */
const HOMES = { 101: HOME, 102: HOME, 103: WAR };

interface Side {
  readonly id: TableId;
  readonly dir: string;
  ledger: Ledger;
  host: TransferHost | null;
}

describe('transfers over two real ledgers', () => {
  it('conserve money and close every transfer once through kills, losses and repeats (seeded)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'transfers-'));
    const wire: { from: TableId; to: TableId; message: unknown }[] = [];
    let dropSends = false;
    const sides: Side[] = [HOME, WAR].map((id) => {
      const dir = path.join(root, id);
      const ledger = Ledger.open({ dataDir: dir, terminalId: id });
      // Each station brings 10,000 to its home table.
      for (const s of STATIONS) if (HOMES[s as keyof typeof HOMES] === id) ledger.append(billCredit(s, 10_000, `${id}-b${s}`));
      return { id, dir, ledger, host: null };
    });
    const open = (side: Side) => {
      side.host = new TransferHost({
        self: side.id,
        currency: 'MOP',
        homes: HOMES,
        journal: new LedgerTransferJournal(side.ledger),
        send: (o: Outbound) => {
          if (!dropSends) wire.push({ from: side.id, to: o.to, message: o.message });
        },
        alarm: (a) => assert.fail(`${side.id} alarmed at an honest peer: ${a.reason} ${a.detail}`),
      });
    };
    const kill = (side: Side) => {
      side.ledger.close();
      side.host = null;
      side.ledger = Ledger.open({ dataDir: side.dir, terminalId: side.id });
      open(side);
    };
    for (const s of sides) open(s);
    const rng = Rng.fromSeed(2026);
    const total = () => {
      const journals = new Map(sides.map((s) => [s.id, [...new LedgerTransferJournal(s.ledger).entries()]] as const));
      const paired = reconcile(journals);
      for (const p of paired) assert.deepEqual(p.disagreements, [], JSON.stringify(p));
      const inFlight = paired.filter((p) => p.sender === 'open' && p.receiver !== 'taken').reduce((a, p) => a + p.transfer.amount, 0);
      return sides.reduce((a, s) => a + STATIONS.reduce((b, st) => b + s.ledger.credit(st), 0), 0) + inFlight;
    };
    const opening = total();
    let kills = 0;
    let started = 0;
    try {
      for (let i = 0; i < 400; i++) {
        const side = sides[rng.below(2)];
        const other = sides.find((s) => s !== side);
        if (!side?.host || !other) continue;
        const r = rng.below(100);
        if (r < 15) {
          const station = STATIONS[rng.below(STATIONS.length)] ?? 1;
          if (!side.host.start(station, other.id, 1 + rng.below(3_000)).refused) started++;
        } else if (r < 55 && wire.length) {
          const [w] = wire.splice(rng.below(wire.length), 1);
          const to = sides.find((s) => s.id === w?.to);
          if (w && to?.host) {
            // A kill after the append and before the send: the answer is lost, the journal has it.
            dropSends = rng.below(10) === 0;
            to.host.receive(w.from, w.message);
            if (dropSends) {
              kill(to);
              kills++;
            }
            dropSends = false;
          }
        } else if (r < 62 && wire.length) wire.splice(rng.below(wire.length), 1);
        else if (r < 68 && wire.length) wire.push(wire[rng.below(wire.length)] ?? wire[0]!);
        else if (r < 80) side.host.tick();
        else if (r < 85) {
          const o = outgoingTransfers(side.host.state).find((x) => x.phase === 'offering');
          if (o) side.host.recall(o.transfer.id);
        } else if (r < 92) {
          kill(side);
          kills++;
        }
        assert.equal(total(), opening, `step ${i}`);
      }
      // The links heal: ask and answer until nothing is open.
      for (
        let round = 0;
        round < 10 && sides.some((s) => (s.host ? outgoingTransfers(s.host.state) : []).some((o) => o.phase === 'offering' || o.phase === 'recalling'));
        round++
      ) {
        for (const s of sides) s.host?.tick();
        while (wire.length) {
          const w = wire.shift();
          if (w) sides.find((s) => s.id === w.to)?.host?.receive(w.from, w.message);
        }
      }
      for (const s of sides)
        assert.deepEqual(
          (s.host ? outgoingTransfers(s.host.state) : []).filter((o) => o.phase === 'offering' || o.phase === 'recalling'),
          [],
        );
      assert.equal(total(), opening);
      assert.ok(started > 20 && kills > 20, `${started} transfers, ${kills} kills`);
      // What each table owes the other for transfers is the mirror of the other's.
      const [home, war] = sides;
      assert.equal(home?.ledger.balance(`table:${WAR}:settlement`), -(war?.ledger.balance(`table:${HOME}:settlement`) ?? 0));
      for (const s of sides) assert.deepEqual(verifyLedger(s.ledger).problems, []);
    } finally {
      for (const s of sides) s.ledger.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a transfer settled by two people, on a real ledger', () => {
  it('a reversal gives the station its credit back, names both people, survives a reopen; the ledger refuses a reversal that is neither the receiver’s nor theirs', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'transfer-settle-'));
    let ledger = Ledger.open({ dataDir: dir, terminalId: HOME });
    try {
      ledger.append(billCredit(101, 10_000, 'b101'));
      const sent: Outbound[] = [];
      const open = () =>
        new TransferHost({
          self: HOME,
          currency: 'MOP',
          homes: HOMES,
          journal: new LedgerTransferJournal(ledger),
          send: (o) => void sent.push(o),
          alarm: () => undefined,
        });
      let host = open();
      assert.equal(host.start(101, WAR, 4_000).refused, undefined);
      const id = { origin: HOME, serial: 1 };
      const settled = { by: ['ana', 'rui'] as [string, string], reference: 'INC-7' };
      assert.deepEqual(host.settle({ id, as: 'reversed', settled, receiverAnswers: true }), { refused: 'receiver-answers' });
      assert.equal(ledger.credit(101), 6_000);
      assert.deepEqual(host.settle({ id, as: 'reversed', settled, receiverAnswers: false }), {});
      assert.equal(ledger.credit(101), 10_000);
      ledger.close();
      ledger = Ledger.open({ dataDir: dir, terminalId: HOME });
      host = open();
      assert.equal(outgoingTransfers(host.state)[0]?.phase, 'reversed');
      const closing = [...new LedgerTransferJournal(ledger).entries()].at(-1);
      assert.deepEqual(closing, { type: 'transfer.reverse', payload: { transfer: outgoingTransfers(host.state)[0]?.transfer, settled } });
      assert.deepEqual(verifyLedger(ledger).problems, []);
      // Both a refusal's reason and a settlement, or neither, or one person twice: no such reversal.
      assert.equal(host.start(101, WAR, 1_000).refused, undefined);
      const t = outgoingTransfers(host.state)[1]?.transfer;
      for (const payload of [
        { transfer: t, reason: 'recalled', settled },
        { transfer: t },
        { transfer: t, settled: { by: ['ana', 'ana'], reference: 'INC-7' } },
      ])
        assert.throws(
          () => ledger.append({ type: 'transfer.reverse', txId: `transfer:close:${HOME}:2`, payload: payload as never }),
          /settle|reason|two different/i,
        );
      assert.equal(ledger.credit(101), 9_000);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('when a transfer was journalled', () => {
  // The station's list of transfers shows when each debit or credit was made. It is read from the
  // entry itself, by its transaction id, not kept per transfer for as long as the host runs.
  it('is its debit at the sender and its credit at the receiver; nothing for an id never seen', () => {
    const open = (id: TableId) => Ledger.open({ file: ':memory:', terminalId: id });
    const [home, war] = [open(HOME), open(WAR)];
    try {
      home.append(billCredit(101, 10_000, 'b101'));
      war.append(billCredit(103, 10_000, 'b103'));
      const wire: { to: TableId; from: TableId; message: unknown }[] = [];
      const host = (self: TableId, ledger: Ledger) =>
        new TransferHost({
          self,
          currency: 'MOP',
          homes: HOMES,
          journal: new LedgerTransferJournal(ledger),
          send: (o: Outbound) => void wire.push({ from: self, to: o.to, message: o.message }),
          alarm: (a) => assert.fail(`${self} alarmed: ${a.reason}`),
        });
      const [h, w] = [host(HOME, home), host(WAR, war)];
      assert.deepEqual(h.start(101, WAR, 2_500), {});
      // Every message delivered: the receiver takes it, the sender hears so.
      for (let m = wire.shift(); m; m = wire.shift()) (m.to === WAR ? w : h).receive(m.from, m.message);
      const [out] = [...home.entries(1)].filter((e) => e.type === 'transfer.out');
      const [credited] = [...war.entries(1)].filter((e) => e.type === 'transfer.in');
      assert.ok(out && credited, 'a debit at home and a credit at war');
      const id = (JSON.parse(out.body) as { payload: { transfer: { id: { origin: string; serial: number } } } }).payload.transfer.id;
      const transferId = { origin: TableId.parse(id.origin), serial: id.serial };
      assert.equal(new LedgerTransferJournal(home).journalledAt(transferId), out.ts);
      assert.equal(new LedgerTransferJournal(war).journalledAt(transferId), credited.ts);
      assert.equal(new LedgerTransferJournal(war).journalledAt({ origin: HOME, serial: transferId.serial + 1 }), undefined);
    } finally {
      home.close();
      war.close();
    }
  });
});
