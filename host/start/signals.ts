import { DiskSpaceMonitor } from '../tilts/disk-space.js';
import { LedgerFileWatch } from '../tilts/ledger-file-watch.js';
import { tiltDetailSaid } from '../../locales/said.js';
import { onUpstreamSignal, onWitnessSignal } from '../tilts/tilt-sources.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/**
 * What stops new bets from outside the table, each through its fault: the upstream beyond its
 * offline limit, the witness behind (or refusing the journal), the disk under the ledger filling;
 * and what halts the table from the ledger's file, checked whole in the background. Returns the
 * disk monitor and the file's check, started.
 */
export function routeSignals(
  dataDir: string,
  { ledger, log, sync, syncEvents, witness, witnessEvents }: Pick<Opened, 'ledger' | 'log' | 'sync' | 'syncEvents' | 'witness' | 'witnessEvents'>,
  { tilts, recovery, timers }: Pick<TableRuntime, 'tilts' | 'recovery' | 'timers'>,
): { disk: DiskSpaceMonitor; ledgerCheck: LedgerFileWatch } {
  // New bets stop through the upstream-offline fault, so every stop has one place and one record.
  syncEvents.stopNewBets = (stop) => onUpstreamSignal(tilts, stop, tiltDetailSaid('unsyncedBeyondLimit'));
  // The signal fires on changes only: state the current one (a restored fault may have gone).
  onUpstreamSignal(tilts, sync?.status().stopNewBets ?? false, tiltDetailSaid('unsyncedBeyondLimit'));
  // A receipt of the upstream that does not verify is journalled as a fault, so the floor hears of it
  // through the journal the upstream holds (its `bad-receipt` alarm), whoever signed the receipt.
  syncEvents.alarm = (alarm) => {
    log.error({ alarm }, 'upstream sync alarm');
    if (alarm.kind === 'bad-receipt') tilts.raise('upstream-receipt', { detail: alarm.message.slice(0, 300) });
  };
  // The witness: new bets stop while it is behind beyond its limits; a refusal (the journal no
  // longer the chain it signed, or the host's own checkpoint not the state its entries make) halts
  // the table like any failed verification, and so does a witness answering out of protocol (a
  // signature that does not verify with its key). Heads go to it only from a journal this start verified.
  if (witness) {
    witnessEvents.stop = (stop) => onWitnessSignal(tilts, stop, tiltDetailSaid('unwitnessedBeyondLimit'));
    witnessEvents.alarm = (alarm) => {
      log.error({ alarm }, 'ledger witness alarm');
      tilts.raise('ledger-integrity', { detail: alarm.message.slice(0, 300) });
    };
    onWitnessSignal(tilts, false);
    if (recovery.ledgerVerified) witness.start();
  }
  // New bets stop before the disk under the ledger fills (host/tilts/disk-space.ts).
  const disk = new DiskSpaceMonitor({ dir: dataDir, tilts, log, timers });
  disk.start();
  // Off the host's thread, while the table plays: an index forged or a page gone bad past the size
  // the open checks whole halts the table (ledger-integrity), as a failed verification does.
  const ledgerCheck = new LedgerFileWatch({ file: ledger.file, tilts, log, timers });
  ledgerCheck.start();
  return { disk, ledgerCheck };
}
