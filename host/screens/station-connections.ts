import type { RemoteStations } from '../stadium/remote-stations.js';
import type { StationConnections, StationScreenClose } from './screen-session.js';

/**
 * The screen sessions one station credential may hold at once; a newer one closes the oldest (as
 * a newer device link replaces the older). A station's machine shows one screen per table (its
 * agent relays each local screen over one link); a reload or a reconnect overlaps the old link for
 * a moment, and a second local window (a technician's) may be open: 4 leaves room for all of them.
 * Before this there was no bound: a greeted session is never evicted by the connection guard, and
 * one station's credential from 75 addresses × 8 sessions filled the LAN listener's 600, so every
 * other station's reconnect was refused.
 */
export const SCREENS_PER_STATION = 4;

/**
 * The screen connections open per remote station at one listener (the host's LAN listener, an
 * edge's): past SCREENS_PER_STATION the oldest is closed ('replaced').
 */
export class StationScreens implements StationConnections {
  private readonly open = new Map<number, Set<StationScreenClose>>();

  opened(station: number, close: StationScreenClose): () => void {
    let set = this.open.get(station);
    if (!set) this.open.set(station, (set = new Set()));
    // A Set iterates in insertion order: the first is the oldest. Its close releases it from the set.
    for (const oldest of set) {
      if (set.size < SCREENS_PER_STATION) break;
      set.delete(oldest);
      oldest('replaced');
    }
    set.add(close);
    return () => {
      set.delete(close);
      if (set.size === 0) this.open.delete(station);
    };
  }

  /** Closes every screen of the station ('revoked'). */
  protected revoke(station: number): void {
    for (const close of [...(this.open.get(station) ?? [])]) close('revoked');
  }

  /** Remote stations with a screen connected now. */
  connected(): number[] {
    return [...this.open.keys()].sort((a, b) => a - b);
  }
}

/**
 * The screen connections open per remote station at the host's LAN listener: a revoked (or
 * re-enrolled) credential closes them at once, so a station that lost its credential reads nothing
 * more; past SCREENS_PER_STATION the oldest is closed.
 */
export class RemoteStationConnections extends StationScreens {
  constructor(stations: RemoteStations) {
    super();
    stations.onRevoked((station) => this.revoke(station));
  }
}
