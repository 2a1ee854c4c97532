// The stadium soak's table host, a process of its own so the soak can kill it: a baccarat table
// with remote stations on a fixed LAN port, simulated shoe and dealer. The first start enrols the
// stations and writes their enrolment files (pointing at `viaOrigin`, the soak's cuttable proxy).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';

const arg = JSON.parse(process.env.STADIUM_SOAK ?? '{}') as { dataDir: string; stations: number; lanPort: number; viaOrigin: string; out: string };
// Every station connects from 127.0.0.1 here (through the soak's proxy); on the floor each is a machine of its own.
const lanCaps = { perAddress: 2 * arg.stations + 64, total: 2 * arg.stations + 64 };
const config = TableConfig.parse({
  ...simulatedTableConfig('baccarat'),
  remoteStations: arg.stations,
  lan: { host: '127.0.0.1', port: arg.lanPort },
  connections: { lan: lanCaps },
});
const running = await startHost({
  dataDir: arg.dataDir,
  rendererDir: path.join(arg.dataDir, 'no-renderer'),
  config,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  simulatedDealer: { dealMs: 20 },
  timings: { bettingMs: 1500, decisionMs: 1000, resultsMs: 200 },
});
if (!existsSync(arg.out)) {
  const files = Array.from({ length: arg.stations }, (_, i) => {
    const e = running.stadium.enrol(REMOTE_STATION_BASE + 1 + i, ['Soak A', 'Soak B']);
    return { ...e, host: arg.viaOrigin };
  });
  writeFileSync(arg.out, JSON.stringify(files));
}
console.log('ready');
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
