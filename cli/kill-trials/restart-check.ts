// The restart after a kill, in this process: the acceptors' record files read for what the kill
// left in them, the table's ledger opened and recovered, the invariants checked, and (for each
// table's last trial) the upstream synced and held against the journal.
import { withTableGame } from '../../engine/games.js';
import { readDeviceTruth } from './device-record.js';
import { checkAfterRestart } from './invariants.js';
import type { TableRun } from './table-runs.js';
import type { CampaignTally } from './tally.js';
import { deviceFile, openTableHost, trialConfig, type TableHost } from './table-host.js';

/** What a restart's checks add to the tally; the notes stacked and whether the upstream holds exactly the journal. */
export async function restartAndCheck(
  run: TableRun,
  trial: number,
  check: { full: boolean; sync: boolean },
  tally: CampaignTally,
): Promise<{ stacked: number; upstreamExact: boolean }> {
  return withTableGame(run.game, run.profile, {}, async (def) => {
    for (const station of trialConfig(run.game, run.profile).stations.map((s) => s.station)) {
      const truth = readDeviceTruth(deviceFile(run.dir, station), `BA-${station}`);
      tally.found['credit-owed-at-restart'] += truth.owed.length;
      tally.found['escrow-returned-at-power-up'] += [...truth.notes.values()].filter((n) => n.where === 'escrow').length;
    }
    const host = openTableHost(def, { dir: run.dir, game: run.game, profile: run.profile, ...(check.sync ? { upstream: run.upstream.url() } : {}) });
    tally.recover.push(host.recoverMs);
    if (host.found.resumedRound) tally.found['round-resumed']++;
    tally.found['round-voided'] += host.found.voided;
    const c = checkAfterRestart({
      ledger: host.ledger,
      dir: run.dir,
      stations: host.stations,
      tally: run.tally,
      verifiedAtStart: host.verifiedAtStart,
      problems: host.problems,
      full: check.full,
    });
    const upstreamExact = check.sync && host.sync ? await upstreamHoldsJournal(run, host.ledger, host.sync, c.violations) : true;
    await host.close();
    for (const v of c.violations) tally.violations.push(`trial ${trial} (${run.game} ${run.profile}): ${v}`);
    tally.lost += c.lost;
    tally.duplicated += c.duplicated;
    if (c.ledgerFailure) tally.ledgerFailures++;
    return { stacked: c.stacked, upstreamExact };
  });
}

/** Syncs the host until the upstream has all; whether it holds exactly the journal, with no alarm (else a violation says what it holds). */
async function upstreamHoldsJournal(run: TableRun, ledger: TableHost['ledger'], sync: NonNullable<TableHost['sync']>, violations: string[]): Promise<boolean> {
  for (let i = 0; i < 10_000; i++) if ((await sync.syncOnce()) === 'empty') break;
  const head = ledger.headOf().seq;
  const held = run.upstream.model.entries;
  const exact = held.length === head && held.every((u) => ledger.entry(u.seq)?.hash === u.hash) && run.upstream.model.stats.alarms.length === 0;
  if (!exact)
    violations.push(`the upstream holds ${held.length} entries (alarms: ${run.upstream.model.stats.alarms.join(', ') || 'none'}), the journal ${head}`);
  return exact;
}
