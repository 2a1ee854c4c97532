import { TokenBucket } from './token-bucket.js';

/** How fast one connection may send, and how long it may keep on past that before it is closed. */
export interface MessageRateLimits {
  /** Messages at once. */
  readonly burst: number;
  /** Messages a second, sustained. */
  readonly perSecond: number;
  /** Messages over the rate in a row, after the peer was told, before it is closed. */
  readonly dropAfter: number;
}

/**
 * What to do with one incoming message: `take` it; or, over the rate, drop it unread and `tell`
 * the peer (the first of a run only, so a flood costs one reply), `drop` it silently, or `close`
 * the connection (more than `dropAfter` in a row: the peer did not slow down when told).
 */
export type RateVerdict = 'take' | 'tell' | 'drop' | 'close';

/**
 * The message rate of one connection, the same at the table's own listener and at an edge: a
 * token bucket, and the run of messages over it since the last one taken. A message taken ends
 * the run, so a screen that slows down when told starts afresh.
 */
export class MessageRate {
  private readonly bucket: TokenBucket;
  private overInARow = 0;

  constructor(
    private readonly limits: MessageRateLimits,
    now: () => number,
  ) {
    this.bucket = new TokenBucket(limits.burst, limits.perSecond, now);
  }

  /** Counts one message (before it is parsed: a flood costs a counter each) and says what to do with it. */
  judge(): RateVerdict {
    if (this.bucket.take()) {
      this.overInARow = 0;
      return 'take';
    }
    this.overInARow++;
    if (this.overInARow === 1) return 'tell';
    return this.overInARow > this.limits.dropAfter ? 'close' : 'drop';
  }
}
