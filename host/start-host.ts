import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { openLedger, startLedgerSync, WitnessClient, WitnessLink, type Ledger, type NewEntry, type SyncClient, type SyncOptions } from '../ledger/index.js';
import { lockDataFolder, type DataFolderLock } from '../ledger/index.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { installKillSwitch, KILL_SWITCH_RECORD } from './recovery/kill-switch.js';
import { prepareDataDir } from './data-dir.js';
import { closeLogFile, createLogger } from './logger.js';
import { PowerMarker } from './power-marker.js';
import { LaunchTokens } from './screens/launch-tokens.js';
import { SOFTWARE_VERSION } from './version.js';
import { programLayout, programManifest, type ProgramManifest } from './service/program-hash.js';
import { FILES_BESIDE_SOCKETS, openFilesLimit } from './open-files.js';
import type { HostOptions, RunningHost } from './start/host-options.js';
import type { Opened, WitnessEvents } from './start/opened.js';
import { unroutedSyncEvents, unroutedWitnessEvents } from './start/unrouted.js';
import { openTableRuntime } from './start/table-runtime.js';
import { countHost } from './start/metrics.js';
import { makeShoe } from './start/shoe.js';
import { wireFloor } from './start/floor.js';
import { routeSignals } from './start/signals.js';
import { lateStadium } from './start/stadium-service.js';
import { startTableEdges } from './edges/table-edges.js';
import type { ViewHub } from './screens/view-hub.js';
import { startService } from './start/service.js';
import { healthSnapshot } from './start/health.js';
import { openRemoteStations } from './start/remote-stations.js';
import { BUILD, relayOnlyFor } from './config/build-kind.js';
import { screenSessions } from './start/screen-sessions.js';
import { simControls } from './start/sim-controls.js';
import { openHttp, openLan } from './start/listeners.js';
import { startDevices, type RunningDevices } from './start/devices.js';
import { enroller } from './start/enrol.js';
import { shutdown, type Started } from './start/shutdown.js';
import { StartStops } from './start/stops.js';
import { openTransfers } from './start/transfers.js';
import { readPeersOrNull } from './peers/peer-config.js';
import { sendRoundsAtOnce } from './start/rounds-upstream.js';

export type { HostOptions, RunningHost } from './start/host-options.js';

/** What the process starting the host is told while it starts (beside the host's options, which say what to start). */
export interface StartWatch {
  /**
   * Told the host's log as soon as it exists, before anything else of the start: the entries point
   * their last resort at it (host/process-faults.ts `lastResortFromStart`), so what nobody handles
   * during the start is in host.log, not on stderr alone.
   */
  onLog?: (log: Logger) => void;
}

/**
 * The table host's composition root: the data folder locked and the ledger opened (with its
 * witness, the power reset and the sync) here, then the table and everything around it wired by
 * the steps in `host/start/`, in the order `serve` lists them.
 */
