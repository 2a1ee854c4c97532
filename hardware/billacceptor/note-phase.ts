// Where the note cycle stands as the host has seen and commanded it. Both drivers keep one, and
// move it only through their protocol's transition table (id003/transitions.ts, ssp/transitions.ts):
// a report the table does not allow from the current phase is a violation, never a credit.
import type { EscrowedNote, ViolationRule } from './types.js';

/**
 * - `idle`: no note in escrow as far as the host knows;
 * - `escrow`: a note reported in escrow, not (yet) told to stack, or its STACK refused;
 * - `stack-sent`: the host told the device to stack it (SSP: the POLL after the decision);
 * - `return-sent`: the host told the device to give it back, or the device said it does;
 * - `credited`: its credit point was seen and journalled;
 * - `disputed`: the device broke its protocol over this cycle: nothing credits it, and notes
 *   offered before the device is idle again are given back.
 */
export type Phase = 'idle' | 'escrow' | 'stack-sent' | 'return-sent' | 'credited' | 'disputed';

export const PHASES: readonly Phase[] = ['idle', 'escrow', 'stack-sent', 'return-sent', 'credited', 'disputed'];

export interface NoteCycle {
  phase: Phase;
  /** The note of the cycle; null when idle (and for a dispute with no note, e.g. a credit out of nowhere). */
  note: EscrowedNote | null;
  /** `returned` was emitted for this note already (the host journals it once). */
  returnEmitted: boolean;
}

export const IDLE: NoteCycle = Object.freeze({ phase: 'idle', note: null, returnEmitted: false });

/** A cell of a transition table: what to do, or the rule the report breaks. */
export type Step<Action extends string> = Action | { fault: ViolationRule };

/** Every phase × every report kind: TypeScript checks that no cell is missing. */
export type TransitionTable<Report extends string, Action extends string> = Readonly<Record<Phase, Readonly<Record<Report, Step<Action>>>>>;

export function isFault<A extends string>(s: Step<A>): s is { fault: ViolationRule } {
  return typeof s === 'object';
}

/** The escrowed note of a cycle, if the phase holds one the host may still credit. */
export function creditable(c: NoteCycle): EscrowedNote | null {
  return c.phase === 'stack-sent' ? c.note : null;
}
