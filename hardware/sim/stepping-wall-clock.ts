// The wall clock is the one that steps (NTP correcting it at boot, a technician setting the time);
// what measures an interval must read the monotonic clock instead (hardware/clock.ts, `elapsedOf`).
// Tests make the wall clock misbehave with this.

const HOUR = 3_600_000;

/** Runs `body` with a wall clock (`Date.now`) that moves `direction` hours at each reading; restored after. */
export async function withSteppingWallClock<T>(direction: 1 | -1, body: () => Promise<T>): Promise<T> {
  const wall = Date.now;
  let readings = 0;
  Date.now = () => wall() + direction * HOUR * ++readings;
  try {
    return await body();
  } finally {
    Date.now = wall;
  }
}
