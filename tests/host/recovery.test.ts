// Start-up recovery in one process (host/recovery/): a ledger that fails verification holds the
// table; an open round that cannot be rebuilt is voided by the rules; a note in escrow at the cut
// is resolved by the acceptor's power-up report and journalled once against its escrow.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Id003BillAcceptor } from '../../hardware/billacceptor/id003/driver.js';
import { Id003Simulator } from '../../hardware/billacceptor/id003/simulator.js';
import type { OpenedBillAcceptor } from '../../hardware/open.js';
import { LINE_8E1_9600 } from '../../hardware/transport/byte-port.js';
import { FakeUsbBus } from '../../hardware/transport/fake-usb.js';
import { UsbSerialPort } from '../../hardware/transport/usb-serial.js';
import { simulatedTableConfig } from '../../host/config/table-config.js';
import { parseCard } from '../../engine/cards/card.js';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { credit, testTable } from '../../host/testing/table-kit.js';
import { startHost } from '../../host/start-host.js';
import { openLedger, unresolvedEscrows, type EntryBody } from '../../ledger/index.js';
import { tamperBalance } from '../../ledger/testing/tamper.js';

const silent = pino({ level: 'silent' });
const FAST = { pollIntervalMs: 2, replyTimeoutMs: 60, reconnectBaseMs: 5, reconnectMaxMs: 40, escrowTimeoutMs: 400 };

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !test(); i++) await sleep(5);
  assert.ok(test(), `timed out waiting for ${what}`);
}

