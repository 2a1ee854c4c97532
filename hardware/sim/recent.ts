/**
 * What a simulated device keeps of the frames it received (`received`, for the tests that check
 * what a driver sent): nothing unless the test asks for it when it makes the simulator
 * (`keepReceived: true`), and then the newest RECENT_FRAMES.
 *
 * A real kiosk's drivers keep no record of the frames they sent (the service page's wire trace keeps
 * 80 rows a device), so neither does a simulator made by `etg start`'s simulated devices: kept for
 * every simulator, the three acceptors' records (polled every 150 ms at test timing, some 0.29 KiB of
 * heap a frame) filled for the first ~600 rounds of a long run and were most of the host's heap
 * growth the long-run bench judged (issue 52; docs/benchmarks.md, "29 Nov: the host's first
 * rounds"). Kept whole before that, a simulated table grew by every frame its shoe and acceptors ever
 * got; kept between the bound and twice it, by a sawtooth.
 */
export const RECENT_FRAMES = 1000;

/** A simulator's choice: keep the host's frames for a test to read (`received`), or none. */
export interface ReceivedOptions {
  /** Keep the newest RECENT_FRAMES frames the host sent in `received` (tests); without it, none. */
  keepReceived?: boolean | undefined;
}

/** Appends `item`; past the bound, the oldest goes (V8 trims an array's front in place: no copy). */
export function keepRecent<T>(list: T[], item: T, max = RECENT_FRAMES): void {
  list.push(item);
  while (list.length > max) list.shift();
}

/** A record when asked for, else null (nothing kept). */
export function receivedRecord<T>(options: ReceivedOptions): T[] | null {
  return options.keepReceived ? [] : null;
}

/** The record, or a plain error for a test that reads one it did not ask for. */
export function readRecord<T>(record: T[] | null): T[] {
  if (!record) throw new Error('this simulator keeps no record of the frames it received: make it with { keepReceived: true }');
  return record;
}
