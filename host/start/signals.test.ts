// A receipt of the upstream that does not verify (the sync client's `bad-receipt` alarm) is
// journalled as the `upstream-receipt` fault, once while it stands, so that the floor hears of it
// through the journal (the back office's `bad-receipt` alarm, upstream/ingest/kiosk-faults.ts);
// the sync client's other alarms are not faults.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { realTimers } from '../table/timers.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import type { SyncEvents, WitnessEvents } from './opened.js';
import { routeSignals } from './signals.js';
import { StartStops } from './stops.js';
import { FloorClock } from '../tickets/floor-clock.js';

describe('the sync client’s alarms at the table', () => {
  it('journals a bad receipt as the upstream-receipt fault, once while it stands; other alarms are no fault', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signals-'));
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
    try {
      const log = pino({ level: 'silent' });
      const tilts = new TiltManager({ ledger, log });
      const syncEvents: SyncEvents = {
        stopNewBets: () => undefined,
        clean: true,
        health: () => ({}),
        configOrders: () => undefined,
        alarm: () => undefined,
        clock: new FloorClock(),
      };
      const witnessEvents: WitnessEvents = { stop: () => undefined, alarm: () => undefined };
      const { disk, ledgerCheck } = routeSignals(
        dir,
        { ledger, log, sync: null, syncEvents, witness: null, witnessEvents },
        { tilts, recovery: { ledgerVerified: true } as never, timers: realTimers },
        new StartStops(log),
      );
      disk.stop();
      await ledgerCheck.stop();
      syncEvents.alarm({ kind: 'ack-mismatch', message: 'the upstream acknowledged less than before' });
      syncEvents.alarm({ kind: 'bad-receipt', message: 'receipt of seq 7 does not verify with the receipt key' });
      syncEvents.alarm({ kind: 'bad-receipt', message: 'receipt of seq 9 does not verify with the receipt key' });
      const raised = [...ledger.entries(1)]
        .filter((e) => e.type === 'tilt.raise')
        .map((e) => (JSON.parse(e.body) as { payload: { kind: string; detail?: string } }).payload);
      assert.deepEqual(raised, [{ kind: 'upstream-receipt', detail: 'receipt of seq 7 does not verify with the receipt key' }]);
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['upstream-receipt'],
      );
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says the ledger witness's alarm by key (the service screen words a fault's detail only by key): refused with its reason, out of protocol, gone back", async () => {
    const alarms = [
      {
        alarm: { kind: 'witness-refused', message: 'the ledger witness refused: not-derived: …', refusal: 'not-derived' },
        say: { key: 'tiltDetail.witnessRefused', values: { reason: 'not-derived' } },
      },
      {
        alarm: { kind: 'witness-protocol', message: "a head's signature does not verify with the witness's key" },
        say: { key: 'tiltDetail.witnessProtocol', values: {} },
      },
      {
        alarm: { kind: 'witness-backwards', message: "the witness's head went back from entry 5 to 2", from: 5, to: 2 },
        say: { key: 'tiltDetail.witnessBackwards', values: { from: 5, to: 2 } },
      },
    ] as const;
    for (const { alarm, say } of alarms) {
      const dir = mkdtempSync(path.join(tmpdir(), 'signals-'));
      const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
      try {
        const log = pino({ level: 'silent' });
        const tilts = new TiltManager({ ledger, log });
        const syncEvents: SyncEvents = {
          stopNewBets: () => undefined,
          clean: true,
          health: () => ({}),
          configOrders: () => undefined,
          alarm: () => undefined,
          clock: new FloorClock(),
        };
        const witnessEvents: WitnessEvents = { stop: () => undefined, alarm: () => undefined };
        const { disk, ledgerCheck } = routeSignals(
          dir,
          { ledger, log, sync: null, syncEvents, witness: { start: () => undefined } as never, witnessEvents },
          { tilts, recovery: { ledgerVerified: true } as never, timers: realTimers },
          new StartStops(log),
        );
        disk.stop();
        await ledgerCheck.stop();
        witnessEvents.alarm(alarm);
        const fault = tilts.list().find((t) => t.kind === 'ledger-integrity');
        assert.deepEqual(fault?.say, say, `${alarm.kind}: ${JSON.stringify(fault)}`);
      } finally {
        ledger.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
