import { isRegulatedProfile, knownProfiles } from '../../engine/games.js';
import { seatsWaiting } from '../../engine/table/seat-change.js';
import { minorDigits } from '../../locales/money.js';
import type { TableConfig } from '../config/table-config.js';
import type { TableShoe } from '../devices/shoe.js';
import type { FloorServices } from '../floor/floor-services.js';
import type { Opened } from './opened.js';
import type { TableRuntime } from './table-runtime.js';

/**
 * The table's currency as the upstream keeps it (issue 49): the configuration's ISO 4217 code and
 * its minor-unit exponent (ISO 4217's, through Intl), so the back office labels every amount of
 * this table by it and never adds it to another currency's.
 */
export function tableCurrency(config: Pick<TableConfig, 'currency'>): { code: string; exponent: number } {
  return { code: config.currency, exponent: minorDigits(config.currency) };
}

/** /healthz's body, which each upstream heartbeat carries too. */
export function healthSnapshot(
  { config, terminalId, ledger, sync, witness, softwareVersion }: Pick<Opened, 'config' | 'terminalId' | 'ledger' | 'sync' | 'witness' | 'softwareVersion'>,
  { table, billAcceptors, recovery }: Pick<TableRuntime, 'table' | 'billAcceptors' | 'recovery'>,
  { shoe, floor }: { shoe: TableShoe; floor: FloorServices },
): () => Record<string, unknown> {
  // The monotonic clock: a wall clock set back an hour made the uptime a heartbeat carries negative.
  const started = performance.now();
  return () => ({
    tableId: config.tableId,
    game: config.game,
    // The profile in play (the game's, which a change at a shoe switches) and the game's others a
    // table may play (a text governs them; not the analysis profile): the back office offers these only.
    profile: table.game.profile,
    profiles: knownProfiles(config.game).filter((p) => isRegulatedProfile(config.game, p) === true),
    currency: tableCurrency(config),
    version: softwareVersion,
    uptimeSeconds: Math.round((performance.now() - started) / 1000),
    terminalId,
    devices: { shoe: shoe.state(), billAcceptors: billAcceptors.statuses() },
    ledger: { head: ledger.headOf().seq, verified: recovery.ledgerVerified },
    recovery: { resumedRound: recovery.resumedRound, voided: recovery.voided.length, tableHold: recovery.tableHold },
    // What a monitor needs to see a held or faulted table without opening service mode.
    // A seating waiting for the round in play to end (a file changed while it was dealt): the stations it moves.
    table: {
      phase: table.reads.view().phase,
      hold: table.reads.view().hold,
      faults: floor.tilts.list().map((t) => t.kind),
      ...seatsNextOf(table.state),
    },
    sync: sync ? sync.status() : 'off',
    witness: witness ? witness.status() : 'off',
  });
}

function seatsNextOf(state: Parameters<typeof seatsWaiting>[0]): { seatsNext?: { station: number; seat: number }[] } {
  const waiting = seatsWaiting(state);
  return waiting !== null ? { seatsNext: waiting } : {};
}
