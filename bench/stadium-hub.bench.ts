// `npm run bench -- stadium-hub`: the table host's CPU per change at a stadium, without sockets or
// NATS. A baccarat table of 1,000 remote stations (host/testing/table-kit.ts: its real runtime,
// ledger and view hub, timers run by hand), every station subscribed to the hub as the edges'
// bridge subscribes them, 100 of them betting each coup; beside it, in the same process and taking
// turns coup by coup, the same table with the same bets and cards and no station subscribed (the
// baseline: the table's own work, its journal and the public parts, with the hub's stations idle).
// Each change is timed in the thread's CPU time (`process.threadCpuUsage`), not wall time, so a
// loaded machine lengthens it less. Prints the CPU per change by kind, per coup, and the ratio to
// the baseline. After each coup the hub is told ten times of a change that moved nothing ("no
// move": every station's deps worked out and found the same), which is what the deps alone cost.
// Nothing asserts a timing.
//
// HUB_STATIONS=1000 HUB_BETTORS=100 HUB_COUPS=40: the sizes (defaults shown).
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCard } from '../engine/cards/card.js';
import { shuffledShoe } from '../hardware/shoe/simulator.js';
import { simulatedTableConfig, TableConfig } from '../host/config/table-config.js';
import { REMOTE_STATION_BASE, stationView, type Spot } from '../protocol/index.js';
import type { Update } from '../host/screens/outbox.js';
import { credit, submitted, testTable, type TestTable } from '../host/testing/table-kit.js';
import { figure, QUICK, times } from './report.js';

const STATIONS = Number(process.env.HUB_STATIONS ?? (QUICK ? 100 : 1000));
const BETTORS = Number(process.env.HUB_BETTORS ?? (QUICK ? 10 : 100));
const COUPS = Number(process.env.HUB_COUPS ?? (QUICK ? 3 : 40));
const SPOTS: Spot[] = [{ bet: 'banker' }, { bet: 'player' }, { bet: 'tie' }];

type Kind = 'bet' | 'card' | 'settling card' | 'results end' | 'no move';
const KINDS: Kind[] = ['bet', 'card', 'settling card', 'results end', 'no move'];
interface Counts {
  looked: number;
  built: number;
  /** Own-part patches worked out and encoded (the hub's `patched`). */
  patched: number;
  /** Idle stations' own parts made from their last one, not built (the hub's `reused`). */
  reused: number;
  updates: number;
  chars: number;
}
const noCounts = (): Counts => ({ looked: 0, built: 0, patched: 0, reused: 0, updates: 0, chars: 0 });

/** The thread's CPU time in ms (user + system). */
function cpu(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

interface Run {
  t: TestTable;
  /** CPU ms of each change, by kind. */
  spent: Map<Kind, number[]>;
  /** Updates the stations' sinks were handed. */
  delivered: number;
  /** Own-part updates handed to the stations' sinks, and their characters (the patch, else the whole: what an edge is published). */
  own: { updates: number; chars: number };
  /** By kind of change, summed: stations looked at, own parts built, own-part updates handed over and their characters. */
  counts: Map<Kind, Counts>;
  /** Its changes are profiled (HUB_CPU_PROF). */
  profiled: boolean;
}

function open(subscribed: boolean): Run {
  // Room on the LAN for every station's two connections (the configuration's check), the rest its defaults.
  const lan = { perAddress: 2 * STATIONS + 64, total: 2 * STATIONS + 64 };
  const { connections } = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: STATIONS, connections: { lan } });
  const t = testTable({ game: 'baccarat', config: { remoteStations: STATIONS, connections } });
  // Credit for every coup's bets, before any view is built (nothing to look at yet).
  for (let i = 1; i <= BETTORS; i++) credit(t.ledger, REMOTE_STATION_BASE + i, 10_000 * COUPS * 2);
  const run: Run = {
    t,
    spent: new Map(KINDS.map((k) => [k, []])),
    delivered: 0,
    own: { updates: 0, chars: 0 },
    counts: new Map(KINDS.map((k) => [k, noCounts()])),
    profiled: subscribed,
  };
  if (subscribed) {
    const sink = {
      deliver: (_slot: string, u: Update) => {
        run.delivered++;
        run.own.updates++;
        // As an outbox does for a screen that holds the version before: the patch, else the whole.
        run.own.chars += (u.patch ?? u.whole()).text.length;
      },
    };
    for (let i = 1; i <= STATIONS; i++) {
      const s = REMOTE_STATION_BASE + i;
      t.hub.subscribe(stationView(s), `edge:${s}`, sink, false);
    }
    t.hub.subscribeParts({ deliver: () => run.delivered++, changeDone: () => undefined });
  }
  return run;
}

