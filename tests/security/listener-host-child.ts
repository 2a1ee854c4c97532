// A table host in a process of its own, for the connection attack tests: the test runs it under a
// low file-descriptor limit (`ulimit -n`), as a kiosk might be, and attacks its two listeners from
// outside. Remote stations 101 and 102, 101 enrolled; prints one JSON line with what a real
// screen and a real station need (the table's launch token, 101's enrolment file), then serves
// until SIGTERM.
import path from 'node:path';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { createLogger } from '../../host/logger.js';
import { startHost } from '../../host/start-host.js';

const arg = JSON.parse(process.env.LISTENER_HOST ?? '{}') as { dataDir: string };
const config = TableConfig.parse({ ...simulatedTableConfig('blackjack'), remoteStations: 2 });
const running = await startHost({
  dataDir: arg.dataDir,
  rendererDir: path.join(arg.dataDir, 'no-renderer'),
  config,
  // The host's own logger, as in production (its file in the data folder), quiet on the console.
  logger: createLogger(path.join(arg.dataDir, 'logs'), { console: null }),
  simulatedDealer: false,
});
const enrolment = running.stadium.enrol(101, ['Test A (1)', 'Test B (2)']);
const lan = running.stadium.lanOrigin;
console.log(
  JSON.stringify({
    origin: running.origin,
    lan,
    tableToken: running.screens.urls.find((s) => s.view === 'table')?.token,
    enrolment,
  }),
);
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
