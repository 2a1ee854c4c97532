// One table host of the three-table soak (floor-soak.ts), a process of its own so the soak can
// SIGKILL it: its game, its ledger and LAN listener, its peers (peers.json, written by the soak),
// simulated shoe and dealer. The first start enrols the floor's stations (their enrolment files
// pointing at the soak's cuttable proxy) and gives the stations homed here their opening credit.
// At blackjack three seated players play (autoplay: notes, main bets, basic strategy, now and then
// a cash-out an attendant pays): a remote station bets there only behind a seat whose player bets.
// It syncs its ledger to the soak's upstream through every kill (its sync resumes where the
// upstream says it stopped). Every 250 ms it prints how many of its transfers are open, how far
// the upstream has acknowledged its ledger and how many remote stations' lines it has settled, for
// the soak to know when all closed and synced, and that its stations played here.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { outgoingTransfers } from '../../host/transfers/state.js';
import { billCredit } from '../../ledger/fixtures.js';
import { entriesOfTypes, type EntryBody } from '../../ledger/index.js';
import { parsePayload } from '../../ledger/entries.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';

export interface FloorHostArgs {
  dataDir: string;
  tableId: string;
  game: 'baccarat' | 'blackjack' | 'war';
  lanPort: number;
  /** Every station of the floor (each table enrols them all), and those homed here. */
  stations: number[];
  homed: number[];
  viaOrigin: string;
  enrolments: string;
  /** Notes of this face value credited to each station homed here at the first start. */
  openingNotes: number;
  /** Seeds the seated players (blackjack). */
  seed: number;
  /** The upstream the host syncs its ledger to (its credentials in the data folder, enrolled by the soak). */
  upstream: string;
}

/** Seated players at the blackjack table: enough seats for the remote stations to bet behind (three bettors a seat, Macau Art. 20). */
export const BLACKJACK_SEATED = 3;

const arg = JSON.parse(process.env.FLOOR_SOAK ?? '{}') as FloorHostArgs;
const remote = Math.max(...arg.stations) - 100;
const base = simulatedTableConfig(arg.game);
const seated = arg.game === 'blackjack';
const config = TableConfig.parse({
  ...base,
  ...(seated ? { stations: base.stations.slice(0, BLACKJACK_SEATED) } : {}),
  tableId: arg.tableId,
  remoteStations: remote,
  lan: { host: '127.0.0.1', port: arg.lanPort },
  connections: { lan: { perAddress: 4 * remote + 64, total: 4 * remote + 64 } },
});
const running = await startHost({
  dataDir: arg.dataDir,
  rendererDir: path.join(arg.dataDir, 'no-renderer'),
  config,
  logger: pino({ level: 'error' }, pino.destination(2)),
  upstream: arg.upstream,
  simulatedDealer: { dealMs: 20 },
  timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 200 },
  ...(seated ? { autoplay: true, seed: arg.seed } : {}),
});
if (!existsSync(arg.enrolments)) {
  for (const s of arg.homed) running.ledger.append(billCredit(s, arg.openingNotes, `${arg.tableId}-opening-${s}`, config.currency));
  const files = arg.stations.map((s) => ({ ...running.stadium.enrol(s, ['Soak A', 'Soak B']), host: arg.viaOrigin }));
  const tmp = `${arg.enrolments}.tmp`;
  writeFileSync(tmp, JSON.stringify(files));
  // Renamed whole: a kill mid-write leaves no half file the next start would believe.
  (await import('node:fs')).renameSync(tmp, arg.enrolments);
}
/** Remote stations' lines settled in this ledger so far (all its lives): the soak plays on until every table has some. */
let remoteLines = 0;
let scannedFrom = 1;
const countRemoteLines = () => {
  for (const e of entriesOfTypes(running.ledger, ['round.settle'], scannedFrom)) {
    scannedFrom = e.seq + 1;
    // Read through the entry's own schema, as the recall reads it: no payload taken on trust.
    const settle = parsePayload('round.settle', (JSON.parse(e.body) as EntryBody).payload);
    remoteLines += settle.lines.filter((l) => l.station > REMOTE_STATION_BASE).length;
  }
};
const report = () => {
  countRemoteLines();
  const t = running.transfers;
  const open = t ? outgoingTransfers(t.host.state).filter((o) => o.phase === 'offering' || o.phase === 'recalling').length : -1;
  const links = t ? [...t.links.values()].filter((l) => l.connected()).length : 0;
  // What the upstream acknowledged beside the ledger's head: the soak waits for the one to reach the other.
  const sync = running.sync?.status();
  process.stdout.write(
    `${JSON.stringify({ open, links, started: t?.counters.started ?? 0, acked: sync?.ackedSeq ?? -1, head: sync?.headSeq ?? -1, remoteLines })}\n`,
  );
};
console.log(JSON.stringify({ ready: true }));
setInterval(report, 250);
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