export async function startHost(options: HostOptions, watch: StartWatch = {}): Promise<RunningHost> {
  const { dataDir, folderLock, log, closeLog, config, terminalId, ledger } = openDataFolder(options, watch);
  // The witness before anything is verified or journalled: its key and the newest head it signed
  // are what the start's verification checks the journal against. No answer, no start.
  const { witness, witnessEvents } = await attachWitness(options, ledger, log, () => folderLock.release()).catch(async (e: unknown) => {
    startFailed(log, e);
    await closeLog();
    throw e;
  });
  if (options.killAfterRoundEntry !== undefined) installKillSwitch(ledger, options.killAfterRoundEntry, path.join(dataDir, KILL_SWITCH_RECORD));
  const { stops, power } = folderStops(log, dataDir, folderLock, ledger, witness);
  const syncEvents = unroutedSyncEvents(log);
  let sync: SyncClient | null = null;
  try {
    // Every start is a power reset on the meters; an unclean one (kill, power cut) says so. It
    // names the program that started: the hash of the files running, with a per-file manifest
    // kept beside the ledger so a mismatch can be traced to a file.
    const clean = power.start();
    syncEvents.clean = clean;
    const layout = programLayout(import.meta.dirname);
    const manifest = await programManifest(layout);
    writeManifest(dataDir, manifest);
    ledger.append(startRecord(clean, manifest, config.currency));
    power.recorded();
    log.info({ programHash: manifest.hash, mode: manifest.mode, files: manifest.files.length }, 'program files hashed');
    if (!clean) log.warn('the previous run did not stop cleanly (power cut or kill)');
    if (options.upstream ?? config.upstream) {
      options = { ...options, upstream: options.upstream ?? config.upstream };
      sync = startLedgerSync({
        ledger,
        upstream: options.upstream,
        limits: config.offlineLimit,
        terminalId,
        dataDir,
        onStopNewBets: (stop) => syncEvents.stopNewBets(stop),
        onAlarm: (alarm) => syncEvents.alarm(alarm),
        onError: syncFailureLog(log),
        onCallbackError: (err) => log.error({ err }, 'an upstream sync signal could not be taken (caught: the sync goes on)'),
        heartbeat: { snapshot: () => syncEvents.health() },
        configOrders: (answer) => syncEvents.configOrders(answer),
        onServerTime: (serverTime, rttMs) => syncEvents.clock.observe(serverTime, rttMs),
      });
      const started = sync;
      stops.add('ledger', 'the upstream sync', () => started.stop());
      sendRoundsAtOnce(ledger, sync);
    }
    const opened = {
      log,
      config,
      terminalId,
      ledger,
      sync,
      witness,
      witnessEvents,
      closeLog,
      syncEvents,
      floorClock: syncEvents.clock,
      layout,
      manifest,
      softwareVersion: SOFTWARE_VERSION,
    };
    return await serve(options, opened, stops);
  } catch (e) {
    await stops.unwind();
    startFailed(log, e);
    await closeLog();
    throw e;
  }
}

/**
 * The host's one list of stops, run by a start that fails from here on and by a clean stop
 * (host/start/stops.ts), begun with the folder, the ledger in it and its witness, and the power
 * marker: let go last, whichever it is.
 */
function folderStops(
  log: Logger,
  dataDir: string,
  folderLock: { release(): void },
  ledger: Ledger,
  witness: WitnessLink | null,
): { stops: StartStops; power: PowerMarker } {
  const stops = new StartStops(log);
  stops.add('folder', "the data folder's lock", () => folderLock.release());
  stops.add('ledger', 'the ledger', () => ledger.close());
  if (witness)
    stops.add('ledger', 'the ledger witness', async () => {
      // A clean stop leaves nothing unwitnessed if the witness answers (the next start sends the rest otherwise).
      await witness.flush(2_000).catch(() => undefined);
      await witness.stop();
    });
  const power = new PowerMarker(dataDir);
  // Ended (a clean stop) only once the ledger is closed: its phase is after the ledger's.
  stops.add('folder', 'the power marker', () => power.stop());
  return { stops, power };
}

/**
 * A start that fails says why in host.log, the last line before its log closes: the process's
 * stderr goes where a shell or the supervisor's journal put it, and may be lost with a relaunch.
 */
function startFailed(log: Logger, e: unknown): void {
  try {
    log.fatal({ err: e }, `the table host could not start: ${e instanceof Error ? e.message : String(e)}`);
    log.flush();
  } catch {
    // The log itself failed (a full disk): the caller's throw still says why, on stderr.
  }
}

/**
 * The sync's failures in the technician's log (service mode shows their reason by key): the first
 * failure after a success and each new text; the same text again within a streak once.
 */
function syncFailureLog(log: Logger): NonNullable<SyncOptions['onError']> {
  let lastText: string | null = null;
  return (message, reason, streak) => {
    if (streak > 1 && message === lastText) return;
    lastText = message;
    log.warn({ reason, error: message }, 'ledger sync failed');
  };
}

/**
 * The data folder made and locked for a table host (throws DataFolderBusy while another holds it):
 * the start's first step, which `etg start` takes itself before its build and hands over as
 * `HostOptions.folderLock`.
 */
export function lockHostFolder(dir: string): DataFolderLock {
  const { dataDir } = prepareDataDir(dir);
  return lockDataFolder(dataDir, 'the table host');
}

