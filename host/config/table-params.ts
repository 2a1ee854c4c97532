import type { TableParams } from '../../engine/table/state.js';
import { JACKPOT_PROGRAM_OPTION } from '../../engine/blackjack/jackpot/option.js';
import { parseJackpotProgram } from '../../engine/blackjack/jackpot/program.js';
import type { TableConfig } from './table-config.js';

/** What the table's state machine plays by, from the running configuration. */
export function tableParams(config: TableConfig): TableParams {
  const program = config.profileOptions[JACKPOT_PROGRAM_OPTION];
  // Rule 47: the jackpot bet is one chip «no montante previamente definido» — its only limit.
  const stake = program === undefined ? undefined : parseJackpotProgram(program).stake;
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
  };
}
