// Three live tables of three games for the browser test of the several-tables station screen
// (issue 34): a baccarat, a blackjack and a «Desafio ao Casino» table host (simulated shoes and
// dealers), each enrolling remote station 101, and one station agent on this machine joined to
// all three (the baccarat table its home: its simulated bill acceptor is relayed there). The three
// hosts are enrolled with each other as one floor (peers.json), so the station's credit moves
// between them by transfers (docs/transfers.md). Prints
// one JSON line: the station screen's URL. Control lines on stdin: `note N` inserts a note of N at
// the station's acceptor; `end-betting GAME` ends that table's betting countdown; `stop GAME`
// closes that table's host (its links go; the others play on).
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../../upstream/free-port.js';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { enrolFloor } from '../../host/peers/enrol-floor.js';
import { TableId } from '../../terms/transfer-terms.js';
import { startHost } from '../../host/start-host.js';
import { startStationAgent } from '../../host/station-agent/agent.js';

const root = path.resolve(import.meta.dirname, '../..');
const log = pino({ level: 'warn' }, pino.destination(2));
const games = ['baccarat', 'blackjack', 'war'] as const;
const dirs = games.map((g) => mkdtempSync(path.join(os.tmpdir(), `several-browser-${g}-`)));
const configs = await Promise.all(
  games.map(async (game) => TableConfig.parse({ ...simulatedTableConfig(game), remoteStations: 4, lan: { host: '127.0.0.1', port: await freePort() } })),
);
await enrolFloor(
  configs.map((c, i) => ({ table: TableId.parse(c.tableId), dataDir: dirs[i]!, url: `https://127.0.0.1:${c.lan.port}`, stations: i === 0 ? [101] : [] })),
  { tickMs: 100 },
);
const hosts = await Promise.all(
  games.map((game, i) =>
    startHost({
      dataDir: dirs[i]!,
      rendererDir: path.join(root, 'dist/renderer'),
      config: configs[i]!,
      logger: log,
      seed: 5 + i,
      simulatedDealer: { dealMs: 400 },
      timings: { bettingMs: 20_000, decisionMs: 10_000, resultsMs: 10_000 },
    }),
  ),
);
const [home, ...others] = hosts.map((h) => h.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']));
const agent = await startStationAgent({
  enrolment: home!,
  others,
  billAcceptor: 'sim',
  protocol: 'id003',
  currency: 'MOP',
  log,
  rendererDir: path.join(root, 'dist/renderer'),
});
console.log(JSON.stringify({ station: agent.screenUrl, tables: [home!, ...others].map((e) => e.tableId) }));

createInterface({ input: process.stdin }).on('line', (line) => {
  const [what, arg] = line.trim().split(' ');
  if (what === 'note') agent.relay.simulator()?.insertNote(Number(arg));
  else if (what === 'end-betting') hosts[games.findIndex((g) => g === arg)]?.table.countdowns.end('betting');
  else if (what === 'stop') void hosts[games.findIndex((g) => g === arg)]?.close();
});
const stop = async () => {
  await agent.close();
  await Promise.all(hosts.map((h) => h.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.stdin.once('end', () => void stop());