/**
 * One host per data folder: the lock comes before anything in the folder is read or written
 * (the log, the ledger, the launch tokens); a second host stops here (DataFolderBusy). Then the
 * log, the configuration and the ledger; the lock is released (and the log closed) if any of them fails.
 * `closeLog` closes the log file the host opened here (none when the caller gave its own logger).
 */
function openDataFolder(
  options: HostOptions,
  watch: StartWatch,
): {
  dataDir: string;
  folderLock: { release(): void };
  log: Logger;
  closeLog: () => Promise<void>;
  config: TableConfig;
  terminalId: string;
  ledger: Ledger;
} {
  const { dataDir, logDir } = prepareDataDir(options.dataDir);
  const folderLock = options.folderLock ?? lockHostFolder(dataDir);
  let closeLog = (): Promise<void> => Promise.resolve();
  let log: Logger | null = null;
  try {
    if (folderLock.dataDir !== dataDir) throw new Error(`the lock handed to the host is on ${folderLock.dataDir}, not on its data folder ${dataDir}`);
    if (options.logger) log = options.logger;
    else {
      const own = createLogger(logDir, {
        ...(options.logRotation ? { rotation: options.logRotation } : {}),
        ...(options.logClientBudget ? { clientBudget: options.logClientBudget } : {}),
      });
      closeLog = () => closeLogFile(own.logFile);
      log = own;
    }
    watch.onLog?.(log);
    const config = TableConfig.parse(options.config ?? simulatedTableConfig());
    // A production build takes relayed acceptors only: a configuration that turns that off stops here.
    relayOnlyFor(config.remoteAcceptors.relayOnly, options.build ?? BUILD);
    const terminalId = options.terminalId ?? config.tableId;
    // The upstream pairs each transfer by the table ids its entries name, against the terminal ids
    // it holds journals under: a table with peers under another terminal id would be no one's there.
    if (terminalId !== config.tableId && (readPeersOrNull(dataDir)?.peers.length ?? 0) > 0)
      throw new Error(
        `this table has peer tables (peers.json) and would sync under terminal id "${terminalId}", not its table id "${config.tableId}": ` +
          'the upstream pairs transfers by table id, so a table with peers must sync under it (drop --terminal-id)',
      );
    // Opening checks WAL + synchronous=FULL, integrity and the schema version; a ledger that fails
    // any of them stops the start-up with its reason, and nothing is touched. Witnessed, its
    // checkpoints are the witness's to sign: no key file beside the database is made or believed.
    const ledger = openLedger(dataDir, terminalId, options.witness ? { witnessed: true } : {});
    const opened = log;
    ledger.onListenerError((err) =>
      opened.error({ err }, 'a listener of the ledger threw after a commit (the entries are committed; the others heard of them)'),
    );
    return { dataDir, folderLock, log, closeLog, config, terminalId, ledger };
  } catch (e) {
    if (log) startFailed(log, e);
    folderLock.release();
    void closeLog();
    throw e;
  }
}

/**
 * The ledger witness, when the host has one: the start waits for it and does not go on without
 * it (the ledger closed, the folder released). The link is made before the tilts exist; what it
 * signals reaches them through `witnessEvents`, set once they do (a stop signalled before then is
 * stated again at the first check of its limits).
 */
