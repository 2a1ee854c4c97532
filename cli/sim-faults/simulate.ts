// One seed, one run of the whole table host in one process, in the spirit of TigerBeetle's VOPR:
// the seed draws the game, which faults this run may meet (a random subset, so that rare
// combinations get their turn), and every step — time passing, players betting and deciding, the
// dealer's cards, notes in the acceptors, the sync client's batches — and every fault. Nothing
// reads the real clock or the network, so a seed replays exactly. A kill drops the host (the
// runtime, its timers, the acceptors' host side, the sync client) and starts a new one on the same
// ledger file, as host/table/recover.ts does at every start; the devices and the upstream outlive it.
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { CARD_CODES, cardOf, type Card } from '../../engine/cards/card.js';
import { withTableGame } from '../../engine/games.js';
import { Rng } from '../../engine/random/seeded-rng.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { pendingOf } from '../../engine/table/queries.js';
import type { Spot } from '../../engine/table/vocabulary.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { tableParams } from '../../host/config/table-params.js';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { openTable } from '../../host/table/start-table.js';
import type { TiltKind } from '../../host/tilts/tilt-kinds.js';
import { TiltManager } from '../../host/tilts/tilt-manager.js';
import { Ledger, rowsLost, SyncClient, verifyLedger, type EntryBody } from '../../ledger/index.js';
import type { LinkFault } from './fake-upstream.js';
import { FakeUpstream } from './fake-upstream.js';
import { FaultyLedger, Killed, type WriteFault } from './faulty-ledger.js';
import { faultCounts, LINK_FAULTS, type FaultKind } from './faults.js';
import { acceptorTruth, SimAcceptor, type AcceptorTruth } from './sim-acceptor.js';
import { TABLES } from './tables.js';
import { VirtualClock } from './virtual-clock.js';

export { TABLES };

export interface SimOptions {
  seed: number;
  /** Steps of the run (default 400). */
  steps?: number;
  /** One table of TABLES by index; default: drawn by the seed. */
  table?: number;
  /** Kills a run may meet at most (default 6). */
  maxKills?: number;
  /** The chance that each start of the host is armed with a kill (default: drawn by the seed, 0–0.8). */
  killRate?: number;
  /**
   * Players may place an additional bet (blackjack's pairs, 7s…) with no main bet of theirs on
   * the table (default false). A side bet alone makes the blackjack engine throw when betting
   * closes (found by this harness: seat N main bet 0); on once the engine refuses it.
   */
  sideBetsAlone?: boolean;
}

export interface SimResult {
  seed: number;
  game: string;
  profile: string;
  steps: number;
  /** Starts of the host (1 + kills). */
  starts: number;
  roundsClosed: number;
  faults: Map<FaultKind, number>;
  /** Notes stacked and their sum; credits journalled and their sum. */
  notes: { stacked: number; stackedAmount: number; credited: number; creditedAmount: number; duplicated: number; lost: number };
  entries: number;
  /** Wall time of each recovery (ms; not part of the replay). */
  recoverMs: number[];
  trace: string[];
  violations: string[];
}

const TERMINAL = 'SIM-1';
const silent = pino({ level: 'silent' });
const TILTS: readonly { kind: TiltKind; station: boolean }[] = [
  { kind: 'bill-jam', station: true },
  { kind: 'stacker-full', station: true },
  { kind: 'shoe-lid-open', station: false },
  { kind: 'shoe-alarm', station: false },
];

/** A host process: what a kill throws away. */
interface Host {
  ledger: Ledger;
  faulty: FaultyLedger;
  table: ReturnType<typeof openTable>['table'];
  tilts: TiltManager;
  acceptors: BillAcceptors;
  sims: Map<number, SimAcceptor>;
  sync: SyncClient;
}

export async function simulate(options: SimOptions): Promise<SimResult> {
  const rng = Rng.fromSeed(options.seed);
  const pick = TABLES[options.table ?? rng.below(TABLES.length)] ?? TABLES[0];
  return withTableGame(pick.game, pick.profile, {}, (def) => run(def, pick, rng, options));
}

