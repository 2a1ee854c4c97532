import type { TableShoe } from '../devices/shoe.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/** /healthz's body, which each upstream heartbeat carries too. */
export function healthSnapshot(
  { config, terminalId, ledger, sync, witness, softwareVersion }: Pick<Opened, 'config' | 'terminalId' | 'ledger' | 'sync' | 'witness' | 'softwareVersion'>,
  { table, billAcceptors, recovery }: Pick<TableRuntime, 'table' | 'billAcceptors' | 'recovery'>,
  { shoe, floor }: { shoe: TableShoe; floor: FloorServices },
): () => Record<string, unknown> {
  const started = Date.now();
  return () => ({
    tableId: config.tableId,
    game: config.game,
    version: softwareVersion,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    terminalId,
    devices: { shoe: shoe.state(), billAcceptors: billAcceptors.statuses() },
    ledger: { head: ledger.headOf().seq, verified: recovery.ledgerVerified },
    recovery: { resumedRound: recovery.resumedRound, voided: recovery.voided.length, tableHold: recovery.tableHold },
    // What a monitor needs to see a held or faulted table without opening service mode.
    table: { phase: table.view().phase, hold: table.view().hold, faults: floor.tilts.list().map((t) => t.kind) },
    sync: sync ? sync.status() : 'off',
    witness: witness ? witness.status() : 'off',
  });
}
