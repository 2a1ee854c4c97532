// What a test, the host's simulated mode, or `npm run devices -- simulate` can do to a simulated
// bill acceptor. Both the ID-003 and the SSP simulators implement it.

/** Steps of the acceptance sequence; a power cut armed on a step happens right after the device reported it. */
export type BillStep = 'accepting' | 'escrow' | 'stacking' | 'stacking-late' | 'credit' | 'stacked';

export type WireFault = 'garble' | 'truncate' | 'drop' | 'noise';

/** The note a simulator holds, and how far it went: past `no-return` it ends in the cashbox whatever happens. */
export interface NoteInPath {
  /** Counts the notes the unit took in, so a test can tell one note from the next of the same value. */
  serial: number;
  denomination: number;
  /** ID-003 escrow code or SSP channel. */
  code: number;
  stage: 'reading' | 'escrow' | 'stacking' | 'no-return' | 'returning';
}

export interface TicketLies {
  escrowAnything?: boolean;
  swapTo?: string;
  swapAt?: 'escrow' | 'stacking';
  stackWhenReturned?: boolean;
}

/**
 * What goes wrong in a bill acceptor, and the technician's hand that puts it right: each is a status
 * the driver must report as a tilt (docs/protocols/id003.md and ssp.md, "Simulator"). Both simulators
 * give theirs as `faults`; the notes a test inserts and the money it reads back stay on the simulator.
 */
export interface BillAcceptorFaults {
  jam(where?: 'acceptor' | 'stacker'): void;
  stackerFull(): void;
  removeStacker(): void;
  replaceStacker(): void;
  /** A fishing attempt: a note still short of escrow's end is pulled back out (no credit). */
  cheat(): void;
  fail(code?: number): void;
  /** The technician clears a jam (the stuck note goes to `jammed`) / empties the stacker / resets the error. */
  clear(): void;
}

export interface BillAcceptorSimControls {
  readonly protocol: 'id003' | 'ssp';
  /** Insert a note of this face value; `reject` makes the validator refuse it (ID-003 reject code). */
  insertNote(denomination: number, options?: { reject?: number }): void;
  /**
   * Insert a barcode ticket (ID-003 only). A real unit refuses a barcode that is not 18 digits
   * (count error 0x93, unknown barcode 0x92); the lies: `escrowAnything` escrows it anyway,
   * `swapTo` reports other digits after the first ESCROW report (`swapAt: 'escrow'`) or after
   * STACK (`'stacking'`), `stackWhenReturned` stacks it when told RETURN.
   */
  insertTicket?(barcode: string, options?: TicketLies): void;
  readonly faults: BillAcceptorFaults;
  /** Cut the power now, or right after the device reports `at`; restore after restoreAfterMs if given. */
  powerCut(options?: { at?: BillStep; restoreAfterMs?: number }): void;
  powerOn(): void;
  /** Damage the next reply(ies) on the wire. */
  wireFault(kind: WireFault, count?: number): void;
  readonly powered: boolean;
  /** Face values now in the cashbox (what the casino will count). */
  readonly cashbox: readonly number[];
  /** The note in the path now, if any. */
  readonly inPath: NoteInPath | null;
  /**
   * A note or ticket is in the path or still waiting to be drawn in: a player (autoplay) holds the
   * next one until the unit has taken this one, as a person at the slot does.
   */
  readonly busy: boolean;
  /** Face values given back to the customer. */
  readonly returned: readonly number[];
  /** Face values stuck in a jam and removed by a technician. */
  readonly jammed: readonly number[];
}
