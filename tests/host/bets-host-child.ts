// The group-commit kill test's table host, a process of its own so the test can SIGKILL it: a
// baccarat table with remote stations on a fixed LAN port, a simulated shoe and dealer, long
// betting windows, and a group-commit window the test sets wide (so a kill often lands inside
// one). The first start enrols the stations, credits each from a note journalled as a bill
// acceptor's, and writes their enrolment files.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { startHost } from '../../host/start-host.js';
import { REMOTE_STATION_BASE } from '../../protocol/index.js';

const arg = JSON.parse(process.env.BETS_HOST ?? '{}') as { dataDir: string; stations: number; lanPort: number; out: string; windowMs: number };
const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), remoteStations: arg.stations, lan: { host: '127.0.0.1', port: arg.lanPort } });
const running = await startHost({
  dataDir: arg.dataDir,
  rendererDir: path.join(arg.dataDir, 'no-renderer'),
  config,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  simulatedDealer: { dealMs: 20 },
  timings: { bettingMs: 2500, decisionMs: 1000, resultsMs: 200 },
  groupCommit: { windowMs: arg.windowMs },
  incoming: { burst: 1000, perSecond: 1000, dropAfter: 1000, refused: { burst: 1000, perSecond: 1000 } },
});
if (!existsSync(arg.out)) {
  const files = Array.from({ length: arg.stations }, (_, i) => {
    const station = REMOTE_STATION_BASE + 1 + i;
    for (let n = 0; n < 5; n++)
      running.ledger.append({
        type: 'bill.credit',
        payload: { station, device: `BA-${station}`, denomination: 100_000, currency: 'MOP' },
        txId: `kill-test-note-${station}-${n}`,
      });
    return running.stadium.enrol(station, ['Test A', 'Test B']);
  });
  writeFileSync(arg.out, JSON.stringify(files));
}
console.log('ready');
