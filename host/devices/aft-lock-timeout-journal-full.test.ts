// A SAS AFT game lock (long poll 0x74) the casino system asked for times out
// while the journal refuses a write: the lock's timer (sas-aft-lock.ts:187) calls release →
// tilts.conditionGone('sas-aft-locked') (auto, ordered: journalled at once) → ledger.append throws
// inside the timer callback: an uncaught exception, the host process ends (a review of 2
// December, H5). Now the lock is released, the fault held (the safe side) and cleared at the
// ledger's next commit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { childCase, heldKinds, runInChild } from '../testing/in-child.js';

if (childCase()) {
  const pino = (await import('pino')).default;
  const { Ledger } = await import('../../ledger/index.js');
  const { TiltManager } = await import('../tilts/tilt-manager.js');
  const { refusingOnce } = await import('../testing/refusing-ledger.js');
  const { StationAftLock } = await import('./sas-aft-lock.js');
  const { realTimers } = await import('../table/timers.js');
  const log = pino({ level: 'silent' });
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-ZZ' });
  const tilts = new TiltManager({ ledger, log });
  const lock = new StationAftLock({ station: 1, tilts, roundOpen: () => false, refuseIn: () => null, refuseOut: () => null, timers: realTimers });
  lock.request({ code: 0x00, condition: 0x00, timeoutHundredths: 20 }); // 200 ms
  console.log('locked:', lock.locked(), 'faults:', heldKinds(tilts));
  refusingOnce(ledger, 'tilt.clear');
  setTimeout(() => {
    console.log('host still alive; locked:', lock.locked(), 'faults:', heldKinds(tilts));
    ledger.append({ type: 'service.denied', payload: { staff: '1', reason: 'unknown' } });
    console.log('after a commit; faults:', heldKinds(tilts));
    process.exit(0);
  }, 1000);
} else {
  describe('an AFT lock times out while the journal is full', () => {
    it('the host process survives; the fault is held until its clear is journalled', () => {
      const r = runInChild(import.meta.url);
      assert.equal(r.status, 0, 'the host process died');
      assert.match(r.stdout, /host still alive; locked: false faults: sas-aft-locked\n/);
      assert.match(r.stdout, /after a commit; faults: \n/);
    });
  });
}
