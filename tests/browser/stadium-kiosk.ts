// A table with remote stations for the browser test: the host (baccarat, simulated shoe and
// dealer) and one station agent on this machine, as a remote station's machine runs it (its
// simulated bill acceptor, its screen served on the loopback and relayed to the table over the
// pinned TLS link). Prints one JSON line: the table display's URL and the station screen's.
// Control lines on stdin: `note N` inserts a note of N at the station's acceptor; `end-betting`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { startStationAgent } from '../../host/station-agent/agent.js';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'stadium-browser-'));
const log = pino({ level: 'warn' }, pino.destination(2));
const running = await startHost({
  dataDir,
  rendererDir: path.join(root, 'dist/renderer'),
  config: TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: 4 }),
  logger: log,
  seed: 5,
  simulatedDealer: { dealMs: 600 },
  timings: { bettingMs: 15_000, decisionMs: 10_000, resultsMs: 20_000 },
});
const enrolment = running.stadium.enrol(101, ['Ana Lei (1001)', 'Rui Sá (1002)']);
const agent = await startStationAgent({
  enrolment,
  billAcceptor: 'sim',
  protocol: 'id003',
  currency: 'MOP',
  log,
  rendererDir: path.join(root, 'dist/renderer'),
});
const table = running.screens.urls.find((s) => s.view === 'table');
console.log(JSON.stringify({ table: table?.url, station: agent.screenUrl }));

createInterface({ input: process.stdin }).on('line', (line) => {
  const [what, arg] = line.trim().split(' ');
  if (what === 'note') agent.relay.simulator()?.insertNote(Number(arg));
  else if (what === 'end-betting') running.table.countdowns.end('betting');
});
const stop = async () => {
  await agent.close();
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.stdin.once('end', () => void stop());
