// The table's runtime (host/start/table-runtime.ts `openTableRuntime`) and the signals routed to
// its faults (host/start/signals.ts `routeSignals`) each start several things before a later part
// of them can still refuse. openTableRuntime: the faults restored, then the table rebuilt from its
// journal (its runtime listening to the ledger's appends and providing the ledger's checkpoints
// with its state), then the configuration checked against the game (a bet limited that the game
// does not have, limits that break its rules) and the rule set journalled (a ledger refusing the
// write, as a full disk does). routeSignals: the sync client's and the witness's signals routed
// to the faults, each current state journalled (refusable), the disk-space timer, the ledger
// file's check. A refusal used to leave what had started: the table's runtime still listening to
// the ledger and holding its checkpoint slot, the sync client's signals still reaching the faults
// of a table that never opened. Here each refusal is made through its real input (the
// configuration, a ledger opened read-only) or the timers the host is given, and what each had
// started is stopped through the start's list of stops (host/start/stops.ts), newest first.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost, type HostOptions } from '../../host/start-host.js';
import type { Opened, SyncEvents, WitnessEvents } from '../../host/start/opened.js';
import { unroutedSyncEvents, unroutedWitnessEvents } from '../../host/start/unrouted.js';
import { routeSignals } from '../../host/start/signals.js';
import { StartStops } from '../../host/start/stops.js';
import { openTableRuntime } from '../../host/start/table-runtime.js';
import { realTimers, type Timers } from '../../host/table/timers.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { notesOnTheirWay, openExistingLedger, openLedger, verifyLedger, type Ledger } from '../../ledger/index.js';

const silent = pino({ level: 'silent' });

/**
 * The ledger's subscribers that outlive what subscribed them: its append listeners and the
 * table's checkpoint provider, counted on this test's own ledger (the instance, not the module).
 */
function subscribers(ledger: Ledger): { listeners: () => number; providers: () => number } {
  // The ledger's count of the notes on their way to a cashbox follows the ledger instance for its
  // life, subscribed once by whoever asks first (ledger/notes-on-their-way.ts; the credit rule asks at
  // a table's start): asked here first, so that what is counted is what the table itself leaves.
  notesOnTheirWay(ledger, 1);
  let listeners = 0;
  let providers = 0;
  const onAppended = ledger.onAppended.bind(ledger);
  ledger.onAppended = (l) => {
    const off = onAppended(l);
    listeners++;
    let on = true;
    return () => {
      if (on) listeners--;
      on = false;
      return off();
    };
  };
  const provideTable = ledger.checkpoints.provideTable.bind(ledger.checkpoints);
  ledger.checkpoints.provideTable = (s) => {
    const off = provideTable(s);
    providers++;
    let on = true;
    return () => {
      if (on) providers--;
      on = false;
      off();
    };
  };
  return { listeners: () => listeners, providers: () => providers };
}

function options(dir: string): HostOptions {
  return { dataDir: dir, rendererDir: path.join(dir, 'none') };
}

const manifest = { hash: 'test-program' } as Opened['manifest'];

/** A war table limiting a bet war does not have: found only once the game is built from the journal. */
function banker(): TableConfig {
  return TableConfig.parse({ ...simulatedTableConfig('war'), tableId: 'T-RT', betLimits: { banker: { min: 10_000, max: 100_000 } } });
}

/** A start's list of stops whose unwind says, into `said`, what it stops (newest first). */
function sayingStops(said: string[]): StartStops {
  return new StartStops({ warn: (o: { started: string[] }) => void said.push(...o.started), error: () => undefined } as never);
}

/** openTableRuntime refuses; the start's stops unwound (as `serve` does): what it had started is let go. */
async function refusedRuntime(ledger: Ledger, config: TableConfig, dir: string, refusal: RegExp): Promise<string[]> {
  const said: string[] = [];
  const stops = sayingStops(said);
  assert.throws(() => openTableRuntime(options(dir), { config, ledger, log: silent, manifest }, stops), refusal);
  await stops.unwind();
  return said;
}

