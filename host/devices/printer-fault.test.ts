// A ticket printer that stops for a jam or another fault of its mechanism (the head open, a cutter
// or head error, a voltage or temperature error): before, only the service page's printer state
// said `fault`, and every cash-out at the station became a handpay with no fault anyone was told
// of. Now a jam is `printer-jam` (SAS 78, carriage jam) and the others `printer-fault` (SAS 20,
// general tilt, naming the faults) at the printer's station, each cleared by itself once the
// printer has reported it no more for a while (the paper's debounce: a flapping sensor journals
// one raise). Paper out keeps its own fault (`printer-paper-out`, SAS 61); a command or data
// error (cleared by the driver's ^C|^) is none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { PrinterFault } from '../../hardware/printer/condition.js';
import { printerCondition } from '../../hardware/printer/test-condition.js';
import { clearRemovedPrinterFaults } from './printers.js';
import { entriesOfTypes, Ledger } from '../../ledger/index.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { printerTilts } from '../testing/printer-tilts.js';
import { TiltManager } from '../tilts/tilt-manager.js';

function rig() {
  const r = printerTilts({ terminalId: 'T-PF', paperBackMs: 150 });
  const says = (faults: PrinterFault[]) => r.emit({ type: 'condition', condition: printerCondition({ faults, firmware: 'GURX1' }) });
  return {
    says,
    raised: (kind = 'printer-fault') => r.journalled('tilt.raise').filter((t) => t.kind === kind),
    cleared: (kind = 'printer-fault') => r.journalled('tilt.clear').filter((t) => t.kind === kind),
    all: () => r.journalled('tilt.raise'),
    station: r.station,
    active: (kind = 'printer-fault') => r.tilts.list().some((t) => t.kind === kind),
    close: r.close,
  };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("a printer's mechanism fault is a fault at its station", () => {
  const cases = [
    ['paper-jam', 'printer-jam'],
    ['platen-up', 'printer-fault'],
    ['cutter-error', 'printer-fault'],
    ['head-error', 'printer-fault'],
    ['voltage-error', 'printer-fault'],
    ['temperature-error', 'printer-fault'],
  ] as const;
  for (const [fault, kind] of cases) {
    it(`${fault}: ${kind} raised at its station; cleared once the printer reports it no more`, async () => {
      const r = rig();
      try {
        r.says([fault, 'system-error']);
        const got = r.raised(kind);
        assert.equal(got.length, 1, JSON.stringify(r.all()));
        assert.equal(got[0]?.station, r.station);
        if (kind === 'printer-fault') assert.equal(got[0]?.say?.values.printerFaults, fault, 'named by its code, said by its words');
        assert.equal(r.all().length, 1, 'one fault, of its own kind');
        r.says([]);
        await settle(400);
        assert.equal(r.cleared(kind).length, 1, 'cleared by itself');
        assert.equal(r.active(kind), false);
      } finally {
        await r.close();
      }
    });
  }

  it('the system-error bit alone (no fault named beside it) is printer-fault', () => {
    const r = rig();
    try {
      r.says(['system-error']);
      assert.equal(r.raised()[0]?.say?.values.printerFaults, 'system-error');
      assert.match(r.raised()[0]?.detail ?? '', /system fault/);
    } finally {
      void r.close();
    }
  });

  it('a jam flapping at every poll: one raise, no clear while it flaps, one clear once it stays gone', async () => {
    const r = rig();
    try {
      for (let i = 0; i < 12; i++) {
        r.says(i % 2 === 0 ? ['paper-jam', 'platen-up'] : []);
        await settle(20);
      }
      assert.deepEqual([r.raised('printer-jam').length, r.raised().length], [1, 1]);
      assert.deepEqual([r.cleared('printer-jam').length, r.cleared().length], [0, 0]);
      r.says([]);
      await settle(400);
      assert.deepEqual([r.cleared('printer-jam').length, r.cleared().length], [1, 1]);
    } finally {
      await r.close();
    }
  });

  it('paper out and a command error are neither (paper out has its own); the system-error bit beside a fault of its own is no other', async () => {
    const r = rig();
    try {
      r.says(['paper-out', 'system-error']);
      r.says(['paper-jam', 'system-error']);
      r.says(['paper-out']);
      r.says(['command-error']);
      r.says(['data-error']);
      assert.deepEqual(r.raised(), []);
      assert.ok(r.all().some((t) => t.kind === 'printer-paper-out'));
    } finally {
      await r.close();
    }
  });

  it('restored at a station whose printer is gone from the configuration: cleared at the start, saying why (a review)', () => {
    const log = pino({ level: 'silent' });
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-PF' });
    try {
      const before = new TiltManager({ ledger, log });
      for (const kind of ['printer-jam', 'printer-fault', 'printer-paper-out', 'printer-offline', 'printer-misbehaved'] as const)
        before.raise(kind, { station: 2, detail: 'as the printer said' });
      const after = new TiltManager({ ledger, log });
      after.restore();
      const config = simulatedTableConfig();
      clearRemovedPrinterFaults(after, { ...config, stations: config.stations.map((s) => ({ ...s, printer: undefined })) });
      assert.deepEqual(
        after.list().map((t) => t.kind),
        ['printer-misbehaved'],
        'the auto faults end; a latched one waits for a person',
      );
      const clears = [...entriesOfTypes(ledger, ['tilt.clear'])].map((e) => e.body);
      assert.equal(clears.length, 4);
      assert.ok(clears.every((b) => b.includes('tiltDetail.printerRemoved')));
    } finally {
      ledger.close();
    }
  });

  it('a station that still has its printer keeps them (its printer clears them when it says so)', () => {
    const log = pino({ level: 'silent' });
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-PF' });
    try {
      new TiltManager({ ledger, log }).raise('printer-jam', { station: 2 });
      const after = new TiltManager({ ledger, log });
      after.restore();
      const config = simulatedTableConfig();
      clearRemovedPrinterFaults(after, { ...config, stations: config.stations.map((s) => ({ ...s, printer: 'sim' })) });
      assert.deepEqual(
        after.list().map((t) => t.kind),
        ['printer-jam'],
      );
    } finally {
      ledger.close();
    }
  });
});
