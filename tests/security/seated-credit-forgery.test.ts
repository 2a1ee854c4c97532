// A seated station's acceptor whose driver reports a credit the host never answered "stack" to
// (issue 28 item 1): a hostile or faulty device gets its driver there (ID-003 VEND VALID after a
// refused RETURN, an escrow code that changes after STACK). Before: whatever the driver reported
// at its credit point was journalled. Now the same credit rule as a remote station's: a credit
// only against an escrow the host answered "stack" to, for that note; anything else is refused
// (the driver is not acknowledged), journalled as `bill.refused`, and raises the station's
// acceptor fault. The attack is injected at the driver's event level: the host's callbacks.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { BillAcceptor, BillAcceptorOptions, Credit, EscrowedNote } from '../../hardware/billacceptor/types.js';
import type { OpenedBillAcceptor } from '../../hardware/open.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { silent } from '../../host/testing/table-kit.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { entriesOfTypes, openLedger, unresolvedEscrows, verifyLedger, type EntryBody, type Ledger } from '../../ledger/index.js';

/** A driver whose device says whatever the test makes it say: only the host's callbacks are real. */
class ScriptedDriver implements BillAcceptor {
  readonly protocol = 'id003' as const;
  readonly currency = 'MOP' as const;
  constructor(readonly options: BillAcceptorOptions) {}
  on() {
    return () => undefined;
  }
  onFrame() {
    return () => undefined;
  }
  start() {}
  enable() {}
  disable() {}
  setAccepted() {}
  async close() {}
  escrow(note: EscrowedNote) {
    return this.options.onEscrow?.(note);
  }
  async credit(c: Credit) {
    await this.options.onCredit?.(c);
  }
}

const note = (escrowId: string, denomination: number): EscrowedNote => ({ escrowId, denomination, amount: denomination * 100, currency: 'MOP', code: 0x61 });
const credit = (escrowId: string, denomination: number, recovered = false): Credit => ({
  escrowId,
  denomination,
  amount: denomination * 100,
  currency: 'MOP',
  recovered,
});

function seatedTable(ledger: Ledger) {
  const base = simulatedTableConfig('war');
  const config = TableConfig.parse({ ...base, stations: base.stations.slice(0, 2), denominations: [10, 20, 50, 100, 500] });
  const tilts = new TiltManager({ ledger, log: silent });
  tilts.restore();
  const drivers = new Map<number, ScriptedDriver>();
  let n = 0;
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: (station, say) => tilts.raise('bill-cheat', { station, say }) }),
    open: (_spec, options) => {
      const d = new ScriptedDriver(options);
      drivers.set(++n, d);
      return d as unknown as OpenedBillAcceptor;
    },
  });
  acceptors.start();
  return { acceptors, tilts, driver: (s: number) => drivers.get(s) as ScriptedDriver };
}

function withLedger(run: (ledger: () => Ledger, reopen: () => Ledger) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'seated-forgery-'));
    let ledger = openLedger(dir, 'SIM-WAR-01');
    try {
      await run(
        () => ledger,
        () => {
          ledger.close();
          ledger = openLedger(dir, 'SIM-WAR-01');
          return ledger;
        },
      );
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const refusals = (ledger: Ledger, station: number) =>
  [...entriesOfTypes(ledger, ['bill.refused'])]
    .map((e) => (JSON.parse(e.body) as EntryBody).payload)
    .filter((p) => p.station === station)
    .map((p) => p.reason);

describe('a seated acceptor whose driver reports credits the host never answered "stack" to', () => {
  it(
    'a credit with no stacked escrow: refused (not acknowledged), journalled, the fault raised',
    withLedger(async (ledger) => {
      const t = seatedTable(ledger());
      await assert.rejects(t.driver(1).credit(credit('vend-valid-no-escrow', 1000)), /credit refused: note-not-accepted/);
      await assert.rejects(t.driver(1).credit(credit('vend-valid-no-escrow-2', 100)), /credit refused: acceptor-inhibited|credit refused: no-escrow/);
      assert.equal(ledger().credit(1), 0);
      assert.deepEqual(refusals(ledger(), 1).slice(0, 1), ['note-not-accepted']);
      assert.equal(refusals(ledger(), 1).length, 2);
      assert.ok(
        t.tilts.list().some((x) => x.kind === 'bill-cheat' && x.station === 1),
        'station 1 faulted',
      );
      assert.ok(!t.tilts.list().some((x) => x.station === 2), 'station 2 untouched');
      await t.acceptors.close();
    }),
  );

  it(
    'a note answered "return" (the table does not take it) that the device then credits: refused',
    withLedger(async (ledger) => {
      const t = seatedTable(ledger());
      assert.equal(await t.driver(1).escrow(note('big', 1000)), 'return');
      await assert.rejects(t.driver(1).credit(credit('big', 1000)), /credit refused: note-not-accepted/);
      assert.equal(ledger().credit(1), 0);
      await t.acceptors.close();
    }),
  );

  it(
    'an escrow of 100 answered "stack", then a credit of 500 for it: refused, the 100 still open',
    withLedger(async (ledger) => {
      const t = seatedTable(ledger());
      assert.equal(await t.driver(2).escrow(note('swap', 100)), 'stack');
      await assert.rejects(t.driver(2).credit(credit('swap', 500)), /credit refused: escrow-mismatch/);
      assert.equal(ledger().credit(2), 0);
      assert.deepEqual(refusals(ledger(), 2), ['escrow-mismatch']);
      assert.equal(unresolvedEscrows(ledger()).length, 1);
      await t.acceptors.close();
    }),
  );

  it(
    'the rule outlives a restart: the escrow answered "stack" before it is credited after it, a forged one is not',
    withLedger(async (ledger, reopen) => {
      const before = seatedTable(ledger());
      assert.equal(await before.driver(1).escrow(note('mid-stack', 500)), 'stack');
      await before.acceptors.close();
      // The host dies with the note between STACK and the credit point; it starts again.
      const l = reopen();
      const after = seatedTable(l);
      await after.driver(1).credit(credit('mid-stack', 500, true));
      assert.equal(l.credit(1), 50_000);
      // Reported again by the driver (its acknowledgement lost): the same credit, journalled once.
      await after.driver(1).credit(credit('mid-stack', 500, true));
      assert.equal(l.credit(1), 50_000);
      await assert.rejects(after.driver(1).credit(credit('never-stacked', 500)), /credit refused: no-escrow/);
      assert.equal(l.credit(1), 50_000);
      assert.deepEqual(verifyLedger(l).problems, []);
      await after.acceptors.close();
    }),
  );
});