describe('openTableRuntime refused part-way stops what it had started', () => {
  it('a bet limited that the game does not have (found after the table is rebuilt): the table stops listening to the ledger', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-fail-bets-'));
    const ledger = openLedger(dir, 'T-RT');
    try {
      const count = subscribers(ledger);
      const stopped = await refusedRuntime(ledger, banker(), dir, /limits bets this war table does not have: banker/);
      assert.equal(count.listeners(), 0, "no listener of the refused table's left on the ledger");
      assert.equal(count.providers(), 0, 'the checkpoint slot is not held by the refused table');
      assert.deepEqual(stopped, ['the table', 'the faults'], 'the table and the faults stopped, the newest first');
      // The same ledger opens a table under the corrected configuration, and that one alone listens.
      const stops = new StartStops(silent);
      const rt = openTableRuntime(options(dir), { config: TableConfig.parse({ ...banker(), betLimits: {} }), ledger, log: silent, manifest }, stops);
      assert.equal(count.listeners(), 1);
      await stops.unwind();
      assert.equal(count.listeners(), 0);
      assert.equal(rt.recovery.ledgerVerified, true);
      assert.ok(verifyLedger(ledger).ok);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the rule set refused by the ledger (opened read-only: its write refused, as a full disk refuses it)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-fail-ro-'));
    const config = TableConfig.parse({ ...simulatedTableConfig('war'), tableId: 'T-RT' });
    openLedger(dir, 'T-RT').close();
    const ledger = openExistingLedger(dir, { readonly: true });
    try {
      const count = subscribers(ledger);
      const stopped = await refusedRuntime(ledger, config, dir, /read-only/);
      assert.equal(count.listeners(), 0, "no listener of the refused table's left on the ledger");
      assert.equal(count.providers(), 0, 'the checkpoint slot is not held by the refused table');
      assert.deepEqual(stopped, ['the table', 'the faults']);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the same refusal through the host: nothing of the table left, the ledger verifies, a second start runs', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-fail-host-'));
    const warned: string[][] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warned.push((JSON.parse(line) as { started?: string[] }).started ?? []) });
    try {
      await assert.rejects(
        startHost({ ...options(dir), config: banker(), logger: log, simulatedDealer: { dealMs: 5 } }),
        /limits bets this war table does not have: banker/,
      );
      const ledger = openLedger(dir, 'T-RT');
      try {
        assert.ok(verifyLedger(ledger).ok, 'the ledger verifies after the refused start');
      } finally {
        ledger.close();
      }
      const running = await startHost({ ...options(dir), config: TableConfig.parse({ ...banker(), betLimits: {} }), logger: silent, simulatedDealer: false });
      assert.ok(Number(readFileSync(path.join(dir, 'host-port'), 'utf8')) > 0);
      await running.close();
      assert.ok(
        // The host's one list: the ledger and the folder are on it from before the table.
        warned.some((s) => s.join() === "the table,the faults,the ledger,the power marker,the data folder's lock"),
        `the host's unwind stopped the table and the faults, then the ledger and the folder: ${JSON.stringify(warned.filter((s) => s.length))}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The sync client's and the witness's routes before the table exists (as `startHost` makes them). */
function beforeTheTable(): { syncEvents: SyncEvents; witnessEvents: WitnessEvents; first: SyncEvents; firstWitness: WitnessEvents } {
  const syncEvents = unroutedSyncEvents(pino({ level: 'silent' }));
  const witnessEvents = unroutedWitnessEvents();
  return { syncEvents, witnessEvents, first: { ...syncEvents }, firstWitness: { ...witnessEvents } };
}

describe('routeSignals refused part-way stops what it had started', () => {
  it('the upstream-offline fault restored and gone, its clear refused by the ledger: nothing thrown, the fault still held (never cleared in memory only), and the sync signals unrouted with the stops', async () => {
    // Before the faults' rule of 2 December (host/tilts/tilt-manager.ts), the refused clear was
    // thrown and refused the route part-way; a clear the journal refuses now keeps the fault held
    // (the safe side) and is retried at the ledger's next commit, so the route goes on.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signals-fail-ro-'));
    const writer = openLedger(dir, 'T-SIG');
    new TiltManager({ ledger: writer, log: silent }).raise('upstream-offline');
    writer.close();
    const ledger = openExistingLedger(dir, { readonly: true });
    try {
      const tilts = new TiltManager({ ledger, log: silent });
      tilts.restore();
      const { syncEvents, witnessEvents, first } = beforeTheTable();
      const stops = new StartStops(silent);
      routeSignals(
        dir,
        { ledger, log: silent, sync: null, syncEvents, witness: null, witnessEvents },
        { tilts, recovery: { ledgerVerified: true } as never, timers: realTimers },
        stops,
      );
      assert.deepEqual(
        tilts.list().map((t) => t.kind),
        ['upstream-offline'],
        'its clear refused: still held',
      );
      await stops.unwind();
      assert.equal(syncEvents.stopNewBets, first.stopNewBets, "the sync client's stop no longer reaches the faults");
      assert.equal(syncEvents.alarm, first.alarm, "the sync client's alarm no longer reaches the faults");
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("no timer to be had for the disk-space monitor (the host's timers refuse): the routes and the witness's are taken back", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signals-fail-timer-'));
    const ledger = openLedger(dir, 'T-SIG');
    try {
      const tilts = new TiltManager({ ledger, log: silent });
      const { syncEvents, witnessEvents, first, firstWitness } = beforeTheTable();
      let witnessStarts = 0;
      const set: unknown[] = [];
      const refusing: Timers = {
        now: () => Date.now(),
        setTimeout: () => {
          throw new Error('no timer');
        },
        clearTimeout: (h) => set.push(h),
      };
      const stops = new StartStops(silent);
      assert.throws(
        () =>
          routeSignals(
            dir,
            // The witness link's start, as far as this step sees it (the link itself is `release`'s to stop).
            { ledger, log: silent, sync: null, syncEvents, witness: { start: () => void witnessStarts++ } as never, witnessEvents },
            { tilts, recovery: { ledgerVerified: true } as never, timers: refusing },
            stops,
          ),
        /no timer/,
      );
      await stops.unwind();
      assert.equal(syncEvents.stopNewBets, first.stopNewBets);
      assert.equal(syncEvents.alarm, first.alarm);
      assert.equal(witnessStarts, 1, 'the refusal came after the witness had started');
      assert.equal(witnessEvents.stop, firstWitness.stop, "the witness's stop no longer reaches the refused table's faults");
      assert.equal(witnessEvents.alarm, firstWitness.alarm);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a clean route: the disk-space timer and the file check are in the stops, stopped newest first', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'signals-clean-'));
    const ledger = openLedger(dir, 'T-SIG');
    try {
      const tilts = new TiltManager({ ledger, log: silent });
      const { syncEvents, witnessEvents, first } = beforeTheTable();
      const said: string[] = [];
      const stops = sayingStops(said);
      const active = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
      const timersBefore = active();
      const { ledgerCheck } = routeSignals(
        dir,
        { ledger, log: silent, sync: null, syncEvents, witness: null, witnessEvents },
        { tilts, recovery: { ledgerVerified: true } as never, timers: realTimers },
        stops,
      );
      assert.notEqual(syncEvents.stopNewBets, first.stopNewBets, 'routed to the faults while the start goes on');
      await ledgerCheck.first;
      await stops.unwind();
      assert.deepEqual(said, [
        'the ledger file check',
        'the disk-space monitor',
        'the table clock watch',
        'the device listener fault log',
        'the ledger write watch',
        'the signals routed to the faults',
      ]);
      assert.equal(active(), timersBefore, 'no timer of the disk monitor, the clock watch or the file check left');
      assert.equal(syncEvents.stopNewBets, first.stopNewBets);
    } finally {
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
