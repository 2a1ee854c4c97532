// A note on its way to the cashbox and the station credit limit (docs/sas.md, "The station credit
// limit"). The host answers "stack" (and journals the note's `bill.escrow`) before STACK goes to
// the unit; the note is credited only at its credit point (ID-003 VEND VALID), after the unit's
// STACKING. In that window the note is the station's whatever happens (past the point of no return
// it is in the cashbox and is credited), so credit offered in then must find it already counted:
// an AFT in (0x72) or a move in from another table that takes the room the note was checked
// against would leave the station past its limit by the note. The system and the other table are
// honest here: they ask what the room was a moment before; the attack is the timing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AFT_STATUS, AFT_TYPE } from '../../hardware/sas/aft.js';
import type { AftRequest } from '../../hardware/sas/types.js';
import { journalReturn } from '../recovery/escrow.js';
import { entriesOfTypes, openLedger, type EntryBody, type Ledger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { TransferHost } from '../transfers/transfer-host.js';
import { BillAcceptors } from './bill-acceptors.js';
import { creditRoom } from './credit-rule/credit-limit.js';
import { tableCreditRule } from './credit-rule/table-credit-rule.js';
import { StationAft } from './sas-aft.js';

/** MOP 1,010.00: a 1,000 note leaves 10.00 of room. */
const LIMIT = 101_000;
const NOTE = 100_000;
const ASSET = 77;
const SELF = TableId.parse('home');
const PEER = TableId.parse('bacc');

const configOf = () => {
  const base = simulatedTableConfig('war');
  return TableConfig.parse({ ...base, stations: base.stations.slice(0, 1), creditLimit: LIMIT });
};

function rig(t: { after: (fn: () => void | Promise<void>) => void }) {
  const config = configOf();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-limit-stacking-'));
  const ledger = openLedger(dir, 'SIM-WAR-01');
  const acceptors = new BillAcceptors({ config, ledger, log: silent, credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }) });
  acceptors.start();
  t.after(async () => {
    await acceptors.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const sim = acceptors.simulator(1);
  assert.ok(sim);
  return { ledger, acceptors, sim };
}

const aftOf = (ledger: Ledger) =>
  new StationAft({
    ledger,
    station: 1,
    assetNumber: ASSET,
    limit: 5_000_000,
    creditLimit: () => LIMIT,
    refuseIn: () => null,
    refuseOut: () => null,
    local: () => ({ year: 2026, month: 12, day: 2, hour: 1, minute: 0, second: 0 }),
  });

const aftIn = (cashable: number, transactionId: string, partial = false): AftRequest => ({
  code: partial ? 0x01 : 0x00,
  type: AFT_TYPE.toMachine,
  cashable,
  restricted: 0,
  nonRestricted: 0,
  flags: 0,
  assetNumber: ASSET,
  keyZero: true,
  key: new Uint8Array(20),
  transactionId,
});

/** A host taking moves in over the ledger, as host/start/transfers.ts wires it; station 1 is homed at the peer. */
const transfersOf = (ledger: Ledger) =>
  new TransferHost({
    self: SELF,
    currency: 'MOP',
    homes: { 1: PEER },
    journal: new LedgerTransferJournal(ledger),
    send: () => {},
    alarm: () => {},
    creditLimit: () => LIMIT,
  });

const offer = (serial: number, amount: number) => ({
  kind: 'offer',
  transfer: { id: { origin: PEER, serial }, currency: 'MOP', station: 1, from: PEER, to: SELF, amount },
});

async function until(ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Runs `during` once, synchronously, when the unit reports the note STACKING: after the host answered stack, before its credit point. */
function atStacking(acceptors: BillAcceptors, ledger: Ledger, during: () => void): { seen: number | null } {
  const window = { seen: null as number | null };
  const off = acceptors.onEvent((_, e) => {
    if (e.type !== 'stacking') return;
    off();
    window.seen = ledger.credit(1);
    during();
  });
  return window;
}

describe('the station credit limit: a note between STACK and its credit point', () => {
  it('an AFT in arriving while the note is stacking finds the note counted: the room it was checked against is refused 84, the note is credited, the limit holds', async (t) => {
    const { ledger, acceptors, sim } = rig(t);
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'));
    const aft = aftOf(ledger);
    const answers: number[] = [];
    const window = atStacking(acceptors, ledger, () => {
      answers.push(aft.transfer(aftIn(LIMIT, 'WINDOW-FULL')).status);
      answers.push(aft.transfer(aftIn(LIMIT, 'WINDOW-PART', true)).status);
    });
    sim.insertNote(1000);
    await until(() => ledger.credit(1) >= NOTE && window.seen !== null);
    await until(() => sim.cashbox.length === 1);
    assert.equal(window.seen, 0, 'the AFT came in the window: the note not yet credited');
    assert.deepEqual(answers, [AFT_STATUS.overLimit, AFT_STATUS.partial], 'the full room refused; partial moves only what the note left');
    assert.equal(ledger.credit(1), LIMIT, 'the note credited, the station exactly at its limit');
    assert.equal(creditRoom(ledger, 1, LIMIT), 0);
  });

  it('a move in from another table arriving while the note is stacking is refused credit-limit (the sender reverses it); the note is credited', async (t) => {
    const { ledger, acceptors, sim } = rig(t);
    await until(() => acceptors.statuses().some((s) => s.state === 'ready'));
    const transfers = transfersOf(ledger);
    const window = atStacking(acceptors, ledger, () => transfers.receive(PEER, offer(1, LIMIT - 1)));
    sim.insertNote(1000);
    await until(() => sim.cashbox.length === 1 && ledger.credit(1) >= NOTE);
    assert.equal(window.seen, 0, 'the offer came in the window');
    assert.equal(ledger.credit(1), NOTE, 'the move refused, the note credited');
    assert.deepEqual(
      [...entriesOfTypes(ledger, ['transfer.refuse'])].map((e) => (JSON.parse(e.body) as EntryBody).payload.reason),
      ['credit-limit'],
    );
    // What the note left is still taken.
    transfers.receive(PEER, offer(2, LIMIT - NOTE));
    assert.equal(ledger.credit(1), LIMIT);
  });

  it('a restart with a note stacked and not credited: the note is counted from the first request after it, credited by the recovery once, and a return gives the room back', () => {
    const config = configOf();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'credit-limit-restart-'));
    try {
      const at = { station: 1, device: 'BA-1', enabled: true };
      const note = { escrowId: 'E-1', amount: NOTE, denomination: 1000, currency: 'MOP' };
      const first = openLedger(dir, 'SIM-WAR-01');
      assert.equal(tableCreditRule({ config, ledger: first, log: silent, fault: () => undefined }).escrow(at, note), 'stack');
      // The host stops here: STACK sent, the note on its way to the cashbox, nothing credited.
      first.close();
      const ledger = openLedger(dir, 'SIM-WAR-01');
      try {
        // Before the acceptor's power-up report: a system and a peer ask the room as the credit shows it.
        assert.equal(aftOf(ledger).transfer(aftIn(LIMIT - 1, 'AFTER-RESTART')).status, AFT_STATUS.overLimit);
        transfersOf(ledger).receive(PEER, offer(1, LIMIT - 1));
        assert.equal(ledger.credit(1), 0, 'nothing taken past the note');
        // The power-up says the note is in the stacker: the recovery credits it (the driver's onCredit, recovered).
        const rule = tableCreditRule({ config, ledger, log: silent, fault: () => undefined });
        assert.equal(rule.credit(at, note).ok, true);
        assert.equal(ledger.credit(1), NOTE);
        assert.equal(creditRoom(ledger, 1, LIMIT), LIMIT - NOTE, 'credited once: not counted again as on its way');
        // A second note stacked and then given back (power-up with it in the acceptor): its room returns.
        const ten = { escrowId: 'E-2', amount: 1_000, denomination: 10, currency: 'MOP' };
        assert.equal(rule.escrow(at, ten), 'stack');
        assert.equal(creditRoom(ledger, 1, LIMIT), 0);
        assert.equal(journalReturn(ledger, 1, 'BA-1', { ...ten, currency: 'MOP', code: 0 }, 'power-up'), true);
        assert.equal(creditRoom(ledger, 1, LIMIT), LIMIT - NOTE);
        assert.equal(aftOf(ledger).transfer(aftIn(LIMIT - NOTE, 'THE-REST')).status, AFT_STATUS.full);
        assert.equal(ledger.credit(1), LIMIT);
      } finally {
        ledger.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
