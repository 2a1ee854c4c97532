import { copyFileSync, existsSync, rmSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { openTable } from '../../host/table/start-table.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { Ledger, openTilts, rowsLost, SyncClient, verifyLedger } from '../../ledger/index.js';
import type { LinkFault } from './fake-upstream.js';
import { FaultyLedger, Killed, type WriteFault } from './faulty-ledger.js';
import { FakeAcceptor } from '../fake-acceptor/fake-acceptor.js';
import { chance, fault, note, TERMINAL, violated, type Host, type SimRun, type SimWorld } from './sim-run.js';

// The host's life in a fault simulation (cli/sim-faults/simulate.ts): a start on the run's ledger
// file, as host/table/recover.ts does at every start, and a kill that throws the process away.

const silent = pino({ level: 'silent' });

/** A start of the host on the run's file, armed with this start's write faults, and the checks a restart owes. */
export function boot<S, R>(w: SimWorld<S, R>): Host {
  w.starts++;
  if (process.env.SIM_FAULTS_KEEP && existsSync(w.file)) copyFileSync(w.file, `${w.file}.start${w.starts}`);
  const t0 = performance.now();
  const { clock, config, params } = w;
  const ledger = Ledger.open({ file: w.file, terminalId: TERMINAL, clock: () => new Date(clock.wall()), checkpointEvery: 40 });
  const armed = writeFaults(w);
  for (const f of armed)
    note(
      w,
      f.kind === 'kill'
        ? `armed kill at write ${f.at} ${f.committed ? 'after' : 'before'} commit`
        : `armed ${f.code} on writes ${f.from}..${f.from + f.count - 1}`,
    );
  const faulty = new FaultyLedger(ledger, armed);
  note(w, `start ${w.starts}: journal head ${ledger.headOf().seq}`);
  const opened = openTable(w.def, { ledger, log: silent, timers: clock.timers, params });
  if (!opened.report.ledgerVerified) violated(w, `the ledger did not verify at start: ${opened.report.problems.join('; ')}`);
  // The simulation's clock: a fault's retry (and a flapping clear's wait) run in its time, dropped at a kill.
  const tilts = new TiltManager({ ledger, log: silent, timers: clock.timers });
  tilts.restore();
  const sims = new Map<number, FakeAcceptor>();
  const order = [...w.stations];
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    credits: tableCreditRule({ config, ledger, log: silent, fault: (station, say) => tilts.raise('bill-cheat', { station, say }) }),
    open: (_spec, o) => {
      const station = order.shift() ?? 0;
      const truth = w.truths.get(station);
      if (!truth) throw new Error(`no acceptor at station ${station}`);
      const a = new FakeAcceptor(truth, { ...o, enabled: true });
      sims.set(station, a);
      return a;
    },
  });
  const sync = new SyncClient(ledger, {
    url: 'http://127.0.0.1:9',
    credentials: { terminalId: TERMINAL, key: w.key },
    fetch: w.upstream.fetchWith(() => linkFault(w)),
    now: () => new Date(clock.wall()),
    random: () => w.rng.below(1000) / 1000,
  });
  const host: Host = { ledger, faulty, table: opened.table, tilts, acceptors, sims, sync };
  try {
    opened.resume({ newShoe: false, params });
    acceptors.start();
    for (const a of sims.values()) a.poll(true, false);
  } catch (e) {
    if (!(e instanceof Killed)) throw e;
  }
  w.recoverMs.push(performance.now() - t0);
  checkTiltsKept(w, tilts);
  checkCredits(w, host, 'after the start');
  return host;
}

/**
 * Tilts persist: the faults the journal held before the kill are the faults held after it. A
 * fault the journal refused to write was held in memory only, and goes with the process.
 */
function checkTiltsKept(w: SimWorld<unknown, unknown>, tilts: TiltManager): void {
  const before = w.tiltsBefore;
  if (before === null) return;
  const now = tiltKeys(tilts);
  const differ = now.filter((x) => !before.includes(x)).length + before.filter((x) => !now.includes(x)).length;
  if (differ > (w.tiltInFlight ? 1 : 0)) violated(w, `tilts before the kill [${before.join(', ')}], after the restart [${now.join(', ')}]`);
}

/** This start's faults at the journal's writes: a kill (before or after its commit), storage refusals. */
function writeFaults(w: SimWorld<unknown, unknown>): WriteFault[] {
  const out: WriteFault[] = [];
  if (w.kills < w.maxKills && chance(w, w.rates.kill)) {
    const committed = chance(w, 0.5);
    out.push({ kind: 'kill', at: 1 + w.rng.below(80), committed });
  }
  if (chance(w, w.rates.storage))
    out.push({ kind: 'storage', from: 1 + w.rng.below(80), count: 1 + w.rng.below(4), code: chance(w, 0.5) ? 'SQLITE_FULL' : 'SQLITE_IOERR' });
  return out;
}

