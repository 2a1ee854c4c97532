import type { FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Logger } from 'pino';
import type { Language } from '../../protocol/index.js';
import type { TimerKind } from '../../engine/table/state.js';
import type { ScreenSession, ScreenTransport } from '../screens/screen-session.js';
import type { ConnectionLimits, GuardClose } from '../limits/connection-guard.js';

/**
 * What `/sim/printer-fault` does to a station's simulated printer: out of paper or jammed now (its
 * next cash-out a handpay), the next ticket jammed once its number is printed (a ticket the printer
 * cannot judge, held for a person), or cleared.
 */
export const PRINTER_SIM_FAULTS = ['paper-out', 'jam', 'jam-mid-ticket', 'clear'] as const;
export type PrinterSimFault = (typeof PRINTER_SIM_FAULTS)[number];

export type ServiceExportKind = 'meters.csv' | 'meters.json' | 'meters.html' | 'evidence' | 'enrolment' | 'peer-enrolment';

export interface HttpServerDeps {
  openSession: (transport: ScreenTransport) => ScreenSession;
  log: Logger;
  /** The built renderer (`dist/renderer`); without it the host still serves the protocol. */
  rendererDir: string;
  health: () => Record<string, unknown>;
  /** The hello deadline and the caps of this listener (connection-guard.ts). */
  connections: ConnectionLimits;
  /** Each connection the guard closed, by reason (/metrics). */
  onGuardClose?: (reason: GuardClose) => void;
  /**
   * Prometheus metrics at `/metrics`, answered only to `Authorization: Bearer <token>` (the
   * token of `--metrics-token-file`, not a screen's); absent: no metrics route.
   */
  metrics?: { token: string; contentType: string; text: () => Promise<string> };
  /**
   * Simulated mode's control channel for tests and demos (`--sim-controls`): insert a note at a
   * simulated acceptor. Absent unless asked for; needs its own token; loopback only, like all.
   */
  simControls?: {
    token: string;
    /** `jamAfterStack`: the acceptor jams with the note in its path once the host has journalled it in escrow (a note held for a person). */
    insertNote(station: number, note: number, lie?: { jamAfterStack: true }): string | null;
    /** The next card the simulated dealer pulls reads as unreadable; null, or why not. */
    unreadableNext(): string | null;
    /** The dealer draws a card now that the table did not ask for (a dealing error to correct); null, or why not. */
    misdraw(): string | null;
    /** The simulated dealer draws this many more cards of the round (burns not counted), then holds until released; null, or why not. */
    holdDealer(cards: number): string | null;
    /** The simulated dealer draws again as the table asks; null, or why not. */
    releaseDealer(): string | null;
    /**
     * A ticket's barcode (18 digits) inserted at a station's simulated acceptor (ID-003 only); null,
     * or why not. `swapAfterStack`: once told to STACK, the unit reports these digits in escrow
     * instead, breaking its protocol (`escrow-changed`): an approved ticket held for a person.
     */
    insertTicket(station: number, barcode: string, lie?: { swapAfterStack: string }): string | null;
    /** The player takes the tickets out of a station's simulated printer: the validation numbers printed on them, oldest first; or why not. */
    takeTicket(station: number): { barcodes: string[] } | string;
    /** Jams a station's simulated bill acceptor (a fault the screens must word), or clears it. */
    billFault(station: number, fault: 'jam' | 'clear'): string | null;
    /** Faults a station's simulated ticket printer (paper out, a paper jam) or clears it: its next cash-out is a handpay. */
    printerFault(station: number, fault: PrinterSimFault): string | null;
    /** The countdown of this kind running now ends at once; null, or why not. */
    endCountdown(kind: TimerKind): string | null;
    /** The countdown of this kind running now waits for endCountdown; null, or why not. */
    freezeCountdown(kind: TimerKind): string | null;
  };
  /**
   * Service mode's exports (meters CSV/JSON, a round's evidence bundle), answered only for the
   * export token of the signed-in service session (`?t=`); null refuses.
   */
  serviceExport?: (
    token: string,
    kind: ServiceExportKind,
    roundId?: string,
    language?: Language,
  ) => { contentType: string; filename: string; body: string; inline?: boolean } | null;
}

/** Simulated mode's control channel (`HttpServerDeps.simControls`). */
export type SimControls = NonNullable<HttpServerDeps['simControls']>;

/** The host's fastify app, logging with the host's pino logger: what each route file registers on. */
export type HostApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, Logger>;
