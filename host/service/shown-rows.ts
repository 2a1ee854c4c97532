import { DEVICES_SHOWN, MAX_STATIONS, TILTS_SHOWN, type DeviceRow } from '../../protocol/index.js';
import type { TiltSummary } from './service-backend.js';

/**
 * The devices a Status or Devices page carries, at most DEVICES_SHOWN. A stadium table's relayed
 * remote acceptors are the host's devices too (docs/stadium.md, "Relay mode"), and past the limit
 * the page was out of its schema and never drawn. Shown first: the shoe and the seated stations'
 * acceptors, the device chosen, then remote ones in trouble (not ready, or taking nothing), then
 * the rest by station; each group in the list's order.
 */
export function shownDevices(rows: readonly DeviceRow[], chosen: string | null = null): DeviceRow[] {
  const rank = (d: DeviceRow): number => {
    if (d.station === undefined || d.station <= MAX_STATIONS || d.device === chosen) return 0;
    return d.state !== 'ready' || (d.inhibitedBy?.length ?? 0) > 0 ? 1 : 2;
  };
  return rows.length <= DEVICES_SHOWN ? [...rows] : [...rows].sort((a, b) => rank(a) - rank(b)).slice(0, DEVICES_SHOWN);
}

const SEVERITY_RANK = { critical: 0, warning: 1, info: 2 } as const;

/** The faults a Status page carries, at most TILTS_SHOWN: the most severe first where more are raised. */
export function shownTilts(tilts: TiltSummary[] | null): TiltSummary[] | null {
  if (tilts === null || tilts.length <= TILTS_SHOWN) return tilts;
  return [...tilts].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]).slice(0, TILTS_SHOWN);
}