describe('start-up recovery', () => {
  it('holds the table with hold.ledger when the ledger fails verification, and takes no bet', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recovery-verify-'));
    try {
      const config = simulatedTableConfig('war');
      const ledger = openLedger(dir, config.tableId);
      ledger.append({ type: 'bill.credit', payload: { station: 1, device: 'BA-1', denomination: 50_000, currency: 'MOP' }, txId: 'n1' });
      // A projection that no longer matches the journal: opening still works, verification does not.
      tamperBalance(ledger, 'station:1:credit', -100);
      ledger.close();
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config, simulatedDealer: false });
      try {
        assert.equal(running.recovery.ledgerVerified, false);
        assert.ok(running.recovery.problems.length > 0);
        assert.equal(running.table.reads.view().phase, 'hold');
        assert.equal(running.table.reads.view().hold, 'ledger');
        assert.equal(running.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, false);
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('voids an open round whose shoe is not in the journal, returning every bet, once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recovery-void-'));
    try {
      const config = simulatedTableConfig('baccarat');
      const ledger = openLedger(dir, config.tableId);
      ledger.append({ type: 'bill.credit', payload: { station: 2, device: 'BA-2', denomination: 100_000, currency: 'MOP' }, txId: 'n1' });
      ledger.append({
        type: 'bet.place',
        payload: { station: 2, roundId: 'R-1', tableId: config.tableId, bets: [{ seat: 2, bet: 'banker', amount: 20_000 }] },
        txId: 'R-1:bet:2',
      });
      ledger.close();
      for (let start = 0; start < 2; start++) {
        const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config, simulatedDealer: false });
        try {
          assert.equal(running.recovery.ledgerVerified, true);
          assert.deepEqual(
            running.recovery.voided.map((v) => v.roundId),
            start === 0 ? ['R-1'] : [],
            'voided at the first start only',
          );
          assert.equal(running.ledger.credit(2), 100_000, 'the bet is back on the meter');
          assert.equal(running.ledger.rounds.record('R-1')?.status, 'void');
          assert.deepEqual(running.ledger.rounds.record('R-1')?.authorisedBy, ['host-recovery']);
        } finally {
          await running.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('credits a note that reached the stacker at the cut, once, against its escrow', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recovery-escrow-'));
    const config = simulatedTableConfig('war');
    const ledger = openLedger(dir, config.tableId);
    const sim = new Id003Simulator({ currency: 'MOP' });
    const bus = new FakeUsbBus();
    bus.plug(sim, { kind: 'ftdi' });
    const opener = async () => UsbSerialPort.open((await bus.getDevices())[0]!, LINE_8E1_9600, { bus, readTimeoutMs: 30 });
    // Station 1's acceptor is this simulator, kept across "restarts" as the real device would be.
    const open = ((_spec: string, options: ConstructorParameters<typeof Id003BillAcceptor>[1]) => {
      const d = new Id003BillAcceptor(opener, { ...options, ...FAST });
      d.start();
      return d as OpenedBillAcceptor;
    }) as unknown as NonNullable<ConstructorParameters<typeof BillAcceptors>[0]['open']>;
    const oneStation = { ...config, stations: config.stations.slice(0, 1) };
    const rule = tableCreditRule({ config: oneStation, ledger, log: silent, fault: () => undefined });
    const credits: number[] = [];
    try {
      const a = new BillAcceptors({ config: oneStation, ledger, log: silent, credits: rule, open });
      a.start();
      await sleep(50);
      sim.powerCut({ at: 'stacking-late' });
      sim.insertNote(500);
      await until(() => !sim.powered, 'the power cut');
      await a.close(); // the host dies with the power: escrow journalled, no credit
      assert.equal(unresolvedEscrows(ledger).length, 1);
      assert.ok(ledger.credit(1) === 0, 'no credit before the recovery');
      sim.powerOn();
      for (let restart = 0; restart < 2; restart++) {
        const b = new BillAcceptors({ config: oneStation, ledger, log: silent, credits: rule, open });
        const off = ledger.onAppended((entries) => {
          for (const e of entries) if (e.type === 'bill.credit') credits.push(1);
        });
        b.start();
        await until(() => unresolvedEscrows(ledger).length === 0 && ledger.credit(1) === 50_000, 'the recovered credit');
        await sleep(100);
        await b.close();
        off();
      }
      assert.equal(ledger.credit(1), 50_000, 'credited once across two restarts');
      const resolutions = [...ledger.entries(1)].filter((e) => e.type === 'bill.credit' || e.type === 'bill.return');
      assert.equal(resolutions.length, 1);
      const escrow = [...ledger.entries(1)].find((e) => e.type === 'bill.escrow');
      assert.equal((JSON.parse(resolutions[0]!.body) as EntryBody).payload.escrowSeq, escrow?.seq);
      assert.deepEqual(credits, [1]);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('journals a return for a note in escrow that the acceptor no longer holds after the restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recovery-return-'));
    try {
      const config = simulatedTableConfig('war');
      const ledger = openLedger(dir, config.tableId);
      ledger.append({ type: 'bill.escrow', payload: { station: 1, device: 'BA-1', denomination: 10_000, currency: 'MOP' }, txId: 'BA-1:gone:escrow' });
      ledger.close();
      // The simulated acceptor starts empty: its power-up says no note, so the escrow is returned.
      const running = await startHost({ dataDir: dir, rendererDir: path.join(dir, 'none'), logger: silent, config, simulatedDealer: false });
      try {
        await until(() => unresolvedEscrows(running.ledger).length === 0, 'the return');
        const r = [...running.ledger.entries(1)].filter((e) => e.type === 'bill.return');
        assert.equal(r.length, 1);
        assert.ok(running.ledger.credit(1) === 0, 'a returned note credits nothing');
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not place twice a card re-reported with a shoe sequence journalled before the restart', () => {
    const first = testTable({ game: 'war' });
    try {
      credit(first.ledger, 1, 100_000);
      assert.equal(first.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      first.clock.runOut(first.table.reads.view().endsAt);
      first.table.shoe.onCard(parseCard('5S'), 40);
      first.table.shoe.onCard(parseCard('KD'), 41);
      assert.equal(first.table.reads.view().phase, 'results');
    } finally {
      first.stop();
    }
    // The restarted table folds the journal: the shoe's events up to 41 were journalled.
    const t = testTable({ game: 'war', dir: first.dir });
    try {
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      t.table.shoe.onCard(parseCard('7S'), 41); // the shoe resends its last event after the restart
      assert.equal(t.table.reads.view().hands.find((h) => h.owner === 'seat')?.cards.length, 0, 'the repeat is not placed');
      t.table.shoe.onCard(parseCard('7S'), 42);
      t.table.shoe.onCard(parseCard('9D'), 43);
      assert.equal(t.table.reads.view().phase, 'results');
      const reads = [...t.ledger.entries(1)].filter((e) => e.type === 'card.read').map((e) => (JSON.parse(e.body) as EntryBody).payload.sequence);
      assert.deepEqual(reads, [40, 41, 42, 43]);
    } finally {
      t.close();
    }
  });
});
