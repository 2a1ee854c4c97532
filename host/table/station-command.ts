// A station's command to the table, one type with one mapping each way (issue 53 item 1): from the
// screen's command (the protocol's `CommandBody`) and to the engine's input (`TableInput`). The
// view hub's submit, the runtime's group commit and its named commands (placeBet, clearBets,
// decide: the test kit's, the simulators') all pass through these two functions, so a field added
// to a bet or a decision is written here once.
import type { TableInput } from '../../engine/table/inputs.js';
import type { DecisionAction, Spot } from '../../engine/table/vocabulary.js';
import type { CommandBody } from '../../protocol/index.js';

/** A station's command to the table: a bet, its chips cleared, a decision. */
export type StationCommand =
  | { kind: 'place-bet'; station: number; spot: Spot; amount: number }
  | { kind: 'clear-bets'; station: number }
  | { kind: 'decide'; station: number; action: DecisionAction; amount?: number };

/** The screen's commands that go to the table (the others are the hub's, the floor's, service mode's). */
export type TableCommandBody = Extract<CommandBody, { name: StationCommand['kind'] }>;

export function isTableCommand(c: CommandBody): c is TableCommandBody {
  return c.name === 'place-bet' || c.name === 'clear-bets' || c.name === 'decide';
}

/** A screen's command, from the station whose view sent it. */
export function stationCommand(station: number, c: TableCommandBody): StationCommand {
  switch (c.name) {
    case 'place-bet':
      return { kind: 'place-bet', station, spot: c.spot, amount: c.amount };
    case 'clear-bets':
      return { kind: 'clear-bets', station };
    case 'decide':
      return { kind: 'decide', station, action: c.action, ...(c.amount !== undefined ? { amount: c.amount } : {}) };
  }
}

/** The table's input for a station's command made at `at` (the shell's clock). */
export function commandInput(c: StationCommand, at: number): TableInput {
  switch (c.kind) {
    case 'place-bet':
      return { kind: 'place-bet', at, station: c.station, spot: c.spot, amount: c.amount };
    case 'clear-bets':
      return { kind: 'clear-bets', at, station: c.station };
    case 'decide':
      return { kind: 'decide', at, station: c.station, action: c.action, ...(c.amount !== undefined ? { amount: c.amount } : {}) };
  }
}
