// What a host (or any part of it) leaves in the process after it stopped or refused to start:
// listeners, sockets, timers, immediates, counted by kind from `process.getActiveResourcesInfo()`.
//
// One sample is not enough. An immediate or a timer queued a moment ago by something that has
// nothing of the host in it (the test runner's own reporting, a close callback finishing) is
// counted while it waits to run; a CI run once failed on `Immediate: 0 -> 1` read in the middle
// of the event loop's check phase, where an immediate queued behind ours had not run yet. What the
// host left is what stays: `leftAfter` samples every 10 ms until a sample has grown nothing, and
// reports the last sample if none did within `withinMs`. A timer the host left ticking, a socket
// held open or an immediate loop is in every sample.

/** The process's active resources (what keeps it alive: listeners, sockets, ref'd timers), counted by kind. */
export function resources(): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) out.set(r, (out.get(r) ?? 0) + 1);
  return out;
}

/** The kinds of which there are more now than in `before` (a file read or write in flight is not the host's). */
export function grown(before: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [kind, n] of resources()) {
    if (kind === 'FSReqCallback' || kind === 'FSReqPromise' || kind === 'FileHandle') continue;
    if (n > (before.get(kind) ?? 0)) out.push(`${kind}: ${before.get(kind) ?? 0} -> ${n}`);
  }
  return out;
}

/** A few turns of the event loop: a close's callbacks run (no wait on the clock). */
export async function turns(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

/** What has grown since `before` and stays so, sampled every 10 ms for up to `withinMs`; [] once a sample is clean. */
export async function leftAfter(before: Map<string, number>, withinMs = 1_000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    await turns();
    const sample = grown(before);
    if (sample.length === 0 || Date.now() >= deadline) return sample;
    await new Promise((r) => setTimeout(r, 10));
  }
}
