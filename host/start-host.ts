import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import type { ViewName } from '../protocol/index.js';
import { openLedger, startLedgerSync, type Ledger, type SyncClient } from '../ledger/index.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { BillAcceptors } from './devices/bill-acceptors.js';
import { SimDealer } from './devices/sim-dealer.js';
import { TableShoe } from './devices/shoe.js';
import { BaccaratGame } from './games/baccarat.js';
import { BlackjackGame } from './games/blackjack.js';
import { WarGame } from './games/war.js';
import type { LiveGame } from './table/live-game.js';
import { realTimers, RoundController, type Timers } from './table/round-controller.js';
import { prepareDataDir } from './data-dir.js';
import { createLogger } from './logger.js';
import { PowerMarker } from './power-marker.js';
import { LaunchTokens } from './screens/launch-tokens.js';
import { ScreenSession, type ScreenTransport } from './screens/screen-session.js';
import { ScreenExtras } from './screens/screen-extras.js';
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
  /** Simulated mode's dealer pulls each card this long after the table asks for it; false: none. */
  simulatedDealer?: { dealMs: number } | false;
  /** Seed of the simulated shoe's shuffles (reproducible sessions). */
  seed?: number;
  timers?: Timers;
  /** Opens the simulated devices' control channel (`POST /sim/insert-note`) for tests and demos. */
  simControls?: boolean;
}

export interface RunningHost {
  origin: string;
  dataDir: string;
  /** The token of the simulated devices' control channel, when it is open. */
  simToken: string | null;
  /** Each screen's URL, carrying its own launch token. */
  screens: { view: ViewName; url: string; token: string }[];
  host: TableHost;
  ledger: Ledger;
  billAcceptors: BillAcceptors;
  /** The table's rounds and its card-reading shoe. */
  rounds: RoundController;
  shoe: TableShoe;
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
  // The sync client starts before the rounds exist; its stop-new-bets signal is routed once they do.
  const syncEvents = { stopNewBets: (_stop: boolean) => undefined as void };
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
    if (options.upstream) {
      sync = startLedgerSync({
        ledger,
        upstream: options.upstream,
        terminalId,
        dataDir,
        onStopNewBets: (stop) => syncEvents.stopNewBets(stop),
        onAlarm: (alarm) => log.error({ alarm }, 'upstream sync alarm'),
      });
    }
    return await serve(options, { log, config, terminalId, ledger, sync, release, syncEvents });
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
  syncEvents: { stopNewBets: (stop: boolean) => void };
}

async function serve(options: HostOptions, { log, config, terminalId, ledger, sync, release, syncEvents }: Opened): Promise<RunningHost> {
  const dataDir = path.resolve(options.dataDir);
  const host = new TableHost(config, SOFTWARE_VERSION, (station) => ledger.credit(station));
  const billAcceptors = new BillAcceptors({ config, ledger, log, onCreditChanged: (station) => host.creditChanged(station) });
  const timers = options.timers ?? realTimers;
  const game = liveGame(config);
  const rounds = new RoundController({ config, game, ledger, log, timers, timings: config.timings });
  const shoe = new TableShoe(config.shoe, rounds, log, { decks: game.decks, ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  host.attachRounds(rounds);
  host.attachExtras(new ScreenExtras(config.game, ledger));
  syncEvents.stopNewBets = (stop) => rounds.setNewBets(!stop, 'unsynced ledger entries beyond the offline limit');
  const tokens = new LaunchTokens(host.views());
  const started = Date.now();
  const openSession = (transport: ScreenTransport) => new ScreenSession(host, tokens, transport, log);

  const simToken = options.simControls ? randomBytes(24).toString('base64url') : null;
  const server = await createHttpServer(
    {
      openSession,
      log,
      ...(simToken
        ? {
            simControls: {
              token: simToken,
              insertNote: (station: number, note: number) => {
                const sim = billAcceptors.simulator(station);
                if (!sim) return `station ${station} has no simulated bill acceptor`;
                sim.insertNote(note);
                return null;
              },
            },
          }
        : {}),
      rendererDir: options.rendererDir,
      health: () => ({
        tableId: config.tableId,
        game: config.game,
        version: SOFTWARE_VERSION,
        uptimeSeconds: Math.round((Date.now() - started) / 1000),
        terminalId,
        devices: { shoe: shoe.state(), billAcceptors: billAcceptors.statuses() },
        ledger: { head: ledger.headOf().seq },
        sync: sync ? sync.status() : 'off',
      }),
    },
    options.port ?? 0,
  );
  // Devices open once the screens can be served: a note inserted at start-up credits a screen that exists.
  billAcceptors.start();
  shoe.start();
  rounds.start();
  const dealer = options.simulatedDealer ?? { dealMs: 800 };
  const stopDealer =
    shoe.simulator() && dealer !== false ? new SimDealer(rounds, shoe, timers, log, dealer.dealMs).start() : () => undefined;
  const origin = `http://127.0.0.1:${server.port}`;
  log.info({ origin, dataDir, tableId: config.tableId, terminalId, ledger: ledger.file }, 'table host started');

  return {
    origin,
    dataDir,
    host,
    ledger,
    billAcceptors,
    simToken,
    rounds,
    shoe,
    sync,
    log,
    openSession,
    screens: tokens.entries().map(([view, token]) => ({
      view,
      token,
      url: `${origin}/${view}?token=${encodeURIComponent(token)}`,
    })),
    async close() {
      stopDealer();
      rounds.stop();
      await server.close();
      await shoe.close();
      await billAcceptors.close();
      await release();
      log.info('table host stopped');
      log.flush();
    },
  };
}

/** The live adapter of the table's game. */
function liveGame(config: TableConfig): LiveGame {
  if (config.game === 'baccarat') return new BaccaratGame(config.profile);
  if (config.game === 'war') return new WarGame(config.profile);
  return new BlackjackGame(config.profile);
}
