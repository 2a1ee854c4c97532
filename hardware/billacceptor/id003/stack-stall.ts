// How long ID-003 lets a note or ticket stay between the host's command and its outcome. An
// honest unit told to stack reports STACKING for a second or two, then VEND VALID (or gives the
// note back, or jams: each a report of its own); told to return, it reports RETURNING at once. A
// unit that says STACKING at every poll, or keeps the note in escrow however often it is told
// STACK or RETURN, holds the player's money and says nothing the table can act on. Past the limit
// (`stackTimeoutMs`, as SSP's quiet polls: docs/protocols/id003.md) it is a violation, held for a
// person: `note-vanished` for a stack, `return-refused` for a return.
import { elapsedOf, type Clock } from '../../clock.js';
import type { Phase, Step } from '../note-phase.js';
import type { ViolationRule } from '../types.js';
import type { Id003Action } from './transitions.js';

type Waiting = 'stack' | 'return';

export class StackStall {
  private waiting: Waiting | null = null;
  private since = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limitMs: number,
  ) {}

  /**
   * The rule this report breaks, with the words for it, when it is one more of a command still
   * not carried out past the limit; null otherwise. Any other report starts the count again.
   */
  check(phase: Phase, cell: Step<Id003Action>): { rule: ViolationRule; after: string } | null {
    const waiting = waitingFor(phase, cell);
    if (waiting !== this.waiting) {
      this.waiting = waiting;
      this.since = elapsedOf(this.clock);
      return null;
    }
    if (waiting === null || elapsedOf(this.clock) - this.since < this.limitMs) return null;
    this.waiting = null;
    return waiting === 'stack'
      ? { rule: 'note-vanished', after: `${this.limitMs} ms after STACK, no credit point` }
      : { rule: 'return-refused', after: `${this.limitMs} ms after RETURN, still in escrow` };
  }
}

function waitingFor(phase: Phase, cell: Step<Id003Action>): Waiting | null {
  if (phase === 'stack-sent' && (cell === 'stacking' || cell === 'stack-again')) return 'stack';
  if (phase === 'return-sent' && cell === 'return-again') return 'return';
  return null;
}
