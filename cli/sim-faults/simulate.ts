// One seed, one run of the whole table host in one process, in the spirit of TigerBeetle's VOPR:
// the seed draws the game, which faults this run may meet (a random subset, so that rare
// combinations get their turn), and every step — time passing, players betting and deciding, the
// dealer's cards, notes in the acceptors, the sync client's batches — and every fault. Nothing
// reads the real clock or the network, so a seed replays exactly. A kill drops the host (the
// runtime, its timers, the acceptors' host side, the sync client) and starts a new one on the same
// ledger file, as host/table/recover.ts does at every start; the devices and the upstream outlive it.
import { rmSync } from 'node:fs';
import { withTableGame } from '../../engine/games.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { Killed } from './faulty-ledger.js';
import { account, closedRounds } from './sim-account.js';
import { auto, bet, clockStep, escrowTimeout, insertNote, pollAcceptors, raiseTilt, replug, syncOnce } from './sim-actions.js';
import { boot, checkCredits, countStorage, keepAlive } from './sim-host.js';
import { newWorld, note, shuffle, violated, type SimOptions, type SimResult, type SimRun } from './sim-run.js';
import { TABLES } from './tables.js';

export { TABLES };
export type { SimOptions, SimResult } from './sim-run.js';

export async function simulate(options: SimOptions): Promise<SimResult> {
  const rng = Rng.fromSeed(options.seed);
  const pick = TABLES[options.table ?? rng.below(TABLES.length)] ?? TABLES[0];
  return withTableGame(pick.game, pick.profile, {}, (def) => run(def, pick, rng, options));
}

async function run<S, R>(def: GameDefinition<S, R>, pick: (typeof TABLES)[number], rng: Rng, options: SimOptions): Promise<SimResult> {
  const steps = options.steps ?? 400;
  const world = newWorld(def, pick, rng, options);
  const { rates, linkKinds } = world;
  note(
    world,
    `table ${pick.game} ${pick.profile}; fault rates ${Object.entries(rates)
      .filter(([, r]) => r > 0)
      .map(([k, r]) => `${k}=${r.toFixed(3)}`)
      .join(' ')}${rates.link > 0 ? `; link faults ${linkKinds.join(',')}` : ''}`,
  );
  shuffle(world);
  const sim: SimRun<S, R> = Object.assign(world, { host: boot(world) });
  const closedAtStart = closedRounds(sim.host.ledger);
  for (sim.step = 1; sim.step <= steps; sim.step++) {
    try {
      await oneStep(sim);
    } catch (e) {
      if (!(e instanceof Killed)) {
        violated(sim, `the host threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)} (chips ${JSON.stringify(sim.host.table.state.chips)})`);
        break;
      }
    }
    await keepAlive(sim);
    checkCredits(sim, sim.host, `after step ${sim.step}`);
    if (sim.violations.length > 20) break;
  }
  const roundsClosed = closedRounds(sim.host.ledger) - closedAtStart;
  const notes = await finish(sim);
  return {
    seed: options.seed,
    game: pick.game,
    profile: pick.profile,
    steps: sim.step - 1,
    starts: sim.starts,
    roundsClosed,
    faults: sim.faults,
    notes,
    entries: sim.upstream.entries.length,
    recoverMs: sim.recoverMs,
    trace: sim.trace,
    violations: sim.violations,
  };
}

/** One step: what happens is drawn by the seed, the rarer faults on the few steps that may meet them. */
async function oneStep<S, R>(sim: SimRun<S, R>): Promise<void> {
  const r = sim.rng.below(100);
  if (r < 40) auto(sim, sim.rng.below(1000));
  else if (r < 58) bet(sim);
  else if (r < 66) sim.clock.advance(sim.rng.below(1500));
  else if (r < 74) insertNote(sim);
  else if (r < 78) pollAcceptors(sim, false);
  else if (r < 90) await syncOnce(sim);
  else if (r < 93) {
    const n = sim.upstream.deliverHeld();
    if (n > 0) note(sim, `${n} held request(s) delivered late`);
  } else if (r < 96) raiseTilt(sim);
  else if (r < 97) escrowTimeout(sim);
  else if (r < 98) replug(sim);
  else clockStep(sim);
}

/**
 * The end: the faults stop; owed credits are delivered, held requests arrive, and the sync client
 * sends until the upstream holds everything. Then the invariants, and the host and its folder go.
 */
async function finish<S, R>(sim: SimRun<S, R>): Promise<SimResult['notes']> {
  const { host, upstream } = sim;
  countStorage(sim, host);
  host.faulty.disarm();
  sim.rates.link = 0;
  sim.rates.creditAck = 0;
  for (const a of host.sims.values()) a.poll(false, false);
  upstream.deliverHeld();
  for (let i = 0; i < 500; i++) if ((await host.sync.syncOnce()) === 'empty') break;

  const notes = account(host, sim.truths, upstream, sim.violations);
  host.table.stop();
  sim.clock.dropAll();
  await host.acceptors.close();
  host.ledger.close();
  if (process.env.SIM_FAULTS_KEEP) console.error(`kept ${sim.dir}`);
  else rmSync(sim.dir, { recursive: true, force: true });
  return notes;
}
