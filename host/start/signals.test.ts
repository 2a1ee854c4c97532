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
import { unroutedSyncEvents, unroutedWitnessEvents } from './unrouted.js';
import { routeSignals } from './signals.js';
import { StartStops } from './stops.js';

interface Routed {
  readonly ledger: Ledger;
  readonly tilts: TiltManager;
  readonly syncEvents: SyncEvents;
  readonly witnessEvents: WitnessEvents;
}

/**
 * The start's signals routed for a ledger in memory (with a witness to start or none), its disk and
 * ledger checks stopped; `body` raises what it raises, then the ledger and the folder are let go.
 */
async function withSignals(witnessed: boolean, body: (r: Routed) => void): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'signals-'));
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
  try {
    const log = pino({ level: 'silent' });
    const tilts = new TiltManager({ ledger, log });
    const syncEvents = unroutedSyncEvents(log);
    const witnessEvents = unroutedWitnessEvents();
    const witness = witnessed ? ({ start: () => undefined } as never) : null;
    const { disk, ledgerCheck } = routeSignals(
      dir,
      { ledger, log, sync: null, syncEvents, witness, witnessEvents },
      { tilts, recovery: { ledgerVerified: true } as never, timers: realTimers },
      new StartStops(log),
    );
    disk.stop();
    await ledgerCheck.stop();
    body({ ledger, tilts, syncEvents, witnessEvents });
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the sync client’s alarms at the table', () => {
  it('journals a bad receipt as the upstream-receipt fault, once while it stands; other alarms are no fault', async () => {
    await withSignals(false, ({ ledger, tilts, syncEvents }) => {
      syncEvents.alarm({ kind: 'ack-mismatch', message: 'the upstream acknowledged less than before' });
      syncEvents.alarm({ kind: 'bad-receipt', message: 'receipt of seq 7 does not verify with the receipt key', problem: 'not-verified', seq: 7, acked: 7 });
      syncEvents.alarm({ kind: 'bad-receipt', message: 'receipt of seq 9 does not verify with the receipt key', problem: 'not-verified', seq: 9, acked: 9 });
      const raised = [...ledger.entries(1)]
        .filter((e) => e.type === 'tilt.raise')
        .map((e) => (JSON.parse(e.body) as { payload: { kind: string; detail?: string } }).payload);
      // Said by key (the service screen words a fault's detail by key only, in the language chosen), its English the detail.
      assert.deepEqual(raised, [
        {
          kind: 'upstream-receipt',
          detail: "the upstream's receipt of entry 7 does not verify with its receipt key: it is not kept",
          say: { key: 'tiltDetail.receiptNotVerified', values: { seq: 7 } },
        },
      ]);
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['upstream-receipt'],
      );
    });
  });

  it("says the upstream's bad receipt by key, each of its problems (the service screen words a fault's detail only by key)", async () => {
    const alarms = [
      {
        alarm: { kind: 'bad-receipt', message: 'the receipt names entry 4, the acknowledgement 5', problem: 'other-head', seq: 4, acked: 5 },
        say: { key: 'tiltDetail.receiptOtherHead', values: { seq: 4, acked: 5 } },
      },
      {
        alarm: { kind: 'bad-receipt', message: 'the credentials carry no receipt key', problem: 'no-key', seq: 5, acked: 5 },
        say: { key: 'tiltDetail.receiptNoKey', values: {} },
      },
      {
        alarm: { kind: 'bad-receipt', message: "the receipt does not verify with the upstream's receipt key", problem: 'not-verified', seq: 5, acked: 5 },
        say: { key: 'tiltDetail.receiptNotVerified', values: { seq: 5 } },
      },
    ] as const;
    for (const { alarm, say } of alarms) {
      await withSignals(false, ({ tilts, syncEvents }) => {
        syncEvents.alarm(alarm);
        const fault = tilts.list().find((t) => t.kind === 'upstream-receipt');
        assert.deepEqual(fault?.say, say, `${alarm.problem}: ${JSON.stringify(fault)}`);
      });
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
      await withSignals(true, ({ tilts, witnessEvents }) => {
        witnessEvents.alarm(alarm);
        const fault = tilts.list().find((t) => t.kind === 'ledger-integrity');
        assert.deepEqual(fault?.say, say, `${alarm.kind}: ${JSON.stringify(fault)}`);
      });
    }
  });
});