async function run<S, R>(def: GameDefinition<S, R>, pick: (typeof TABLES)[number], rng: Rng, options: SimOptions): Promise<SimResult> {
  const steps = options.steps ?? 400;
  const maxKills = options.maxKills ?? 6;
  // In memory where the system has it: the kills are simulated at the journal's writes, so the
  // fsyncs of a disk would cost time and test nothing more here.
  const dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'sim-faults-'));
  const file = path.join(dir, 'ledger.sqlite');
  const chance = (p: number) => rng.below(1_000_000) < p * 1_000_000;
  const trace: string[] = [];
  const violations: string[] = [];
  const faults = faultCounts();
  const recoverMs: number[] = [];
  let step = 0;
  const note = (s: string) => trace.push(`#${step} ${s}`);
  const fault = (k: FaultKind, detail = '') => {
    faults.set(k, (faults.get(k) ?? 0) + 1);
    note(`FAULT ${k}${detail ? ` ${detail}` : ''}`);
  };
  const violated = (s: string) => {
    violations.push(`step ${step}: ${s}`);
    note(`VIOLATION ${s}`);
  };

  // Swarm testing: this seed's faults, each with its own rate (many seeds see only a few kinds).
  const rate = (max: number) => (chance(0.6) ? (1 + rng.below(100)) * (max / 100) : 0);
  const rates = {
    kill: options.killRate ?? rate(0.8),
    storage: rate(0.3),
    clock: rate(0.02),
    cardAck: rate(0.1),
    cardGarbled: rate(0.1),
    creditAck: rate(0.3),
    escrowTimeout: rate(0.05),
    replug: rate(0.01),
    truncated: rate(0.5),
    link: rate(0.5),
  };
  const linkKinds = LINK_FAULTS.filter(() => chance(0.6));
  note(
    `table ${pick.game} ${pick.profile}; fault rates ${Object.entries(rates)
      .filter(([, r]) => r > 0)
      .map(([k, r]) => `${k}=${r.toFixed(3)}`)
      .join(' ')}${rates.link > 0 ? `; link faults ${linkKinds.join(',')}` : ''}`,
  );

  const config = TableConfig.parse({
    ...simulatedTableConfig(pick.game, pick.profile),
    stations: simulatedTableConfig(pick.game, pick.profile).stations.slice(0, 4),
  });
  const params = tableParams(config);
  const stations = config.stations.map((s) => s.station);
  const clock = new VirtualClock(Date.UTC(2026, 10, 23, 12));
  const upstream = new FakeUpstream(TERMINAL);
  const key = Buffer.alloc(32, options.seed & 0xff).toString('base64');
  const truths = new Map<number, AcceptorTruth>(stations.map((s) => [s, acceptorTruth(`BA-${s}`)]));
  // The shoe: a shuffled shoe of the game's decks; its sequence numbers outlive the host, as the device's.
  const allCards: readonly Card[] = CARD_CODES.map(cardOf);
  const aceOfSpades = cardOf('AS');
  let shoe: Card[] = [];
  const shuffle = () => {
    shoe = Array.from({ length: def.decks }, () => allCards).flat();
    for (let i = shoe.length - 1; i > 0; i--) {
      const j = rng.below(i + 1);
      [shoe[i], shoe[j]] = [shoe[j] ?? aceOfSpades, shoe[i] ?? aceOfSpades];
    }
  };
  shuffle();
  let shoeSeq = 0;
  /** A card the shoe read and sent whose ACK it has not had: it sends it again. */
  let unackedCard: { card: Card; sequence: number } | null = null;
  let kills = 0;
  let starts = 0;
  let tiltsBefore: string[] | null = null;
  /** The tilt entry the killed write committed, if it was one: the memory before the kill never had it. */
  let tiltInFlight = false;

  const linkFault = (): LinkFault | null => {
    if (rates.link === 0 || linkKinds.length === 0 || !chance(rates.link)) return null;
    const k = linkKinds[rng.below(linkKinds.length)] ?? null;
    if (k) fault(k);
    return k;
  };

  const writeFaults = (): WriteFault[] => {
    const out: WriteFault[] = [];
    if (kills < maxKills && chance(rates.kill)) {
      const committed = chance(0.5);
      out.push({ kind: 'kill', at: 1 + rng.below(80), committed });
    }
    if (chance(rates.storage))
      out.push({ kind: 'storage', from: 1 + rng.below(80), count: 1 + rng.below(4), code: chance(0.5) ? 'SQLITE_FULL' : 'SQLITE_IOERR' });
    return out;
  };

  const boot = (): Host => {
    starts++;
    if (process.env.SIM_FAULTS_KEEP && existsSync(file)) copyFileSync(file, `${file}.start${starts}`);
    const t0 = performance.now();
    const ledger = Ledger.open({ file, terminalId: TERMINAL, clock: () => new Date(clock.wall()), checkpointEvery: 40 });
    const armed = writeFaults();
    for (const f of armed)
      note(
        f.kind === 'kill'
          ? `armed kill at write ${f.at} ${f.committed ? 'after' : 'before'} commit`
          : `armed ${f.code} on writes ${f.from}..${f.from + f.count - 1}`,
      );
    const faulty = new FaultyLedger(ledger, armed);
    note(`start ${starts}: journal head ${ledger.headOf().seq}`);
    const opened = openTable(def, { ledger, log: silent, timers: clock.timers, params });
    if (!opened.report.ledgerVerified) violated(`the ledger did not verify at start: ${opened.report.problems.join('; ')}`);
    const tilts = new TiltManager({ ledger, log: silent });
    tilts.restore();
    const sims = new Map<number, SimAcceptor>();
    const order = [...stations];
    const acceptors = new BillAcceptors({
      config,
      ledger,
      log: silent,
      credits: tableCreditRule({ config, ledger, log: silent, fault: (station, detail) => tilts.raise('bill-cheat', { station, detail }) }),
      open: (_spec, o) => {
        const station = order.shift() ?? 0;
        const truth = truths.get(station);
        if (!truth) throw new Error(`no acceptor at station ${station}`);
        const a = new SimAcceptor(truth, { ...o, enabled: true });
        sims.set(station, a);
        return a;
      },
    });
    const sync = new SyncClient(ledger, {
      url: 'http://127.0.0.1:9',
      credentials: { terminalId: TERMINAL, key },
      fetch: upstream.fetchWith(linkFault),
      now: () => new Date(clock.wall()),
      random: () => rng.below(1000) / 1000,
    });
    const host: Host = { ledger, faulty, table: opened.table, tilts, acceptors, sims, sync };
    try {
      opened.resume({ newShoe: false, params });
      acceptors.start();
      for (const a of sims.values()) a.poll(true, false);
    } catch (e) {
      if (!(e instanceof Killed)) throw e;
    }
    recoverMs.push(performance.now() - t0);
    // Tilts persist: the faults held before the kill are the faults held after it (but for the
    // one whose raise or clear the kill committed and the process never heard of).
    if (tiltsBefore !== null) {
      const now = tiltKeys(tilts);
      const differ = now.filter((x) => !tiltsBefore?.includes(x)).length + tiltsBefore.filter((x) => !now.includes(x)).length;
      if (differ > (tiltInFlight ? 1 : 0)) violated(`tilts before the kill [${tiltsBefore.join(', ')}], after the restart [${now.join(', ')}]`);
    }
    checkCredits(host, 'after the start');
    return host;
  };

  const tiltKeys = (t: TiltManager) =>
    t
      .list()
      .map((x) => `${x.kind}${x.station !== undefined ? `@${x.station}` : ''}`)
      .sort();

  const checkCredits = (h: Host, when: string) => {
    if (h.faulty.killed) return;
    for (const s of stations) {
      const table = h.table.state.credits[s] ?? 0;
      const ledger = h.ledger.credit(s);
      if (table !== ledger) violated(`station ${s}'s credit is ${table} at the table and ${ledger} in the ledger ${when}`);
    }
  };

  /** A kill: everything of the process goes; the file, the devices and the upstream stay. */
  const countStorage = (h: Host) => {
    if (h.faulty.refused.SQLITE_FULL > 0) fault('sqlite-full', `${h.faulty.refused.SQLITE_FULL} write(s) refused`);
    if (h.faulty.refused.SQLITE_IOERR > 0) fault('sqlite-ioerr', `${h.faulty.refused.SQLITE_IOERR} write(s) refused`);
  };
  const crash = async (h: Host): Promise<Host> => {
    countStorage(h);
    kills++;
    const k = h.faulty.killed;
    fault(k?.committed ? 'kill-after-commit' : 'kill-before-commit', k ? `at write ${k.write} (${k.types.join(', ')})` : '');
    tiltsBefore = tiltKeys(h.tilts);
    const last = h.ledger.entry(h.ledger.headOf().seq);
    tiltInFlight = k?.committed === true && (last?.type ?? '').startsWith('tilt.');
    h.table.stop();
    clock.dropAll();
    await h.acceptors.close();
    h.ledger.close();
    if (chance(rates.truncated)) truncatedCopy();
    return boot();
  };

  /**
   * A truncated copy of the database must never open as a ledger that verifies, unless the cut
   * took nothing of it: SQLite reads past the end of a file as zeros, so a cut inside an empty
   * last page (an index of a table with no rows yet) leaves every row as it was (seed 101562).
   * Opened and verified, the copy must hold every row of every table the whole file holds.
   */
  const truncatedCopy = () => {
    const copy = path.join(dir, `truncated-${step}.sqlite`);
    const whole = path.join(dir, `whole-${step}.sqlite`);
    copyFileSync(file, copy);
    copyFileSync(file, whole);
    const size = statSync(copy).size;
    const cut = rng.below(Math.max(1, size - 1));
    truncateSync(copy, cut);
    fault('truncated-db', `${cut} of ${size} bytes`);
    let l: Ledger | null = null;
    try {
      l = Ledger.open({ file: copy, terminalId: TERMINAL, checkpointKey: null });
      const head = l.headOf().seq;
      const all = verifyFromGenesis(l);
      if (all && head > 0) {
        const lost = rowsLost(whole, copy);
        if (lost !== null) violated(`a database truncated to ${cut} of ${size} bytes opened and verified (head ${head}), yet ${lost}`);
        else note('the cut took no row: the truncated copy holds the whole ledger');
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
  };

  let host = boot();
  const alive = async () => {
    while (host.faulty.killed) host = await crash(host);
  };

  const dealCard = () => {
    if (unackedCard === null) {
      if (shoe.length === 0) shuffle();
      const card = shoe.pop() ?? aceOfSpades;
      unackedCard = { card, sequence: ++shoeSeq };
    }
    if (rates.cardGarbled > 0 && chance(rates.cardGarbled)) {
      // The frame reached the host garbled: its CRC fails, the driver drops it, the shoe sends it again.
      return fault('card-frame-garbled', `seq ${unackedCard.sequence}`);
    }
    const c = unackedCard;
    host.table.input({ kind: 'card', at: clock.wall(), card: c.card, sequence: c.sequence });
    if (host.faulty.killed) return; // died before the ACK: the shoe sends it again
    if (rates.cardAck > 0 && chance(rates.cardAck)) {
      fault('card-ack-lost', `seq ${c.sequence}`);
      // Sent again at once with its sequence: the table must not place it twice.
      host.table.input({ kind: 'card', at: clock.wall(), card: c.card, sequence: c.sequence });
      if (host.faulty.killed) return;
    }
    unackedCard = null;
  };

  const auto = (n: number) => {
    const table = host.table;
    const cue = table.reads.cue();
    const p = pendingOf(table.state, def);
    note(
      `auto: phase ${table.state.phase}, cue ${cue?.kind ?? 'none'}${p ? `, pending ${p.kind}` : ''}${table.state.hold ? `, hold ${table.state.hold.reason}` : ''}`,
    );
    if (cue?.kind === 'shuffle') {
      shuffle();
      unackedCard = null;
      table.shoe.onNewShoe(++shoeSeq);
    } else if (cue?.kind === 'card' || unackedCard !== null) dealCard();
    else if (p?.kind === 'decision') table.commands.decide(p.decider.kind === 'behind' ? p.decider.station : p.seat, p.legal[n % p.legal.length] ?? p.default);
    else if (table.state.hold) table.supervisor.voidRound('simulation: supervisor resolves the hold', ['sup-1', 'wit-2']);
    else if (table.reads.view().endsAt !== null) clock.advance(Math.max(0, (table.reads.view().endsAt ?? 0) - clock.wall()) + 1);
    else clock.advance(500);
  };

  const bet = () => {
    const station = stations[rng.below(stations.length)] ?? 1;
    const spots: Spot[] = def.bets.map((b): Spot => ({ bet: b }));
    let spot = spots[chance(0.8) ? 0 : rng.below(spots.length)];
    if (!spot) return;
    const hasMain = host.table.state.chips.some((c) => c.station === station && c.spot.bet === def.bets[0]);
    if (!options.sideBetsAlone && !hasMain) spot = spots[0] ?? spot;
    const amount = 10_000 * (1 + rng.below(5));
    const r = host.table.commands.placeBet(station, spot, amount);
    note(`bet ${station} ${spot.bet} ${amount}: ${r.ok ? 'taken' : `refused (${r.reason})`}`);
  };

  const insertNote = () => {
    const station = stations[rng.below(stations.length)] ?? 1;
    const a = host.sims.get(station);
    if (!a) return;
    const amount = [10_000, 50_000, 100_000][rng.below(3)] ?? 10_000;
    try {
      a.insert(amount);
    } catch (e) {
      if (!(e instanceof Killed)) note(`the escrow of a note at ${station} was not journalled: ${e instanceof Error ? e.message : String(e)}`);
    }
    pollAcceptors(false);
  };

  const pollAcceptors = (recovered: boolean) => {
    for (const [station, a] of host.sims) {
      const lost = rates.creditAck > 0 && chance(rates.creditAck);
      try {
        a.poll(recovered, lost);
        if (lost && truthOwed(station)) fault('credit-ack-lost', `station ${station}`);
      } catch (e) {
        if (!(e instanceof Killed)) note(`a credit at ${station} was not journalled: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (host.faulty.killed) return;
    }
  };
  const truthOwed = (station: number) => (truths.get(station)?.owed ?? null) !== null;

  const raiseTilt = () => {
    const t = TILTS[rng.below(TILTS.length)];
    if (!t) return;
    const where = t.station ? { station: stations[rng.below(stations.length)] ?? 1 } : {};
    try {
      if (chance(0.7)) host.tilts.raise(t.kind, where);
      else host.tilts.conditionGone(t.kind, where.station);
    } catch (e) {
      if (!(e instanceof Killed)) note(`a tilt was not journalled: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const syncOnce = async () => {
    try {
      await host.sync.syncOnce();
    } catch (e) {
      note(`sync threw ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const closedBefore = () => closedRounds(host.ledger);
  const closedAtStart = closedBefore();
  for (step = 1; step <= steps; step++) {
    const r = rng.below(100);
    try {
      if (r < 40) auto(rng.below(1000));
      else if (r < 58) bet();
      else if (r < 66) clock.advance(rng.below(1500));
      else if (r < 74) insertNote();
      else if (r < 78) pollAcceptors(false);
      else if (r < 90) await syncOnce();
      else if (r < 93) {
        const n = upstream.deliverHeld();
        if (n > 0) note(`${n} held request(s) delivered late`);
      } else if (r < 96) raiseTilt();
      else if (r < 97) {
        if (rates.escrowTimeout > 0 && chance(rates.escrowTimeout * 10)) {
          fault('escrow-timeout');
          for (const a of host.sims.values()) a.escrowTimeout();
        }
      } else if (r < 98) {
        if (rates.replug > 0 && chance(rates.replug * 50)) {
          // The acceptor unplugged and plugged back: its power-up report, a note owed reported again.
          fault('acceptor-replugged');
          for (const a of host.sims.values()) {
            a.start();
            a.poll(true, false);
          }
        }
      } else if (rates.clock > 0 && chance(rates.clock * 25)) {
        const back = chance(0.5);
        const ms = (1 + rng.below(3600)) * 1000;
        fault(back ? 'clock-step-back' : 'clock-step-forward', `${ms / 1000} s`);
        clock.step(back ? -ms : ms);
      }
    } catch (e) {
      if (!(e instanceof Killed)) {
        violated(`the host threw: ${e instanceof Error ? (e.stack ?? e.message) : String(e)} (chips ${JSON.stringify(host.table.state.chips)})`);
        break;
      }
    }
    await alive();
    checkCredits(host, `after step ${step}`);
    if (violations.length > 20) break;
  }
  const roundsClosed = closedRounds(host.ledger) - closedAtStart;

  // The end: the faults stop; owed credits are delivered, held requests arrive, and the sync
  // client sends until the upstream holds everything.
  countStorage(host);
  host.faulty.disarm();
  rates.link = 0;
  rates.creditAck = 0;
  for (const a of host.sims.values()) a.poll(false, false);
  upstream.deliverHeld();
  for (let i = 0; i < 500; i++) if ((await host.sync.syncOnce()) === 'empty') break;

  const result = account(host, truths, upstream, violations);
  host.table.stop();
  clock.dropAll();
  await host.acceptors.close();
  host.ledger.close();
  if (process.env.SIM_FAULTS_KEEP) console.error(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  return {
    seed: options.seed,
    game: pick.game,
    profile: pick.profile,
    steps: step - 1,
    starts,
    roundsClosed,
    faults,
    notes: result,
    entries: upstream.entries.length,
    recoverMs,
    trace,
    violations,
  };
}

function verifyFromGenesis(l: Ledger): boolean {
  return verifyLedger(l).ok;
}

function closedRounds(l: Ledger): number {
  let n = 0;
  const head = l.headOf().seq;
  for (let s = 1; s <= head; s++) {
    const e = l.entry(s);
    if (e && (e.type === 'round.settle' || e.type === 'round.void')) n++;
  }
  return n;
}

/** The invariants over the whole journal, the devices' truth and the upstream. */
function account(host: Host, truths: Map<number, AcceptorTruth>, upstream: FakeUpstream, violations: string[]): SimResult['notes'] {
  const l = host.ledger;
  const head = l.headOf().seq;
  const settled = new Map<string, number>();
  const credits = new Map<string, number>();
  let creditedAmount = 0;
  for (let s = 1; s <= head; s++) {
    const e = l.entry(s);
    if (!e) {
      violations.push(`journal entry ${s} is missing`);
      continue;
    }
    if ((e.type === 'round.settle' || e.type === 'round.void') && e.roundId) settled.set(e.roundId, (settled.get(e.roundId) ?? 0) + 1);
    // The simulated acceptors are honest: the credit rule refusing one of their notes is a bug of the rule.
    if (e.type === 'bill.refused')
      violations.push(`an honest acceptor's note was refused (entry ${e.seq}): ${JSON.stringify((JSON.parse(e.body) as EntryBody).payload)}`);
    if (e.type === 'bill.credit') {
      const body = JSON.parse(e.body) as EntryBody;
      const key = e.txId ?? `(no txId at ${e.seq})`;
      credits.set(key, (credits.get(key) ?? 0) + 1);
      creditedAmount += typeof body.payload.denomination === 'number' ? body.payload.denomination : 0;
    }
  }
  for (const [round, n] of settled) if (n > 1) violations.push(`round ${round} settled or voided ${n} times`);
  // Every note stacked is credited exactly once; no credit without a stacked note.
  let stacked = 0;
  let stackedAmount = 0;
  let lost = 0;
  let duplicated = 0;
  const expected = new Set<string>();
  for (const t of truths.values()) {
    for (const [id, n] of t.notes) {
      if (n.where !== 'stacker') continue;
      stacked++;
      stackedAmount += n.amount;
      const k = `${t.device}:${id}:credit`;
      expected.add(k);
      const c = credits.get(k) ?? 0;
      if (c === 0) {
        lost++;
        violations.push(`note ${id} of ${t.device} is in the stacker and was never credited`);
      } else if (c > 1) {
        duplicated += c - 1;
        violations.push(`note ${id} of ${t.device} was credited ${c} times`);
      }
    }
  }
  for (const [k] of credits)
    if (!expected.has(k)) {
      duplicated++;
      violations.push(`a credit with no stacked note: ${k}`);
    }
  // Money conserved to the minor unit: what the notes brought is on the meters, in open rounds, or the house's.
  const stations = [...truths.keys()];
  const onMeters = stations.reduce((sum, s) => sum + l.credit(s), 0);
  const open = l
    .openRounds()
    .flatMap((r) => r.stations)
    .reduce((sum, x) => sum + x.amount, 0);
  const cashedOut = 0;
  if (onMeters + open - l.balance('house') + cashedOut !== stackedAmount)
    violations.push(`money not conserved: meters ${onMeters} + open ${open} − house ${l.balance('house')} ≠ notes stacked ${stackedAmount}`);
  if (!verifyLedger(l).ok) violations.push('the ledger does not verify from its first entry');
  // The upstream holds exactly the local journal.
  if (upstream.entries.length !== head) violations.push(`the upstream holds ${upstream.entries.length} entries, the journal ${head}`);
  for (const u of upstream.entries) {
    const mine = l.entry(u.seq);
    if (!mine || mine.hash !== u.hash) violations.push(`the upstream's entry ${u.seq} is not the journal's`);
  }
  for (const a of upstream.stats.alarms) violations.push(`upstream alarm: ${a}`);
  return { stacked, stackedAmount, credited: [...credits.values()].reduce((a, b) => a + b, 0), creditedAmount, duplicated, lost };
}
