// The campaign's four tables, each on its own data folder and its own upstream, which every
// trial of that table reuses: so each trial after the first four lands on a ledger that has
// lived through all the kills before it.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { withTableGame } from '../../engine/games.js';
import type { GameKind } from '../../engine/table/vocabulary.js';
import { TABLES } from '../sim-faults/tables.js';
import { JournalTally } from './invariants.js';
import { openTableHost } from './table-host.js';
import { UpstreamServer } from './upstream-server.js';

export interface TableRun {
  game: GameKind;
  profile: string;
  dir: string;
  upstream: UpstreamServer;
  tally: JournalTally;
  trials: number;
}

/** Each table's fresh data folder under `base` and its upstream, listening. */
export async function openTableRuns(base: string): Promise<TableRun[]> {
  const runs: TableRun[] = [];
  for (const [i, t] of TABLES.entries()) {
    const dir = path.join(base, `${i}-${t.game}-${t.profile}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    runs.push({ game: t.game, profile: t.profile, dir, upstream: await UpstreamServer.listen('KILL-1'), tally: new JournalTally(), trials: 0 });
  }
  return runs;
}

/**
 * The tables' rounds closed and journal entries, their upstreams closed; whether every table
 * that had trials was held against its upstream (one whose upstream holds nothing never was).
 */
export async function closeTableRuns(runs: readonly TableRun[]): Promise<{ rounds: number; entries: number; everyUpstreamHeld: boolean }> {
  let rounds = 0;
  let entries = 0;
  let everyUpstreamHeld = true;
  for (const run of runs) {
    rounds += run.tally.rounds;
    await withTableGame(run.game, run.profile, {}, (def) => {
      const host = openTableHost(def, { dir: run.dir, game: run.game, profile: run.profile });
      entries += host.ledger.headOf().seq;
      return host.close();
    });
    if (run.trials > 0 && run.upstream.model.entries.length === 0) everyUpstreamHeld = false;
    await run.upstream.close();
  }
  return { rounds, entries, everyUpstreamHeld };
}
