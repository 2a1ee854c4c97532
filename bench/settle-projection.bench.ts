// `npm run bench -- settle-projection`: what projecting every station's own part of one state costs
// the table host at a stadium, apart from the hub and its sockets (issue 55). A baccarat table of
// 1,000 remote stations (host/testing/table-kit.ts), 100 of them betting, played to two states:
// the settling card's (the results: each bettor's lines and net in its own part) and the next
// betting window's (every station's own part new). At each, every station's own part is projected
// through a new read model of that state (host/table/table-reads.ts `station`, as the hub's
// station build asks for it, nothing kept from one repetition to the next) and encoded as JSON;
// the baseline is the bare encode of the same thousand parts, already projected. Prints the
// thread's CPU time of each and their ratio. Nothing asserts a timing.
//
// SETTLE_STATIONS=1000 SETTLE_BETTORS=100 SETTLE_REPS=200: the sizes (defaults shown).
import os from 'node:os';
import { parseCard } from '../engine/cards/card.js';
import type { GameDefinition } from '../engine/table/game.js';
import type { TableState } from '../engine/table/state.js';
import { shuffledShoe } from '../hardware/shoe/simulator.js';
import { simulatedTableConfig, TableConfig } from '../host/config/table-config.js';
import { TableReadModel } from '../host/table/table-reads.js';
import { openTableGame } from '../host/table/table-game.js';
import { credit, testTable } from '../host/testing/table-kit.js';
import { REMOTE_STATION_BASE, type Spot } from '../protocol/index.js';
import { figure, QUICK, times } from './report.js';

const STATIONS = Number(process.env.SETTLE_STATIONS ?? (QUICK ? 100 : 1000));
const BETTORS = Number(process.env.SETTLE_BETTORS ?? (QUICK ? 10 : 100));
const REPS = Number(process.env.SETTLE_REPS ?? (QUICK ? 10 : 200));
const SPOTS: Spot[] = [{ bet: 'banker' }, { bet: 'player' }, { bet: 'tie' }];

/** The thread's CPU time in ms (user + system). */
function cpu(): number {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
}

const lan = { perAddress: 2 * STATIONS + 64, total: 2 * STATIONS + 64 };
const { connections } = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: STATIONS, connections: { lan } });
const t = testTable({ game: 'baccarat', config: { remoteStations: STATIONS, connections } });
const game = t.table.game;
/** The configured game's definition, as the runtime's read model holds it. */
const definition = openTableGame(t.config, (g) => g as unknown as GameDefinition<unknown, unknown>);
/** A new read model of a state. */
const readsOf = (s: TableState<unknown, unknown>) => new TableReadModel(definition, () => s);
const stations = Array.from({ length: STATIONS }, (_, i) => REMOTE_STATION_BASE + i + 1);
for (let i = 1; i <= BETTORS; i++) credit(t.ledger, REMOTE_STATION_BASE + i, 1_000_000);

// Played to a coup's results, then to the next betting window: the two states timed.
const shoe = shuffledShoe(game.decks, 7);
let pos = 0;
const deal = () => t.table.shoe.onCard(parseCard(shoe[pos++] ?? '2C'));
t.table.shoe.onNewShoe();
for (let i = 0; i < 40 && (t.table.reads.view().phase !== 'betting' || t.table.reads.cue() !== null); i++) deal();
for (let i = 1; i <= BETTORS; i++) t.table.commands.placeBet(REMOTE_STATION_BASE + i, SPOTS[i % SPOTS.length] as Spot, 10_000);
t.clock.runOut(t.table.reads.view().endsAt);
for (let i = 0; i < 12 && t.table.reads.view().phase === 'dealing'; i++) deal();
if (t.table.reads.view().phase !== 'results') throw new Error(`the coup did not settle: ${t.table.reads.view().phase}`);
const settled = t.table.state;
t.clock.runOut(t.table.reads.view().endsAt);
if (t.table.reads.view().phase !== 'betting') throw new Error(`betting did not open: ${t.table.reads.view().phase}`);
const opened = t.table.state;

type State = typeof settled;
/** Every station's own part of `s`, each projected as the hub's build asks for it, and encoded. */
const projectAndEncode = (s: State): number => {
  const reads = readsOf(s);
  let bytes = 0;
  for (const station of stations) bytes += JSON.stringify(reads.station(station)).length;
  return bytes;
};
/** The same parts, projected already: their encode alone. */
const encodeOnly = (parts: readonly unknown[]): number => {
  let bytes = 0;
  for (const p of parts) bytes += JSON.stringify(p).length;
  return bytes;
};

const load0 = os.loadavg();
console.log(`${STATIONS} remote stations, ${BETTORS} of them betting; ${REPS} repetitions a state, taking turns; CPU ms of the thread a state (every station)`);
for (const [name, s] of [
  ['the settling card (results)', settled],
  ['the results end (betting opens)', opened],
] as const) {
  const reads = readsOf(s);
  const parts = stations.map((n) => reads.station(n));
  // Warm both before timing.
  for (let i = 0; i < Math.min(20, REPS); i++) {
    projectAndEncode(s);
    encodeOnly(parts);
  }
  let projected = 0;
  let encoded = 0;
  let bytes = 0;
  for (let i = 0; i < REPS; i++) {
    const t0 = cpu();
    bytes = projectAndEncode(s);
    const t1 = cpu();
    encodeOnly(parts);
    const t2 = cpu();
    projected += t1 - t0;
    encoded += t2 - t1;
  }
  const r = figure({
    name: `${name}: every station's own part projected and encoded, ${STATIONS} stations`,
    unit: 'ms',
    value: projected / REPS,
    better: 'lower',
    baseline: { name: 'the same parts, projected already, encoded alone', value: Math.max(encoded / REPS, 1e-3) },
  });
  console.log(
    `  ${name.padEnd(32)} projected and encoded ${(projected / REPS).toFixed(2)} ms, encoded alone ${(encoded / REPS).toFixed(2)} ms (${times(r)}); ${(bytes / STATIONS).toFixed(0)} B a station`,
  );
}
console.log(
  `load average ${load0.map((l) => l.toFixed(2)).join(' ')} → ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
t.close();
