/**
 * A periodic task that never runs twice at once: a tick that comes while the last run is still
 * going is skipped, not queued. The transfer reconciliation reads the standing alarms at its
 * start, so two runs overlapping on a loaded service could each raise the same alarm.
 */
export function oneAtATime(
  task: () => Promise<void>,
  onError: (err: unknown) => void,
): { tick(): void; readonly running: boolean; /** Resolves once no run is going (at once when none is); never rejects. */ idle(): Promise<void> } {
  let running = false;
  let run: Promise<void> = Promise.resolve();
  return {
    tick() {
      if (running) return;
      running = true;
      // A failed run is told (never an unhandled rejection that would end the service), and the next tick runs again.
      run = task()
        .catch(onError)
        .finally(() => {
          running = false;
        });
    },
    idle: () => run,
    get running() {
      return running;
    },
  };
}
