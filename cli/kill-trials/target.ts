// The kill target: a child process of `etg soak --campaign` that opens a trial's table host on
// its data folder (the restart that recovers), says so on stdout, then plays seeded steps and
// syncs to the campaign's upstream until the parent SIGKILLs it. It never stops by itself.
//
//   node target.mjs DIR GAME PROFILE SEED UPSTREAM_URL
//
// Its own entry point, bundled by bundle.ts, so that a start loads the ledger, the engine and the
// table runtime only (no tsx compile, no server, no pixi).
import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { withTableGame } from '../../engine/games.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import { TABLES } from '../sim-faults/tables.js';
import { Player } from './player.js';
import { openTableHost } from './table-host.js';

/** The first line the target writes: its start is done (a kill after it lands in play). */
export interface TargetReady {
  ready: true;
  /** From the process's start to its modules loaded (ms). */
  loadMs: number;
  /** From the process's start to the table in play (ms). */
  startMs: number;
  recoverMs: number;
  head: number;
  verified: boolean;
}

// performance.now() counts from the process's start: here, every module is loaded.
const loadedAt = performance.now();
const [dir, game, profile, seedText, upstream] = process.argv.slice(2);
const table = TABLES.find((t) => t.game === game && t.profile === profile);
if (!dir || !table || !seedText || !upstream) {
  process.stderr.write(`usage: target DIR GAME PROFILE SEED UPSTREAM_URL (a table of ${TABLES.map((t) => `${t.game} ${t.profile}`).join(', ')})\n`);
  process.exit(2);
}

await withTableGame(table.game, table.profile, {}, async (def) => {
  const host = openTableHost(def, { dir, game: table.game, profile: table.profile, upstream });
  const ready: TargetReady = {
    ready: true,
    loadMs: loadedAt,
    startMs: performance.now(),
    recoverMs: host.recoverMs,
    head: host.ledger.headOf().seq,
    verified: host.verifiedAtStart,
  };
  writeSync(1, `${JSON.stringify(ready)}\n`);
  const rng = Rng.fromSeed(Number(seedText));
  const player = new Player(host, rng, Math.max(0, ...host.table.state.sequences));
  for (let i = 1; ; i++) {
    player.step();
    // The outbox travels as it does on a table: a batch now and then, a kill landing mid-request too.
    if (i % 25 === 0 && host.sync) await host.sync.syncOnce().catch(() => 'failed');
  }
});
