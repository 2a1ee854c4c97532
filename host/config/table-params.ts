import type { TableParams } from '../../engine/table/state.js';
import type { TableConfig } from './table-config.js';

/** What the table's state machine plays by, from the running configuration. */
export function tableParams(config: TableConfig): TableParams {
  return {
    tableId: config.tableId,
    stations: config.stations.map((s) => ({ station: s.station, seat: s.seat })),
    ...(config.remoteStations > 0 ? { remote: config.remoteStations } : {}),
    limits: { ...config.limits },
    betLimits: { ...config.betLimits },
    timings: { ...config.timings },
    ...(config.roundMax !== undefined ? { roundMax: config.roundMax } : {}),
  };
}
