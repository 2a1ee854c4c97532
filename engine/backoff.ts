// One backoff for every link that tries again (issue 32: it was written nine times, two of them
// named backoffDelay): the devices' links, the sync and witness clients, the links between table
// hosts and from station agents, the screens' links to their host. Pure, with the randomness
// passed in, so a test (or a fuzz campaign on virtual time) sees the same waits every run.

/** How a link waits before trying again. */
export interface Backoff {
  /** The first wait: the wait doubles with each attempt from it. */
  readonly baseMs: number;
  /** The longest wait. */
  readonly capMs: number;
  /**
   * Each wait drawn at random in part, so that many links cut at once (a host restarted under 250
   * stations) do not all come back at once: `share` of the wait is random (1, all of it: "full
   * jitter"; 0.5, its upper half), `random` gives numbers in [0, 1) (Math.random, or a seeded one
   * in tests). None: the same waits every time, for a link that no crowd shares (a local device).
   */
  readonly jitter?: { readonly share: number; readonly random: () => number };
}

/** Doublings past this change nothing for any cap we use, and 2^attempt stays a plain number. */
const MAX_DOUBLINGS = 30;

/**
 * The wait before try number `attempt` after a failure (0: the first retry), in whole
 * milliseconds: `min(capMs, baseMs · 2^attempt)`, of which the jitter's share is random, so
 * `ceiling · (1 − share + share · random())`.
 */
export function backoffDelay(attempt: number, b: Backoff): number {
  // A count that is not one (negative, NaN) waits as the first retry does.
  const doublings = Math.min(Math.max(0, Math.floor(attempt) || 0), MAX_DOUBLINGS);
  const ceiling = Math.min(b.capMs, b.baseMs * 2 ** doublings);
  if (!b.jitter) return Math.floor(ceiling);
  const share = Math.min(1, Math.max(0, b.jitter.share || 0));
  // A random source that strays outside [0, 1) still gives a wait within [ceiling·(1−share), ceiling].
  const r = Math.min(1, Math.max(0, b.jitter.random() || 0));
  return Math.floor(ceiling * (1 - share + share * r));
}

/**
 * The waits of one link that tries again, which start over only once the link had held: a peer
 * that takes the link and cuts it (or a port that goes as it opens) is tried at a growing wait,
 * never at the first one over and over. Pure: the times are passed in. The devices' links
 * (hardware/link.ts), the host's links and ports (host/limits/redial.ts) and the screens'
 * reconnects (renderer/src/connection/reconnects.ts).
 */
export class HeldBackoff {
  private attempt = 0;
  private upAt: number | null = null;

  constructor(
    private readonly backoff: Backoff,
    /** How long the link must have been up for its loss to start the waits over. */
    private readonly heldMs: number,
  ) {}

  /** The link came up at `now` (said again while up, it changes nothing). */
  up(now: number): void {
    this.upAt ??= now;
  }

  /** Whether the link is up (`up` said since the last `next`). */
  isUp(): boolean {
    return this.upAt !== null;
  }

  /** The link went, or a try failed, at `now`: the wait before the next try (the first again if the link had held). */
  next(now: number): number {
    if (this.upAt !== null && now - this.upAt >= this.heldMs) this.attempt = 0;
    this.upAt = null;
    return backoffDelay(this.attempt++, this.backoff);
  }
}
