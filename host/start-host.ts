import type { Logger } from 'pino';
import type { ViewName } from '../protocol/index.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { prepareDataDir } from './data-dir.js';
import { createLogger } from './logger.js';
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
}

export interface RunningHost {
  origin: string;
  dataDir: string;
  /** Each screen's URL, carrying its own launch token. */
  screens: { view: ViewName; url: string; token: string }[];
  host: TableHost;
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
  const host = new TableHost(config, SOFTWARE_VERSION);
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
        devices: { shoe: config.shoe, billAcceptors: config.stations.map((s) => s.billAcceptor) },
      }),
    },
    options.port ?? 0,
  );
  const origin = `http://127.0.0.1:${server.port}`;
  log.info({ origin, dataDir, tableId: config.tableId }, 'table host started');

  return {
    origin,
    dataDir,
    host,
    log,
    openSession,
    screens: tokens.entries().map(([view, token]) => ({
      view,
      token,
      url: `${origin}/${view}?token=${encodeURIComponent(token)}`,
    })),
    async close() {
      await server.close();
      log.info('table host stopped');
      log.flush();
    },
  };
}
