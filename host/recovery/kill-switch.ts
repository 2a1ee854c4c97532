import { writeFileSync } from 'node:fs';
import type { Ledger } from '../../ledger/index.js';

/**
 * What the kill switch leaves beside the ledger as it fires (`kill-switch.json` in the data
 * folder): the round entries of each durable transaction of the round up to the kill, as counts
 * in order (`[2, 1, 3]`: entries 1–2 in one transaction, 3 alone, 4–6 together). A kill after
 * entry K lands after the whole transaction that wrote K; a test reads here which entries that
 * transaction held, from the appends themselves rather than guessed from the journal's shape.
 */
export interface KillSwitchRecord {
  readonly afterRoundEntry: number;
  readonly roundId: string;
  readonly transactions: readonly number[];
}

export const KILL_SWITCH_RECORD = 'kill-switch.json';

/**
 * Test only (the kill-and-restart tests, `--test-kill-after-round-entry K`): the process kills
 * itself with SIGKILL right after the durable transaction that wrote the K-th journal entry of the
 * first round it journals, before anything else happens (no screen told, no device acknowledged).
 * Stepping K through every entry of a round kills the host at every step of it, deterministically.
 * Before the kill it writes its `KillSwitchRecord` to `recordFile` (synchronously: the write is in
 * the kernel's cache before the signal, which a SIGKILL does not lose).
 */
export function installKillSwitch(
  ledger: Ledger,
  afterRoundEntry: number,
  recordFile: string | null,
  kill: () => void = () => process.kill(process.pid, 'SIGKILL'),
): void {
  let target: string | null = null;
  let count = 0;
  const transactions: number[] = [];
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (entries, then) => {
    const results = appendMany(entries, then);
    let inRound = 0;
    for (const r of results) {
      if (r.status !== 'appended' || !r.entry.roundId) continue;
      target ??= r.entry.roundId;
      if (r.entry.roundId === target) inRound++;
    }
    if (inRound === 0 || target === null) return results;
    transactions.push(inRound);
    count += inRound;
    if (count >= afterRoundEntry) {
      const record: KillSwitchRecord = { afterRoundEntry, roundId: target, transactions };
      if (recordFile) writeFileSync(recordFile, JSON.stringify(record));
      kill();
    }
    return results;
  };
}
