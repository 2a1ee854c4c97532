import type { Ledger } from '../../ledger/index.js';

/**
 * Test only (the kill-and-restart tests, `--test-kill-after-round-entry K`): the process kills
 * itself with SIGKILL right after the K-th journal entry of the first round it journals is durably
 * written, before anything else happens (no screen told, no device acknowledged). Stepping K
 * through every entry of a round kills the host at every step of it, deterministically.
 */
export function installKillSwitch(ledger: Ledger, afterRoundEntry: number, kill = () => process.kill(process.pid, 'SIGKILL')): void {
  let target: string | null = null;
  let count = 0;
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (entries) => {
    const results = appendMany(entries);
    for (const r of results) {
      if (r.status !== 'appended' || !r.entry.roundId) continue;
      target ??= r.entry.roundId;
      if (r.entry.roundId === target && ++count >= afterRoundEntry) kill();
    }
    return results;
  };
}
