/**
 * `process.exit` that first lets stdout and stderr hand what they hold to their pipes. Used by the
 * test runner's preload (`report-drain.ts`, docs/toolchain.md): a process ended by `process.exit()`
 * loses whatever its pipe writes still hold in memory, and a test file's child writes its verdicts
 * to a pipe.
 */

/** How long an exit waits for its output at most: a runner that stopped reading must not hold it. */
export const DRAIN_LIMIT_MS = 60_000;
/** How often a held exit looks at what is still queued. */
const POLL_MS = 5;

/** What is still in memory of one output stream (a `net.Socket` on a pipe counts what libuv holds). */
export interface Output {
  readonly writableLength: number;
  readonly destroyed: boolean;
}

export interface Exiting {
  exit(code?: number | string | null): never;
  exitCode?: number | string | null | undefined;
}

function pending(outputs: readonly Output[]): boolean {
  return outputs.some((o) => !o.destroyed && o.writableLength > 0);
}

/** Resolves once nothing is queued on `outputs` (or they broke), or after `limitMs`. */
export function drained(outputs: readonly Output[], limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const poll = setInterval(() => {
      if (pending(outputs) && Date.now() - started < limitMs) return;
      clearInterval(poll);
      resolve();
    }, POLL_MS);
  });
}

/**
 * Replaces `proc.exit`: with nothing queued on `outputs` it exits at once, as before; otherwise it
 * keeps the exit code, returns, and exits with that code once the outputs have drained (at most
 * `limitMs`). A second call while it waits only updates the code.
 */
export function holdExitUntilDrained(proc: Exiting, outputs: readonly Output[], limitMs = DRAIN_LIMIT_MS): void {
  const exit = proc.exit.bind(proc);
  let holding = false;
  proc.exit = ((code?: number | string | null) => {
    if (code !== undefined && code !== null) proc.exitCode = code;
    if (holding) return undefined as never;
    if (!pending(outputs)) return exit(proc.exitCode);
    holding = true;
    void drained(outputs, limitMs).then(() => exit(proc.exitCode));
    return undefined as never;
  }) as Exiting['exit'];
}