// HUB_CPU_PROF=DIR HUB_CPU_PROF_KIND='settling card': a V8 CPU profile of each change of that kind
// at the subscribed table (after the warm-up), one file each, written to DIR.
const PROF_DIR = process.env.HUB_CPU_PROF;
const PROF_KIND = (process.env.HUB_CPU_PROF_KIND ?? 'settling card') as Kind;
const inspector = PROF_DIR ? new Session() : null;
inspector?.connect();
inspector?.post('Profiler.enable');
let profiling = false;
let profiles = 0;

/** `kind`: what the change was, or how to tell once it is done (a card that settled the coup). */
function timed(run: Run, kind: Kind | (() => Kind), f: () => void): void {
  const prof = profiling && run.profiled && inspector !== null;
  if (prof) inspector.post('Profiler.start');
  const c = run.t.hub.counters;
  const was = { looked: c.looked, built: c.built, patched: c.patched, reused: c.reused, updates: run.own.updates, chars: run.own.chars };
  const t0 = cpu();
  f();
  const spent = cpu() - t0;
  const k = typeof kind === 'function' ? kind() : kind;
  run.spent.get(k)?.push(spent);
  const counts = run.counts.get(k);
  if (counts) {
    counts.looked += c.looked - was.looked;
    counts.built += c.built - was.built;
    counts.patched += c.patched - was.patched;
    counts.reused += c.reused - was.reused;
    counts.updates += run.own.updates - was.updates;
    counts.chars += run.own.chars - was.chars;
  }
  if (prof)
    inspector.post('Profiler.stop', (err, r) => {
      if (!err && k === PROF_KIND && PROF_DIR) writeFileSync(path.join(PROF_DIR, `hub-${++profiles}.cpuprofile`), JSON.stringify(r.profile));
    });
}

/** The table's shoe, shuffled from a seed (both tables get the same cards), and a new one past its cut card. */
function dealer(run: Run): () => void {
  const { t } = run;
  let seed = 1;
  let shoe = shuffledShoe(t.table.game.decks, seed);
  let pos = 0;
  let seq = 1_000;
  return () => {
    const cue = t.table.reads.cue();
    if (cue?.kind === 'shuffle' || pos >= shoe.length) {
      shoe = shuffledShoe(t.table.game.decks, ++seed);
      pos = 0;
      t.table.shoe.onNewShoe(++seq);
      return;
    }
    const card = parseCard(shoe[pos++] ?? '');
    // The change that settled the coup is counted apart.
    timed(
      run,
      () => (t.table.reads.view().phase === 'results' ? 'settling card' : 'card'),
      () => t.table.shoe.onCard(card, ++seq),
    );
    if (pos === shoe.length - 16) t.table.shoe.onCutCard(++seq);
  };
}

