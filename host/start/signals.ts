import { DiskSpaceMonitor } from '../tilts/disk-space.js';
import { FloorClockWatch } from '../floor/floor-clock-watch.js';
import { LedgerFileWatch } from '../tilts/ledger-file-watch.js';
import { RefusalLog } from '../tilts/tilt-refusals.js';
import { onLedgerWriteLost, type BadReceipt, type WitnessAlarm } from '../../ledger/index.js';
import { onListenerFault } from '../../hardware/clock.js';
import { tiltDetailSaid, type Said } from '../../locales/said.js';
import { onUpstreamSignal, onWitnessSignal } from '../tilts/tilt-sources.js';
import type { Opened } from './opened.js';
import type { StartStops } from './stops.js';
import type { TableRuntime } from './table-runtime.js';

/**
 * What stops new bets from outside the table, each through its fault: the upstream beyond its
 * offline limit, the witness behind (or refusing the journal), the disk under the ledger filling;
 * and what halts the table from the ledger's file, checked whole in the background. Returns the
 * disk monitor and the file's check, started. Each is in `stops` as it starts: a step that
 * refuses after (a current state's entry refused by the ledger, no timer to be had) takes the
 * signals back to where they went before the table existed and stops the timers, so the sync
 * client does not journal into the faults of a table that never opened
 * (tests/host/start-table-runtime-failure.test.ts). The witness link started here is stopped with
 * the ledger (`Opened.release`), after it is flushed, on a refused start as on a clean stop
 * (tests/host/start-failure-witness.test.ts): the release runs after the unwind whenever the start
 * refuses, so it needs no place in `stops`.
 */
export function routeSignals(
  dataDir: string,
  { ledger, log, sync, syncEvents, witness, witnessEvents }: Pick<Opened, 'ledger' | 'log' | 'sync' | 'syncEvents' | 'witness' | 'witnessEvents'>,
  { tilts, recovery, timers }: Pick<TableRuntime, 'tilts' | 'recovery' | 'timers'>,
  stops: StartStops,
): { disk: DiskSpaceMonitor; ledgerCheck: LedgerFileWatch; clockWatch: FloorClockWatch } {
  const before = { sync: { stopNewBets: syncEvents.stopNewBets, alarm: syncEvents.alarm }, witness: { ...witnessEvents } };
  stops.add('faults', 'the signals routed to the faults', () => {
    Object.assign(syncEvents, before.sync);
    Object.assign(witnessEvents, before.witness);
  });
  // New bets stop through the upstream-offline fault, so every stop has one place and one record.
  syncEvents.stopNewBets = (stop) => onUpstreamSignal(tilts, stop, tiltDetailSaid('unsyncedBeyondLimit'));
  // The signal fires on changes only: state the current one (a restored fault may have gone).
  onUpstreamSignal(tilts, sync?.status().stopNewBets ?? false, tiltDetailSaid('unsyncedBeyondLimit'));
  // A receipt of the upstream that does not verify is journalled as a fault, so the floor hears of it
  // through the journal the upstream holds (its `bad-receipt` alarm), whoever signed the receipt;
  // said by key (its English the detail), the alarm's own text in the log.
  syncEvents.alarm = (alarm) => {
    log.error({ alarm }, 'upstream sync alarm');
    if (alarm.kind === 'bad-receipt') tilts.raise('upstream-receipt', { say: receiptAlarmSaid(alarm) });
  };
  // The witness: new bets stop while it is behind beyond its limits; a refusal (the journal no
  // longer the chain it signed, or the host's own checkpoint not the state its entries make) halts
  // the table like any failed verification, and so does a witness answering out of protocol (a
  // signature that does not verify with its key). Heads go to it only from a journal this start verified.
  if (witness) {
    witnessEvents.stop = (stop) => onWitnessSignal(tilts, stop, tiltDetailSaid('unwitnessedBeyondLimit'));
    witnessEvents.alarm = (alarm) => {
      log.error({ alarm }, 'ledger witness alarm');
      tilts.raise('ledger-integrity', { detail: alarm.message.slice(0, 300), say: witnessAlarmSaid(alarm) });
    };
    onWitnessSignal(tilts, false);
    if (recovery.ledgerVerified) witness.start();
  }
  watchLedgerWrites(ledger, log, tilts, timers, stops);
  // A throw a device's driver caught from a listener or hook (hardware/clock.ts), logged: it was
  // swallowed without a trace (a review of 2 December, L3).
  stops.add(
    'faults',
    'the device listener fault log',
    onListenerFault((err) => log.error({ err }, 'a device listener threw (caught: the device goes on)')),
  );
  // The table's clock against the upstream's, as a fault a technician sees (docs/tito.md, "The table's clock").
  const clockWatch = new FloorClockWatch({ clock: syncEvents.clock, tilts, timers });
  stops.add('watches', 'the table clock watch', () => clockWatch.stop());
  clockWatch.start();
  // New bets stop before the disk under the ledger fills (host/tilts/disk-space.ts).
  const disk = new DiskSpaceMonitor({ dir: dataDir, tilts, log, timers });
  stops.add('watches', 'the disk-space monitor', () => disk.stop());
  disk.start();
  // Off the host's thread, while the table plays: an index forged or a page gone bad past the size
  // the open checks whole halts the table (ledger-integrity), as a failed verification does.
  const ledgerCheck = new LedgerFileWatch({ file: ledger.file, tilts, log, timers });
  stops.add('watches', 'the ledger file check', () => ledgerCheck.stop());
  ledgerCheck.start();
  return { disk, ledgerCheck, clockWatch };
}

