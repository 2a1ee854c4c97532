/**
 * What a simulated device keeps of the frames it received (`received`, for the tests that check
 * what a driver sent): the newest RECENT_FRAMES at least, never more than twice that. Kept whole,
 * a simulated table playing for weeks (`etg start`'s devices, the long-run bench) grew by every
 * frame its shoe and acceptors ever got: 13,593 frames, 2.5 MB of the host's heap in some 600
 * rounds (issue 52, the host's heap snapshots).
 */
export const RECENT_FRAMES = 1000;

/** Appends `item`; past twice the bound, the oldest are dropped down to the bound (a test's frames are far fewer). */
export function keepRecent<T>(list: T[], item: T, max = RECENT_FRAMES): void {
  list.push(item);
  if (list.length > 2 * max) list.splice(0, list.length - max);
}
