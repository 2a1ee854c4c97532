import { tiltDetailSaid } from '../../locales/said.js';
import type { TableConfig } from '../config/table-config.js';
import type { Said } from '../config/refusal-words.js';

/** The table's faults, as a start reads and clears them (the TiltManager). */
interface Closings {
  list(): readonly { kind: string; station?: number }[];
  conditionGone(kind: 'ticket-in-closed', station: number, say?: Said): void;
}

/**
 * A station closed to tickets when it was removed from the configuration is never watched
 * reopening: its fault, restored from the journal, would stay open for ever, so the start without
 * it ends it, saying why (docs/tito.md). Not one this start closed again (`closedNow`: an open
 * attempt's end refused there just now): that one is watched, and clears once the end is journalled.
 */
export function clearRemovedClosings(faults: Closings | undefined, config: TableConfig, closedNow: (station: number) => boolean): void {
  if (!faults) return;
  const configured = new Set(config.stations.map((s) => s.station));
  for (const f of faults.list())
    if (f.kind === 'ticket-in-closed' && f.station !== undefined && !configured.has(f.station) && !closedNow(f.station))
      faults.conditionGone('ticket-in-closed', f.station, tiltDetailSaid('ticketInStationRemoved'));
}
