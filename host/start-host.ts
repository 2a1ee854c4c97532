import path from 'node:path';
import type { Logger } from 'pino';
import type { ViewName } from '../protocol/index.js';
import { openLedger, startLedgerSync, type Ledger, type SyncClient } from '../ledger/index.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { BillAcceptors } from './devices/bill-acceptors.js';
import { prepareDataDir } from './data-dir.js';
import { createLogger } from './logger.js';
import { PowerMarker } from './power-marker.js';
import { LaunchTokens } from './screens/launch-tokens.js';
import { ScreenSession, type ScreenTransport } from './screens/screen-session.js';
import { TableHost } from './screens/table-host.js';
import { createHttpServer } from './server/http-server.js';
import { SOFTWARE_VERSION } from './version.js';

export interface HostOptions {
  dataDir: string;
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  config?: TableConfig;
  logger?: Logger;
  /** The terminal this kiosk is to the casino system (`--terminal-id`); default: the table id. */
  terminalId?: string;
  /** `--upstream URL`: sync the ledger to the casino's upstream service (credentials in the data dir). */
  upstream?: string;
}

export interface RunningHost {
  origin: string;
  dataDir: string;
  /** Each screen's URL, carrying its own launch token. */
  screens: { view: ViewName; url: string; token: string }[];
  host: TableHost;
  ledger: Ledger;
  billAcceptors: BillAcceptors;
  sync: SyncClient | null;
  log: Logger;
  /** A screen connection over any transport (WebSocket, Electron MessagePort), same rules for all. */
  openSession(transport: ScreenTransport): ScreenSession;
  close(): Promise<void>;
}

/** The table host's composition root: config, state, tokens, web server. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const { dataDir, logDir } = prepareDataDir(options.dataDir);
  const log = options.logger ?? createLogger(logDir);
  const config = TableConfig.parse(options.config ?? simulatedTableConfig());
  const terminalId = options.terminalId ?? config.tableId;
  // Opening checks WAL + synchronous=FULL, integrity and the schema version; a ledger that fails
  // any of them stops the start-up with its reason, and nothing is touched.
  const ledger = openLedger(dataDir, terminalId);
  const power = new PowerMarker(dataDir);
  let sync: SyncClient | null = null;
  const release = async () => {
    await sync?.stop();
    ledger.close();
    power.stop();
  };
  try {
    // Every start is a power reset on the meters; an unclean one (kill, power cut) says so.
    const clean = power.start();
    ledger.append({ type: 'power.reset', payload: { clean, softwareVersion: SOFTWARE_VERSION } });
    if (!clean) log.warn('the previous run did not stop cleanly (power cut or kill)');
    if (options.upstream) sync = startLedgerSync({ ledger, upstream: options.upstream, terminalId, dataDir });
    return await serve(options, { log, config, terminalId, ledger, sync, release });
  } catch (e) {
    await release();
    throw e;
  }
}

interface Opened {
  log: Logger;
  config: TableConfig;
  terminalId: string;
  ledger: Ledger;
  sync: SyncClient | null;
  release: () => Promise<void>;
}

async function serve(options: HostOptions, { log, config, terminalId, ledger, sync, release }: Opened): Promise<RunningHost> {
  const dataDir = path.resolve(options.dataDir);
  const host = new TableHost(config, SOFTWARE_VERSION, (station) => ledger.credit(station));
  const billAcceptors = new BillAcceptors({ config, ledger, log, onCreditChanged: (station) => host.creditChanged(station) });
  const tokens = new LaunchTokens(host.views());
  const started = Date.now();
  const openSession = (transport: ScreenTransport) => new ScreenSession(host, tokens, transport, log);

  const server = await createHttpServer(
    {
      openSession,
      log,
      rendererDir: options.rendererDir,
      health: () => ({
        tableId: config.tableId,
        game: config.game,
        version: SOFTWARE_VERSION,
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        terminalId,
        devices: { shoe: config.shoe, billAcceptors: billAcceptors.statuses() },
        ledger: { head: ledger.headOf().seq },
        sync: sync ? sync.status() : 'off',
      }),
    },
    options.port ?? 0,
  );
  // Devices open once the screens can be served: a note inserted at start-up credits a screen that exists.
  billAcceptors.start();
  const origin = `http://127.0.0.1:${server.port}`;
  log.info({ origin, dataDir, tableId: config.tableId, terminalId, ledger: ledger.file }, 'table host started');

  return {
    origin,
    dataDir,
    host,
    ledger,
    billAcceptors,
    sync,
    log,
    openSession,
    screens: tokens.entries().map(([view, token]) => ({
      view,
      token,
      url: `${origin}/${view}?token=${encodeURIComponent(token)}`,
    })),
    async close() {
      await server.close();
      await billAcceptors.close();
      await release();
      log.info('table host stopped');
      log.flush();
    },
  };
}
