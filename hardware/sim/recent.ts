/**
 * What a simulated device keeps of the frames it received (`received`, for the tests that check
 * what a driver sent): the newest RECENT_FRAMES. Kept whole, a simulated table playing for weeks
 * (`etg start`'s devices, the long-run bench) grew by every frame its shoe and acceptors ever got:
 * 13,593 frames, 2.5 MB of the host's heap in some 600 rounds (issue 52, the host's heap snapshots).
 * Kept between the bound and twice it (the oldest half dropped at once), the host's heap rose by the
 * three acceptors' and the shoe's frames (~260 bytes each) for hundreds of rounds and fell back
 * 0.5-0.7 MB at once, a sawtooth the long-run bench read as growth: now one out for each one in.
 */
export const RECENT_FRAMES = 1000;

/** Appends `item`; past the bound, the oldest goes (V8 trims an array's front in place: no copy). */
export function keepRecent<T>(list: T[], item: T, max = RECENT_FRAMES): void {
  list.push(item);
  while (list.length > max) list.shift();
}
