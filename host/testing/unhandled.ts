/**
 * The promise rejections nobody handled while `run` ran, and for a turn of the event loop after
 * it (Node emits the event once the microtasks have run out). A plain-Node host exits on the first
 * one, so a path that may throw inside a callback is tested for none.
 */
export async function unhandledDuring(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const listener = (e: unknown) => void seen.push(e);
  process.on('unhandledRejection', listener);
  try {
    await run();
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return seen;
}