/**
 * A schema changed under the running host (a trigger planted through a second connection) makes
 * the ledger refuse every append (ledger/write-check.ts): the table halts on it, by a fault held
 * though its own entry cannot be written (host/tilts/tilt-manager.ts), so a technician sees why.
 * Every write is refused while it lasts, and a busy table asks for many: the first is logged in
 * full, the rest counted and said at most once a minute (RefusalLog), or the log and the disk
 * under it flooded; the first write after it is put right says how many there were.
 */
function watchLedgerWrites(
  ledger: Opened['ledger'],
  log: Opened['log'],
  tilts: TableRuntime['tilts'],
  timers: TableRuntime['timers'],
  stops: StartStops,
): void {
  // The raise appends, and its refusal comes back here: once is enough.
  let halting = false;
  const refusals = new RefusalLog({ log, timers });
  const said = { fields: {}, entry: {}, msg: 'ledger write refused', fatal: 'ledger write refused' };
  const offLost = onLedgerWriteLost(ledger, (e) => {
    if (halting) return;
    halting = true;
    try {
      refusals.refused('ledger-write-lost', e, said);
      tilts.raise('ledger-integrity', { say: tiltDetailSaid('ledgerWriteLost', { problem: e.message.slice(0, 240) }) });
    } finally {
      halting = false;
    }
  });
  // Put right: how many were refused in all, and a next loss said in full again.
  const offAppended = ledger.onAppended(() => {
    const total = refusals.wentThrough('ledger-write-lost');
    if (total !== undefined) log.warn({ refused: total }, 'the ledger takes writes again');
  });
  // One step of the start's stops, both listeners (the start's unwind names its steps).
  stops.add('faults', 'the ledger write watch', () => {
    offLost();
    offAppended();
  });
}

/**
 * A witness alarm said by key (the service screen words a fault's detail by key only; the text
 * stays in the log): a refusal with its reason's code, a protocol fault, a head gone back.
 */
function witnessAlarmSaid(alarm: WitnessAlarm): Said {
  if (alarm.kind === 'witness-refused') return tiltDetailSaid('witnessRefused', { reason: alarm.refusal });
  if (alarm.kind === 'witness-backwards') return tiltDetailSaid('witnessBackwards', { from: alarm.from, to: alarm.to });
  return tiltDetailSaid('witnessProtocol');
}

/**
 * The upstream's bad receipt said by key (the service screen words a fault's detail by key only;
 * the alarm's text stays in the log): the entry it names beside the one acknowledged, no key to
 * check it with, or a signature that does not verify.
 */
function receiptAlarmSaid(alarm: BadReceipt): Said {
  if (alarm.problem === 'other-head') return tiltDetailSaid('receiptOtherHead', { seq: alarm.seq, acked: alarm.acked });
  if (alarm.problem === 'no-key') return tiltDetailSaid('receiptNoKey');
  return tiltDetailSaid('receiptNotVerified', { seq: alarm.seq });
}
