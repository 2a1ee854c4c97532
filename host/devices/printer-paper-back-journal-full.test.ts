// A printer that says paper out, then paper again, while the journal refuses a
// write: printers.ts:120-123, the paper-back timer, calls tilts.conditionGone('printer-paper-out')
// (auto: journalled at once) outside the try its event path has (printers.ts:84-88): an uncaught
// exception in a timer, the host process ends (a review of 2 December, H6). Now the fault is held
// (the safe side) and cleared at the ledger's next commit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childCase, heldKinds, runInChild } from '../testing/in-child.js';

if (childCase()) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { TiltManager } = await import('../tilts/tilt-manager.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const { simulatedTableConfig } = await import('../config/table-config.js');
  const { Printers } = await import('./printers.js');
  const { printerCondition } = await import('../../hardware/printer/test-condition.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  const config = simulatedTableConfig();
  const first = config.stations[0];
  assert.ok(first);
  assert.equal(first.station, 1);
  const { speakingPrinter } = await import('../testing/speaking-printer.js');
  const { device: fakePrinter, emit } = speakingPrinter();
  const printers = new Printers({
    config: { ...config, stations: [{ ...first, printer: 'fake' }] },
    log,
    open: () => fakePrinter,
    faults: tilts,
    paperBackMs: 100,
  });
  printers.start();
  emit({ type: 'condition', condition: printerCondition({ faults: ['paper-out'] }) });
  console.log('faults:', heldKinds(tilts));
  refusingOnce(ledger, 'tilt.clear');
  emit({ type: 'condition', condition: printerCondition({ faults: [] }) });
  setTimeout(() => {
    console.log('host still alive; faults:', heldKinds(tilts));
    ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
    console.log('after a commit; faults:', heldKinds(tilts));
    process.exit(0);
  }, 800);
} else {
  describe('paper back at a printer while the journal is full', () => {
    it('the host process survives; the fault is held until its clear is journalled', () => {
      const r = runInChild(import.meta.url);
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; faults: printer-paper-out\n/);
      assert.match(r.stdout, /after a commit; faults: \n/);
    });
  });
}
