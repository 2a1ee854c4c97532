import type { RemoteStations } from '../stadium/remote-stations.js';
import type { StationConnections } from './screen-session.js';

/**
 * The screen connections open per remote station: a revoked (or re-enrolled) credential closes
 * them at once, so a station that lost its credential reads nothing more.
 */
export class RemoteStationConnections implements StationConnections {
  private readonly open = new Map<number, Set<() => void>>();

  constructor(stations: RemoteStations) {
    stations.onRevoked((station) => {
      for (const close of [...(this.open.get(station) ?? [])]) close();
    });
  }

  opened(station: number, close: () => void): () => void {
    let set = this.open.get(station);
    if (!set) this.open.set(station, (set = new Set()));
    set.add(close);
    return () => {
      set.delete(close);
      if (set.size === 0) this.open.delete(station);
    };
  }

  /** Remote stations with a screen connected now. */
  connected(): number[] {
    return [...this.open.keys()].sort((a, b) => a - b);
  }
}