/** One coup: the bettors' bets (each its own change: no group commit here), the cards, the results' end. */
function coup(run: Run, deal: () => void, n: number): void {
  const { t } = run;
  // A new shoe's burn, or the round before's last cards: dealt until bets are taken.
  for (let cue = t.table.reads.cue(); t.table.reads.view().phase !== 'betting' || cue?.kind === 'card' || cue?.kind === 'shuffle'; cue = t.table.reads.cue()) {
    if (cue === null) throw new Error(`coup ${n}: no betting and nothing to do (${t.table.reads.view().phase})`);
    deal();
  }
  for (let i = 1; i <= BETTORS; i++) {
    const view = stationView(REMOTE_STATION_BASE + i);
    const spot = SPOTS[(i + n) % SPOTS.length] as Spot;
    timed(run, 'bet', () => {
      const r = submitted(t.hub.commands.submit(view, t.hub.version(view), { name: 'place-bet', spot, amount: 10_000 }));
      if (!r.ok) throw new Error(`bet refused: ${JSON.stringify(r.error)}`);
    });
  }
  t.clock.runOut(t.table.reads.view().endsAt);
  for (let i = 0; i < 12 && t.table.reads.view().phase === 'dealing'; i++) deal();
  const v = t.table.reads.view();
  if (v.phase !== 'results') throw new Error(`coup ${n} did not settle: ${v.phase}${v.hold ? ` (${v.hold})` : ''}`);
  timed(run, 'results end', () => t.clock.runOut(t.table.reads.view().endsAt));
  // The hub told of a change that moved nothing (the configuration looked at again): every
  // station's deps worked out and found the same, nothing built. What the deps alone cost.
  for (let i = 0; i < 10; i++) timed(run, 'no move', () => t.hub.configChanged());
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const f1 = (x: number) => x.toFixed(x < 10 ? 2 : 1);

const load0 = os.loadavg();
const hub = open(true);
const bare = open(false);
const deals = new Map([hub, bare].map((r) => [r, dealer(r)]));
const play = (r: Run, n: number) => coup(r, deals.get(r) ?? (() => undefined), n);
// The first coups warm the JIT and fill the caches; they are not counted.
const WARM = Math.min(3, Math.max(1, Math.floor(COUPS / 10)));
for (let n = 0; n < WARM; n++) {
  play(hub, n);
  play(bare, n);
}
for (const r of [hub, bare]) {
  for (const xs of r.spent.values()) xs.length = 0;
  for (const k of KINDS) r.counts.set(k, noCounts());
}
profiling = true;
for (let n = WARM; n < WARM + COUPS; n++) {
  play(hub, n);
  play(bare, n);
}
const load1 = os.loadavg();

console.log(
  `${STATIONS} remote stations, ${STATIONS} subscribed, ${BETTORS} betting a coup (each bet its own change), ${COUPS} coups; baseline: the same table, no station subscribed`,
);
console.log(`load average ${load0.map((l) => l.toFixed(2)).join(' ')} → ${load1.map((l) => l.toFixed(2)).join(' ')}; CPU ms of the host's thread per change`);
for (const kind of KINDS) {
  const a = hub.spent.get(kind) ?? [];
  const b = bare.spent.get(kind) ?? [];
  const mean = sum(a) / a.length;
  const r = figure({
    name: `host CPU per ${kind}, ${STATIONS} stations subscribed (mean)`,
    unit: 'ms',
    value: mean,
    better: 'lower',
    baseline: { name: `the same, no station subscribed`, value: Math.max(sum(b) / b.length, 1e-3) },
  });
  console.log(
    `  ${kind.padEnd(14)} mean ${f1(mean)} p50 ${f1(q(a, 0.5))} p99 ${f1(q(a, 0.99))} max ${f1(Math.max(...a))}   (baseline mean ${f1(sum(b) / b.length)} p50 ${f1(q(b, 0.5))}, ${times(r)})`,
  );
}
// The work behind the CPU: counted, so the same on a loaded machine.
console.log(
  'work per change at the subscribed table (means): stations looked at, own parts built, own parts made from their last, own-part patches worked out and encoded, own-part updates handed over, their characters',
);
for (const kind of KINDS) {
  const n = hub.spent.get(kind)?.length ?? 0;
  const x = hub.counts.get(kind) ?? noCounts();
  const per = (v: number) => (n > 0 ? v / n : NaN).toFixed(1);
  console.log(
    `  ${kind.padEnd(14)} looked ${per(x.looked)} built ${per(x.built)} reused ${per(x.reused)} patched ${per(x.patched)} updates ${per(x.updates)} chars ${per(x.chars)}`,
  );
}
// A coup's own changes (not the ten that moved nothing, timed apart).
const perCoup = (r: Run) => sum(KINDS.filter((k) => k !== 'no move').map((k) => sum(r.spent.get(k) ?? []))) / COUPS;
const c = figure({
  name: `host CPU per coup, ${STATIONS} stations subscribed`,
  unit: 'ms',
  value: perCoup(hub),
  better: 'lower',
  baseline: { name: 'the same, no station subscribed', value: perCoup(bare) },
});
console.log(
  `  per coup       ${f1(perCoup(hub))} ms (baseline ${f1(perCoup(bare))} ms, ${times(c)}); ${Math.round(hub.delivered / COUPS)} updates handed to sinks a coup`,
);
console.log(`  hub counters: ${JSON.stringify(hub.t.hub.counters)}`);
hub.t.close();
bare.t.close();
