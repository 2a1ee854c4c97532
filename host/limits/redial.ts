// When a link, or a device's port, that went is tried again. Written once for the four that had it
// written each their own way: the station agent's device link and a table's link to a peer table
// (each reset its backoff at every open until a stall review, then each grew the same fix), and
// the agent's two port relays (which still reset theirs at every open: a port that went as it
// opened was opened again every 250 ms for as long as it went on).
import { HeldBackoff, type Backoff } from '../../engine/backoff.js';
import { elapsedOf, type Clock } from '../../hardware/clock.js';

/**
 * How long a station's own port (its acceptor's, its SAS line's) must have stayed open for its
 * loss to start the backoff over: twice the backoff's cap, so a port that flaps at any rate is
 * opened again at most about once every 5 s.
 */
export const PORT_HELD_MS = 10_000;

/**
 * A link's waits, for the links a crowd may share (a host restarted under 250 stations, a floor's
 * tables restarted at once): from 200 ms, doubled, capped at 5 s, the upper half of each random.
 */
export const LINK_BACKOFF: Omit<Backoff, 'jitter'> = { baseMs: 200, capMs: 5000 };

/**
 * The ping intervals a welcomed link must hold before its loss starts the backoff over (45 s at
 * the 15 s pings). A peer that stops answering pings is cut within two, one that stops reading at
 * its send cap whenever that fills: either, cut sooner, is dialled again after a longer wait.
 */
export const LINK_HELD_PINGS = 3;

/** The tries of a link pinged every `pingMs`: LINK_BACKOFF with its jitter, held after LINK_HELD_PINGS. */
export function linkRedial(pingMs: number, random: () => number, clock: Clock): Redial {
  return new Redial({ backoff: { ...LINK_BACKOFF, jitter: { share: 0.5, random } }, heldMs: LINK_HELD_PINGS * pingMs, clock });
}

/**
 * The tries of a station's own port (its acceptor's, its SAS line's): from 250 ms, doubled, capped
 * at 5 s, no jitter (no crowd comes back with it), over only after a port held PORT_HELD_MS.
 */
export function portRedial(clock: Clock): Redial {
  return new Redial({ backoff: { baseMs: 250, capMs: 5000 }, heldMs: PORT_HELD_MS, clock });
}

export interface RedialOptions {
  /** The waits between tries. */
  readonly backoff: Backoff;
  /** How long the link must have been up (welcomed, a port open) for its loss to start the waits over. */
  readonly heldMs: number;
  readonly clock: Clock;
}

/**
 * The tries of one link or port: each loss, and each try that failed, is tried again after a wait
 * that grows (`backoff`), and the waits start over only once the link had been up for `heldMs`. A
 * peer that takes the link and stalls, or welcomes and cuts, and a cable that drops as the port
 * opens, are each tried at the capped wait, never at the first one over and over. A link may also
 * owe a welcome by a deadline (`expectWelcome`): one that never welcomes is cut, not held down.
 */
export class Redial {
  private readonly waits: HeldBackoff;
  private retryTimer: unknown = null;
  private welcomeTimer: unknown = null;
  private stopped = false;

  constructor(private readonly o: RedialOptions) {
    this.waits = new HeldBackoff(o.backoff, o.heldMs);
  }

  /** The link opened and owes its welcome within `ms`: `late` runs if `up` has not been said by then. */
  expectWelcome(ms: number, late: () => void): void {
    this.clearWelcome();
    if (this.stopped) return;
    this.welcomeTimer = this.o.clock.setTimeout(() => {
      this.welcomeTimer = null;
      if (!this.waits.isUp() && !this.stopped) late();
    }, ms);
  }

  /** The link is up (welcomed; a port opened). Said again while up, it changes nothing. */
  up(): void {
    this.clearWelcome();
    this.waits.up(elapsedOf(this.o.clock));
  }

  /**
   * The link went, or a try failed: `again` runs after the wait, the first wait again if the link
   * had been up for `heldMs`. The wait armed, in ms (none once stopped).
   */
  lost(again: () => void): number | null {
    this.clearWelcome();
    const ms = this.waits.next(elapsedOf(this.o.clock));
    if (this.stopped) return null;
    if (this.retryTimer !== null) this.o.clock.clearTimeout(this.retryTimer);
    this.retryTimer = this.o.clock.setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) again();
    }, ms);
    return ms;
  }

  /** No try is made after it, and no timer is left armed. */
  stop(): void {
    this.stopped = true;
    this.clearWelcome();
    if (this.retryTimer !== null) this.o.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private clearWelcome(): void {
    if (this.welcomeTimer !== null) this.o.clock.clearTimeout(this.welcomeTimer);
    this.welcomeTimer = null;
  }
}
