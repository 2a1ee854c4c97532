// Test kit: the property tests' "faults" step (the table's gates set at random between its other
// steps), written once for the fold's and the station views' property tests. Each builds its own
// arbitrary of it (fast-check is for test files alone: the layering rule).
import type { FaultGates } from '../../engine/table/state.js';

/** The table halted, new bets stopped, the jackpot stopped and some stations disabled, each or not. */
export interface FaultsAct {
  readonly kind: 'faults';
  readonly halted: boolean;
  readonly stopped: boolean;
  readonly jackpot: boolean;
  readonly disabled: number[];
}

/** The step's gates on the table (a shoe alarm halts, an acceptor fault stops new bets, a lost jackpot link stops the jackpot). */
export function applyFaults(table: { setFaults(gates: FaultGates): void }, a: FaultsAct): void {
  table.setFaults({
    halted: a.halted ? 'shoe-alarm' : null,
    newBetsStopped: a.stopped ? 'acceptor-fault' : null,
    jackpotStopped: a.jackpot ? 'jackpot-link' : null,
    disabled: a.disabled,
  });
}