async function attachWitness(
  options: HostOptions,
  ledger: Ledger,
  log: Logger,
  releaseFolder: () => void,
): Promise<{ witness: WitnessLink | null; witnessEvents: WitnessEvents }> {
  const witnessEvents = unroutedWitnessEvents();
  if (!options.witness) return { witness: null, witnessEvents };
  const w = options.witness;
  try {
    const witness = await WitnessLink.attach(ledger, new WitnessClient(w.socket), {
      ...(w.waitMs !== undefined ? { waitMs: w.waitMs } : {}),
      ...(w.limits ? { limits: w.limits } : {}),
      onStopNewBets: (stop) => witnessEvents.stop(stop),
      onAlarm: (alarm) => witnessEvents.alarm(alarm),
      onCallbackError: (err) => log.error({ err }, 'a ledger witness signal could not be taken (caught: the link goes on)'),
    });
    return { witness, witnessEvents };
  } catch (e) {
    ledger.close();
    releaseFolder();
    throw new Error(`the ledger witness at ${w.socket} did not answer: the host does not start without it (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
    });
  }
}

/** The start's per-file manifest, for tracing a different hash to the file (`npm run service -- program-hash --compare`). */
export const MANIFEST_FILE = 'program-manifest.json';

function writeManifest(dataDir: string, manifest: ProgramManifest): void {
  const file = path.join(dataDir, MANIFEST_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 1), { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * The table and everything around it, wired step by step (`host/start/`), in the order they must
 * start. Each step puts its stops on `stops` as it starts: a step that throws has `startHost`
 * unwind them (the ledger and the folder last), and a clean stop runs the same (host/start/stops.ts).
 */
async function serve(options: HostOptions, o: Opened, stops: StartStops): Promise<RunningHost> {
  const t = wireTable(options, o, stops);
  return await openOutward(options, o, t, stops);
}

/** The table, its floor, the signals that stop it, service mode and the screens' sessions: nothing listening yet. */
function wireTable(options: HostOptions, o: Opened, stops: StartStops) {
  const dataDir = path.resolve(options.dataDir);
  const { log, syncEvents } = o;
  const rt = openTableRuntime(options, o, stops);
  const { metrics, sessions, stopCountingTilts } = countHost(o, rt);
  stops.add('watches', 'the count of faults', stopCountingTilts);
  const shoe = makeShoe(options, o, rt, metrics);
  stops.add('devices', 'the shoe', () => shoe.close());
  const { hub, floor, gateRemote } = wireFloor(o, rt);
  stops.add('rounds', 'the floor services', () => floor.close());
  const signals = routeSignals(dataDir, o, rt, stops);
  // After a kill the screens still open reconnect with their tokens and resynchronise from a snapshot.
  const tokens = LaunchTokens.forLaunch(hub.views(), path.join(dataDir, 'launch-tokens.json'), !syncEvents.clean);
  const stadium = lateStadium(hub);
  const { service, backend, accounts, peers } = startService(dataDir, options, o, rt, { shoe, floor, hub, metrics, stadium: stadium.service }, stops);
  const health = (syncEvents.health = healthSnapshot(o, rt, { shoe, floor })); // each heartbeat carries this snapshot upstream
  const remote = openRemoteStations(dataDir, o, rt, options.build ?? BUILD);
  stops.add('listeners', 'the remote acceptors', () => remote.remoteAcceptors.closeAll());
  const screens = screenSessions(options, { hub, tokens, log, remoteStations: remote.remoteStations, connections: remote.connections, sessions });
  stops.add('listeners', "the screens' refusals", () => screens.close());
  return {
    dataDir,
    rt,
    metrics,
    stopCountingTilts,
    shoe,
    hub,
    floor,
    gateRemote,
    signals,
    tokens,
    stadium,
    service,
    backend,
    accounts,
    peers,
    health,
    remote,
    screens,
  };
}

/** The listeners, the transfers with peer tables, the devices and the edges, over the table `wireTable` made. */
async function openOutward(options: HostOptions, o: Opened, t: ReturnType<typeof wireTable>, stops: StartStops): Promise<RunningHost> {
  const { config, ledger, log } = o;
  const { dataDir, rt, metrics, shoe, hub, floor, tokens, stadium, service, peers, health, remote, screens } = t;
  const { openSession } = screens;
  const { remoteStations, connections, remoteAcceptors, remoteSas } = remote;
  const simToken = options.simControls ? randomBytes(24).toString('base64url') : null;
  // Made once the devices are open (below); the sim controls ask for it when used.
  let devices: RunningDevices | null = null;
  const sim = simToken ? simControls(simToken, { ...rt, simDealer: () => devices?.simDealer ?? null }) : null;
  const server = await openHttp(dataDir, options, o, { openSession, service, metrics, health, simControls: sim });
  stops.add('listeners', 'the HTTP server', () => server.close());
  t.gateRemote(remoteAcceptors);
  const transfers = openTransfers(dataDir, o, rt.table, peers, rt.tilts);
  if (transfers) hub.attachTransfers(transfers);
  const { lan, certificate } = await openLan(dataDir, options, o, {
    openSession,
    remoteAcceptors,
    metrics,
    ...(transfers ? { openPeer: (send, close, peerLog) => transfers.listener.open(send, close, peerLog) } : {}),
  });
  if (lan) stops.add('listeners', 'the LAN listener', () => lan.close());
  transfers?.start();
  if (transfers) stops.add('listeners', 'the transfers', () => transfers.stop());
  warnOpenFiles(config, lan !== null, log);
  devices = startDevices(options, o, rt, { shoe, floor, tokens, openSession, remoteSas }, stops);
  const origin = `http://127.0.0.1:${server.port}`;
  const { lanOrigin, enrol, edges } = await openStadium(dataDir, o, rt, { hub, stadium, lan, certificate, remoteStations, connections, remoteAcceptors });
  if (edges) stops.add('listeners', 'the edges', () => edges.close());
  log.info({ origin, dataDir, tableId: config.tableId, terminalId: o.terminalId, ledger: ledger.file }, 'table host started');
  const started: Started = { stops, log, closeLog: o.closeLog };
  return {
    origin,
    dataDir,
    simToken,
    screens: {
      urls: tokens.entries().map(([view, token]) => ({ view, token, url: `${origin}/${view}?token=${encodeURIComponent(token)}` })),
      hub,
      open: openSession,
      sent: screens.sent,
    },
    devices: { billAcceptors: rt.billAcceptors, printers: rt.printers, shoe },
    ledger,
    table: rt.table,
    sync: o.sync,
    witness: o.witness,
    floor,
    log,
    recovery: rt.recovery,
    ledgerCheck: t.signals.ledgerCheck,
    service,
    transfers,
    stadium: { stations: remoteStations, acceptors: remoteAcceptors, connections, lanOrigin, certificate, enrol },
    edges,
    close: () => shutdown(started),
  };
}

/**
 * The remote stations opened to enrolment and connection on the LAN listener, and, when the
 * table's configuration names edges, its NATS server and the bridge to them (issue 55).
 */
async function openStadium(
  dataDir: string,
  o: Opened,
  rt: ReturnType<typeof openTableRuntime>,
  s: Omit<Parameters<ReturnType<typeof lateStadium>['open']>[0], 'lanOrigin' | 'enrol'> & {
    hub: ViewHub;
    stadium: ReturnType<typeof lateStadium>;
    lan: { host: string; port: number } | null;
  },
) {
  const { lan, certificate, remoteStations, connections, remoteAcceptors, stadium, hub } = s;
  const lanOrigin = lan ? `https://${lan.host.includes(':') ? `[${lan.host}]` : lan.host}:${lan.port}` : null;
  const enrol = enroller(o, { lanOrigin, certificate, table: rt.table, remoteStations });
  stadium.open({ lanOrigin, certificate, remoteStations, connections, remoteAcceptors, enrol });
  const { config, log } = o;
  const edges = config.edges
    ? await startTableEdges(dataDir, { names: config.edges.names, ...config.edges.nats }, { tableId: config.tableId, hub, stations: remoteStations, log })
    : null;
  return { lanOrigin, enrol, edges };
}

/** The listeners' caps are what keeps the host within its open files: say so when they do not fit. */
function warnOpenFiles(config: TableConfig, lan: boolean, log: Logger): void {
  const files = openFilesLimit();
  const sockets = config.connections.local.total + (lan ? config.connections.lan.total : 0);
  if (files !== null && sockets + FILES_BESIDE_SOCKETS > files)
    log.warn(
      { openFilesLimit: files, connectionCaps: sockets, besideSockets: FILES_BESIDE_SOCKETS },
      'the connection caps do not fit under the open-files limit (ulimit -n): lower connections.*.total or raise the limit',
    );
}

/**
 * A start's `power.reset`: clean or not, the program that started, and the currency this run is in
 * (a change needs a new configuration file, a restart): the event log reads the older entries of
 * the run that name none by it (ledger/currency-at.ts).
 */
function startRecord(clean: boolean, manifest: { hash: string; mode: 'tsx' | 'electron' | 'packaged'; files: readonly unknown[] }, currency: string): NewEntry {
  return {
    type: 'power.reset',
    payload: {
      clean,
      softwareVersion: SOFTWARE_VERSION,
      programHash: manifest.hash,
      programMode: manifest.mode,
      programFiles: manifest.files.length,
      currency,
    },
  };
}