/** The fault the link to the upstream meets on this request, if any. */
function linkFault(w: SimWorld<unknown, unknown>): LinkFault | null {
  if (w.rates.link === 0 || w.linkKinds.length === 0 || !chance(w, w.rates.link)) return null;
  const k = w.linkKinds[w.rng.below(w.linkKinds.length)] ?? null;
  if (k) fault(w, k);
  return k;
}

const tiltKeys = (t: TiltManager) =>
  t
    .list()
    .map((x) => `${x.kind}${x.station !== undefined ? `@${x.station}` : ''}`)
    .sort();

/** The faults the journal holds open (a raise without its clear), as `tiltKeys` names them. */
const journalTiltKeys = (ledger: Ledger) => [...new Set(openTilts(ledger).map((x) => `${x.kind}${x.station !== undefined ? `@${x.station}` : ''}`))].sort();

/** Each station's credit is the same at the table and in the ledger (unless the host is dead). */
export function checkCredits(w: SimWorld<unknown, unknown>, h: Host, when: string): void {
  if (h.faulty.killed) return;
  for (const s of w.stations) {
    const table = h.table.state.credits[s] ?? 0;
    const ledger = h.ledger.credit(s);
    if (table !== ledger) violated(w, `station ${s}'s credit is ${table} at the table and ${ledger} in the ledger ${when}`);
  }
}

/** The storage refusals this host met, counted as faults. */
export function countStorage(w: SimWorld<unknown, unknown>, h: Host): void {
  if (h.faulty.refused.SQLITE_FULL > 0) fault(w, 'sqlite-full', `${h.faulty.refused.SQLITE_FULL} write(s) refused`);
  if (h.faulty.refused.SQLITE_IOERR > 0) fault(w, 'sqlite-ioerr', `${h.faulty.refused.SQLITE_IOERR} write(s) refused`);
}

/** While the host is dead: a kill, then a new start. */
export async function keepAlive<S, R>(run: SimRun<S, R>): Promise<void> {
  while (run.host.faulty.killed) run.host = await crash(run, run.host);
}

/** A kill: everything of the process goes; the file, the devices and the upstream stay. */
async function crash<S, R>(w: SimWorld<S, R>, h: Host): Promise<Host> {
  countStorage(w, h);
  w.kills++;
  const k = h.faulty.killed;
  fault(w, k?.committed ? 'kill-after-commit' : 'kill-before-commit', k ? `at write ${k.write} (${k.types.join(', ')})` : '');
  // What the journal held: a fault whose raise the journal refused is held in memory only
  // (host/tilts/tilt-manager.ts), and a kill before the next commit loses it with the process.
  w.tiltsBefore = journalTiltKeys(h.ledger);
  const last = h.ledger.entry(h.ledger.headOf().seq);
  w.tiltInFlight = k?.committed === true && (last?.type ?? '').startsWith('tilt.');
  h.table.stop();
  w.clock.dropAll();
  await h.acceptors.close();
  h.ledger.close();
  if (chance(w, w.rates.truncated)) truncatedCopy(w);
  return boot(w);
}

/**
 * A truncated copy of the database must never open as a ledger that verifies, unless the cut
 * took nothing of it: SQLite reads past the end of a file as zeros, so a cut inside an empty
 * last page (an index of a table with no rows yet) leaves every row as it was (seed 101562).
 * Opened and verified, the copy must hold every row of every table the whole file holds.
 */
function truncatedCopy(w: SimWorld<unknown, unknown>): void {
  const copy = path.join(w.dir, `truncated-${w.step}.sqlite`);
  const whole = path.join(w.dir, `whole-${w.step}.sqlite`);
  copyFileSync(w.file, copy);
  copyFileSync(w.file, whole);
  const size = statSync(copy).size;
  const cut = w.rng.below(Math.max(1, size - 1));
  truncateSync(copy, cut);
  fault(w, 'truncated-db', `${cut} of ${size} bytes`);
  let l: Ledger | null = null;
  try {
    l = Ledger.open({ file: copy, terminalId: TERMINAL, checkpointKey: null });
    const head = l.headOf().seq;
    const all = verifyLedger(l).ok;
    if (all && head > 0) {
      const lost = rowsLost(whole, copy);
      if (lost !== null) violated(w, `a database truncated to ${cut} of ${size} bytes opened and verified (head ${head}), yet ${lost}`);
      else note(w, 'the cut took no row: the truncated copy holds the whole ledger');
    }
  } catch {
    // Refused at open: what must happen.
  } finally {
    try {
      l?.close();
    } catch {
      /* a damaged file may fail to close too */
    }
    rmSync(copy, { force: true });
    rmSync(whole, { force: true });
  }
}
