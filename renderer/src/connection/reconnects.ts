import { HeldBackoff, type Backoff } from '../../../engine/backoff.js';

/**
 * A screen's reconnects wait from 1 s, doubled, capped at 10 s, the upper half of each wait random. A remote station's screen reaches its table through
 * its station agent, which dials the table for each link the screen opens: a stadium's 250
 * screens lose their table at the same instant when it restarts, and without the jitter came back
 * at the same instants too, each with its TLS handshake and its whole snapshot.
 */
export const RECONNECT: Backoff = { baseMs: 1000, capMs: 10_000 };

/**
 * How long a link must have held after its snapshot for its loss to start the waits over. A host
 * that sends the snapshot and cuts (one that is overloaded and cuts a screen at its send cap, or
 * restarts over and over) was reconnected to after 1 s every time, a whole snapshot a second.
 */
export const RECONNECT_HELD_MS = 30_000;

/** The clock and the random numbers of the waits (the page's own; a test passes its own). */
export interface ReconnectSource {
  readonly now: () => number;
  readonly random: () => number;
}

const pageSource: ReconnectSource = { now: () => Date.now(), random: Math.random };

/** The waits of one screen link's reconnects. */
export class Reconnects {
  private readonly waits: HeldBackoff;

  constructor(private readonly source: ReconnectSource = pageSource) {
    this.waits = new HeldBackoff({ ...RECONNECT, jitter: { share: 0.5, random: source.random } }, RECONNECT_HELD_MS);
  }

  /** The host sent the link's snapshot: the link is up. */
  up(): void {
    this.waits.up(this.source.now());
  }

  /** The link went, or a connect failed: the wait before the next try (ms). */
  next(): number {
    return this.waits.next(this.source.now());
  }
}
