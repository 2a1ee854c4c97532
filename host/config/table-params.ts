import type { TableParams } from '../../engine/table/state.js';
import { jackpotStake } from '../../engine/games.js';
import type { TableConfig } from './table-config.js';

/** What the table's state machine plays by, from the running configuration. */
export function tableParams(config: TableConfig): TableParams {
  // The jackpot bet is one chip of the program's amount: its only limit.
  const stake = jackpotStake(config.game, config.profileOptions);
  return {
    tableId: config.tableId,
    stations: config.stations.map((s) => ({ station: s.station, seat: s.seat })),
    ...(config.remoteStations > 0 ? { remote: config.remoteStations } : {}),
    limits: { ...config.limits },
    betLimits: { ...config.betLimits, ...(stake !== undefined ? { jackpot: { min: stake, max: stake } } : {}) },
    timings: { ...config.timings },
    ...(config.roundMax !== undefined ? { roundMax: config.roundMax } : {}),
    // A progressive award above the two-person handpay amount is paid by hand, by two people (host/floor).
    ...(stake !== undefined ? { jackpotHandpayAbove: config.handpayTwoPersonAbove } : {}),
    // The stakes and handpays the table journals name it (a change of currency leaves them in theirs).
    currency: config.currency,
  };
}
