import { randomBytes } from 'node:crypto';
import { renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { stationOf, type ViewName } from '../protocol/index.js';
import { openLedger, startLedgerSync, WitnessClient, WitnessLink, type Ledger, type SyncClient } from '../ledger/index.js';
import { simulatedTableConfig, TableConfig } from './config/table-config.js';
import { BillAcceptors } from './devices/bill-acceptors.js';
import { SimDealer } from './devices/sim-dealer.js';
import { TableShoe } from './devices/shoe.js';
import { openTableGame } from './table/table-game.js';
import { openTable } from './table/start-table.js';
import { GROUP_COMMIT, type GroupCommit } from './table/command-batch.js';
import type { LiveTable } from './table/runtime.js';
import { realTimers, type Timers } from './table/timers.js';
import type { Timings } from '../engine/table/state.js';
import { tableParams } from './config/table-params.js';
import { Autoplay } from './autoplay/autoplay.js';
import type { RoundPlan } from './autoplay/round-script.js';
import { startSimAttendant } from './autoplay/sim-attendant.js';
import { installKillSwitch } from './recovery/kill-switch.js';
import { listenRemembering } from './recovery/port-memory.js';
import { lockDataFolder } from '../ledger/index.js';
import { prepareDataDir } from './data-dir.js';
import type { RecoveryReport } from './table/recover.js';
import { createLogger, type ClientBudgetLimits, type RotationLimits } from './logger.js';
import { PowerMarker } from './power-marker.js';
import { LaunchTokens } from './screens/launch-tokens.js';
import { RefusalLog } from './screens/refusal-log.js';
import { ScreenSession, type IncomingLimits, type ScreenTransport } from './screens/screen-session.js';
import type { OutboxCounters } from './screens/outbox.js';
import { ViewHub } from './screens/view-hub.js';
import { createHttpServer } from './server/http-server.js';
import { unknownBetTypes } from './config/table-config.js';
import { wireFloorServices, type FloorServices } from './floor/floor-services.js';
import { restoreRestartChanges } from './config/config-changes.js';
import { DiskSpaceMonitor } from './tilts/disk-space.js';
import { TiltManager } from './tilts/tilt-manager.js';
import { onBillAcceptorEvent, onShoeEvent, onUpstreamSignal, onWitnessSignal } from './tilts/tilt-sources.js';
import { SOFTWARE_VERSION } from './version.js';
import { limitProblems } from '../engine/table/limits.js';
import { ledgerAccountJournal } from './service/account-journal.js';
import { AccountStore } from './service/accounts.js';
import { liveServiceBackend } from './service/backend/live-backend.js';
import { programLayout, programManifest, type ProgramLayout, type ProgramManifest } from './service/program-hash.js';
import { ServiceHost } from './service/service-host.js';
import { createI18n } from '../locales/i18n.js';
import { HostMetrics } from './metrics/host-metrics.js';
import { RemoteAcceptors } from './devices/remote-acceptors.js';
import { tableCreditRule } from './devices/credit-rule/table-credit-rule.js';
import { RemoteStations } from './stadium/remote-stations.js';
import { ledgerStationJournal } from './stadium/credential-journal.js';
import { tableCertificate, type TableCertificate } from './stadium/table-certificate.js';
import { enrolmentFor, type EnrolmentFile } from './stadium/enrolment-file.js';
import { RemoteStationConnections } from './screens/station-connections.js';
import { createLanServer } from './server/lan-server.js';
import type { ConnectionLimits } from './server/connection-guard.js';
import { FILES_BESIDE_SOCKETS, openFilesLimit } from './open-files.js';
import { isRemote } from '../engine/table/state.js';
import { NOTE_FACE_VALUES } from '../hardware/billacceptor/notes.js';

export interface HostOptions {
  dataDir: string;
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  config?: TableConfig;
  logger?: Logger;
  /** The size cap of `logs/host.log` and how many rotated files to keep (default 20 MiB, 5). */
  logRotation?: RotationLimits;
  /** Each client's log budget (host/logging/client-budget.ts); default CLIENT_BUDGET. */
  logClientBudget?: Partial<ClientBudgetLimits>;
  /** The bearer token of `/metrics` (Prometheus); without one the host serves no metrics. */
  metricsToken?: string;
  /** The terminal this kiosk is to the casino system (`--terminal-id`); default: the table id. */
  terminalId?: string;
  /** `--upstream URL`: sync the ledger to the casino's upstream service (credentials in the data dir). */
  upstream?: string;
  /**
   * `--witness SOCKET`: the ledger witness (witness/, docs/ledger.md "The witness"). The start
   * waits for it (`waitMs`, default 60 s) and does not start without it; the journal is checked
   * against the newest head it signed, it signs the checkpoints, and every new head goes to it.
   */
  witness?: { socket: string; waitMs?: number; limits?: { maxUnwitnessedEntries?: number; maxUnwitnessedSeconds?: number } };
  /** Simulated mode's dealer pulls each card this long after the table asks for it; false: none. */
  simulatedDealer?: { dealMs: number } | false;
  /** Seed of the simulated shoe's shuffles (reproducible sessions). */
  seed?: number;
  timers?: Timers;
  /** Opens the simulated devices' control channel (`POST /sim/insert-note`) for tests and demos. */
  simControls?: boolean;
  /** Simulated players at every station (`--autoplay`), seeded by `seed`. */
  autoplay?: boolean;
  /** Test only: the round timers, overriding the config's (whose minimums are for people). */
  timings?: Timings;
  /** Test only: SIGKILL the process after the K-th journal entry of its first round (host/recovery/kill-switch.ts). */
  killAfterRoundEntry?: number;
  /** Test only: the first round's cards, bets and decisions (host/autoplay/round-script.ts). */
  roundScript?: RoundPlan;
  /** Service mode: idle timeout, device test time-out (the two-person handpay amount is the table configuration's). */
  service?: { idleMs?: number; testTimeoutMs?: number };
  /** Benchmarks: each screen connection's send buffer (bytes in flight before latest-wins holds the rest). */
  sendBuffer?: number;
  /** Benchmarks: each screen connection's incoming rate limit (default INCOMING_LIMITS; a bench's client sends faster than a hand). */
  incoming?: IncomingLimits;
  /**
   * Station commands share durable commits within this window (default `GROUP_COMMIT`, 2 ms);
   * null: each is committed alone, as it comes (the bench's "before").
   */
  groupCommit?: GroupCommit | null;
}

export interface RunningHost {
  origin: string;
  dataDir: string;
  /** The token of the simulated devices' control channel, when it is open. */
  simToken: string | null;
  /** Each screen's URL, carrying its own launch token. */
  screens: { view: ViewName; url: string; token: string }[];
  /** Every screen's view, built once per change. */
  hub: ViewHub;
  ledger: Ledger;
  billAcceptors: BillAcceptors;
  /** The table (its state machine's runtime) and its card-reading shoe. */
  table: LiveTable;
  shoe: TableShoe;
  sync: SyncClient | null;
  /** The link to the ledger witness, when the host has one. */
  witness: WitnessLink | null;
  /** Faults, handpays and configuration changes: the casino-floor APIs service mode calls. */
  floor: FloorServices;
  log: Logger;
  /** What the start-up recovery found: ledger verification, the round resumed or voided. */
  recovery: RecoveryReport;
  /** Service mode's view (sign-in, pages, two-person actions). */
  service: ServiceHost;
  /** A screen connection over any transport (WebSocket, Electron MessagePort), same rules for all. */
  openSession(transport: ScreenTransport): ScreenSession;
  /** What the screen connections sent, summed over every one opened (benchmarks). */
  sent(): { sessions: number; messages: number; bytes: number; superseded: number; kinds: OutboxCounters['kinds'] };
  /** Remote stations: their credentials, their acceptors, and the LAN listener (TLS) they reach the host on. */
  stadium: {
    stations: RemoteStations;
    acceptors: RemoteAcceptors;
    connections: RemoteStationConnections;
    /** `https://host:port` of the LAN listener, null when the table has no remote stations. */
    lanOrigin: string | null;
    certificate: TableCertificate | null;
    /** Enrols a remote station (two people named) and returns what its machine is given, once. */
    enrol(station: number, by: [string, string]): EnrolmentFile;
  };
  close(): Promise<void>;
}

/** The table host's composition root: config, state, tokens, web server. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const { dataDir, logDir } = prepareDataDir(options.dataDir);
  // One host per data folder: the lock comes before anything in the folder is read or written
  // (the log, the ledger, the launch tokens); a second host stops here (DataFolderBusy).
  const folderLock = lockDataFolder(dataDir, 'the table host');
  let log: Logger;
  let config: TableConfig;
  let terminalId: string;
  let ledger: Ledger;
  try {
    log =
      options.logger ??
      createLogger(logDir, {
        ...(options.logRotation ? { rotation: options.logRotation } : {}),
        ...(options.logClientBudget ? { clientBudget: options.logClientBudget } : {}),
      });
    config = TableConfig.parse(options.config ?? simulatedTableConfig());
    terminalId = options.terminalId ?? config.tableId;
    // Opening checks WAL + synchronous=FULL, integrity and the schema version; a ledger that fails
    // any of them stops the start-up with its reason, and nothing is touched. Witnessed, its
    // checkpoints are the witness's to sign: no key file beside the database is made or believed.
    ledger = openLedger(dataDir, terminalId, options.witness ? { witnessed: true } : {});
  } catch (e) {
    folderLock.release();
    throw e;
  }
  // The witness before anything is verified or journalled: its key and the newest head it signed
  // are what the start's verification checks the journal against. No answer, no start.
  let witness: WitnessLink | null = null;
  // The link is made before the tilts exist; what it signals reaches them through these, set once
  // they do (a stop signalled before then is stated again at the first check of its limits).
  const witnessEvents = {
    stop: (_stop: boolean): void => undefined,
    alarm: (_alarm: { kind: string; message: string }): void => undefined,
  };
  if (options.witness) {
    const w = options.witness;
    try {
      witness = await WitnessLink.attach(ledger, new WitnessClient(w.socket), {
        ...(w.waitMs !== undefined ? { waitMs: w.waitMs } : {}),
        ...(w.limits ? { limits: w.limits } : {}),
        onStopNewBets: (stop) => witnessEvents.stop(stop),
        onAlarm: (alarm) => witnessEvents.alarm(alarm),
      });
    } catch (e) {
      ledger.close();
      folderLock.release();
      throw new Error(`the ledger witness at ${w.socket} did not answer: the host does not start without it (${e instanceof Error ? e.message : String(e)})`, {
        cause: e,
      });
    }
  }
  if (options.killAfterRoundEntry !== undefined) installKillSwitch(ledger, options.killAfterRoundEntry);
  const power = new PowerMarker(dataDir);
  // The sync client starts before the table exist; its stop-new-bets signal is routed once they do.
  const syncEvents = {
    stopNewBets: (_stop: boolean) => undefined as void,
    clean: true,
    /** The heartbeat's health snapshot: /healthz's body, once the table exists. */
    health: (): unknown => ({ starting: true }),
  };
  let sync: SyncClient | null = null;
  const release = async () => {
    await sync?.stop();
    // A clean stop leaves nothing unwitnessed if the witness answers (the next start sends the rest otherwise).
    await witness?.flush(2_000).catch(() => undefined);
    await witness?.stop();
    ledger.close();
    power.stop();
    folderLock.release();
  };
  try {
    // Every start is a power reset on the meters; an unclean one (kill, power cut) says so. It
    // names the program that started: the hash of the files running, with a per-file manifest
    // kept beside the ledger so a mismatch can be traced to a file.
    const clean = power.start();
    syncEvents.clean = clean;
    const layout = programLayout(import.meta.dirname);
    const manifest = await programManifest(layout);
    writeManifest(dataDir, manifest);
    ledger.append({
      type: 'power.reset',
      payload: { clean, softwareVersion: SOFTWARE_VERSION, programHash: manifest.hash, programMode: manifest.mode, programFiles: manifest.files.length },
    });
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
        onAlarm: (alarm) => log.error({ alarm }, 'upstream sync alarm'),
        heartbeat: { snapshot: () => syncEvents.health() },
      });
    }
    return await serve(options, { log, config, terminalId, ledger, sync, witness, witnessEvents, release, syncEvents, layout, manifest });
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
  witness: WitnessLink | null;
  witnessEvents: { stop: (stop: boolean) => void; alarm: (alarm: { kind: string; message: string }) => void };
  release: () => Promise<void>;
  syncEvents: { stopNewBets: (stop: boolean) => void; clean: boolean; health: () => unknown };
  layout: ProgramLayout;
  manifest: ProgramManifest;
}

/** The start's per-file manifest, for tracing a different hash to the file (`npm run service -- program-hash --compare`). */
export const MANIFEST_FILE = 'program-manifest.json';

function writeManifest(dataDir: string, manifest: ProgramManifest): void {
  const file = path.join(dataDir, MANIFEST_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest, null, 1), { mode: 0o600 });
  renameSync(tmp, file);
}

async function serve(
  options: HostOptions,
  { log, config, terminalId, ledger, sync, witness, witnessEvents, release, syncEvents, layout, manifest }: Opened,
): Promise<RunningHost> {
  const dataDir = path.resolve(options.dataDir);
  // Faults outlive a restart: the journal's open ones are current again before any device speaks.
  const tilts = new TiltManager({ ledger, log });
  tilts.restore();
  // One credit rule for every acceptor, seated or remote: the host decides each credit.
  const credits = tableCreditRule({ config, ledger, log, fault: (station, detail) => tilts.raise('bill-cheat', { station, detail }) });
  const billAcceptors = new BillAcceptors({
    config,
    ledger,
    log,
    credits,
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
  });
  const timers = options.timers ?? realTimers;
  // Test only: round timers shorter than the configuration's minimums (which are for people).
  const paramsNow = () => ({ ...tableParams(config), ...(options.timings ? { timings: { ...options.timings } } : {}) });
  // Rule options changed in service mode take effect at a start: the game is built under them.
  const restarted = restoreRestartChanges(ledger, config, log);
  if (restarted > 0) log.info({ restarted }, 'journalled rule options in effect');
  const params = paramsNow();
  // Recovery before any device opens: the ledger verified, the table folded from its journal.
  const groupCommit = options.groupCommit === undefined ? GROUP_COMMIT : options.groupCommit;
  const opened = openTableGame(config, (game) =>
    openTable(game, { ledger, log, timers, params, program: manifest.hash, ...(groupCommit ? { groupCommit } : {}) }),
  );
  const table = opened.table;
  const recovery = opened.report;
  const unknownBets = unknownBetTypes(config, table.bets);
  if (unknownBets.length > 0)
    throw new Error(`the table configuration limits bets this ${config.game} table does not have: ${unknownBets.join(', ')} (bets: ${table.bets.join(', ')})`);
  const broken = limitProblems(table.limitRules, config);
  if (broken.length > 0) throw new Error(`the table configuration breaks the rules of ${config.game} ${config.profile}: ${broken.join('; ')}`);
  if (!recovery.ledgerVerified) tilts.raise('ledger-integrity', { detail: recovery.problems.slice(0, 5).join('; ') });
  // Prometheus metrics, read from the same sources as /healthz and service mode; counted events below.
  const sessions = new Set<ScreenSession>();
  const metrics = new HostMetrics({
    tableId: config.tableId,
    game: config.game,
    tableMeters: () => ledger.meters('table'),
    activeFaults: () => tilts.list().map((t) => t.kind),
    screens: () => [...sessions].map((x) => x.view()),
    ...(sync ? { sync: () => sync.status() } : {}),
    ledger: () => ({ entries: ledger.headOf().seq, bytes: fileSize(ledger.file) + fileSize(`${ledger.file}-wal`) }),
    tableOnHold: () => table.view().hold !== null,
  });
  const stopCountingTilts = ledger.onAppended((entries) => {
    for (const e of entries) if (e.type === 'tilt.raise') metrics.tiltRaised(String((JSON.parse(e.body) as { payload: { kind: unknown } }).payload.kind));
  });
  const shoe = new TableShoe(config.shoe, table, log, {
    onCardHandled: (seconds, outcome) => metrics.cardHandled(seconds, outcome),
    onCardDrawn: (seconds) => metrics.cardDrawn(seconds),
    decks: table.decks,
    protocol: config.shoeProtocol,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(opened.lastSequence !== undefined ? { lastSequence: opened.lastSequence } : {}),
    onDeviceEvent: (e) => onShoeEvent(tilts, e, () => table.cue()?.kind === 'shuffle'),
  });
  const host = new ViewHub(config, SOFTWARE_VERSION, table, ledger);
  // Faults gate the seated stations' acceptors here and the remote ones at their agents.
  let remoteGate: RemoteAcceptors | null = null;
  const acceptorGate = {
    setInhibited: (station: number, reason: Parameters<BillAcceptors['setInhibited']>[1], inhibited: boolean) => {
      // A remote station's reasons go to its agent (driver mode) and to the host's own driver (relay mode) alike.
      if (isRemote(table.state.params, station)) remoteGate?.setInhibited(station, reason, inhibited);
      billAcceptors.setInhibited(station, reason, inhibited);
    },
    setAccepted: (d: readonly number[]) => {
      billAcceptors.setAccepted(d);
      remoteGate?.setAccepted();
    },
  };
  const floor = wireFloorServices({
    config,
    ledger,
    log,
    tilts,
    table,
    billAcceptors: acceptorGate,
    params: paramsNow,
    onConfigApplied: () => host.configChanged(),
  });
  host.attachFloor(floor.gate);
  // New bets stop through the upstream-offline fault, so every stop has one place and one record.
  syncEvents.stopNewBets = (stop) => onUpstreamSignal(tilts, stop, 'unsynced ledger entries beyond the offline limit');
  // The signal fires on changes only: state the current one (a restored fault may have gone).
  onUpstreamSignal(tilts, sync?.status().stopNewBets ?? false, 'unsynced ledger entries beyond the offline limit');
  // The witness: new bets stop while it is behind beyond its limits; a refusal (the journal no
  // longer the chain it signed) halts the table like any failed verification. Heads go to it only
  // from a journal this start verified.
  if (witness) {
    witnessEvents.stop = (stop) => onWitnessSignal(tilts, stop, 'journal entries not witnessed beyond the limit');
    witnessEvents.alarm = (alarm) => {
      log.error({ alarm }, 'ledger witness alarm');
      tilts.raise('ledger-integrity', { detail: alarm.message.slice(0, 300) });
    };
    onWitnessSignal(tilts, false);
    if (recovery.ledgerVerified) witness.start();
  }
  // New bets stop before the disk under the ledger fills (host/tilts/disk-space.ts).
  const disk = new DiskSpaceMonitor({ dir: dataDir, tilts, log, timers });
  disk.start();
  // After a kill the screens still open reconnect with their tokens and resynchronise from a snapshot.
  const tokens = LaunchTokens.forLaunch(host.views(), path.join(dataDir, 'launch-tokens.json'), !syncEvents.clean);
  // The program files were hashed at start (journalled in power.reset); service mode shows it and recomputes on demand.
  const serviceBackend = liveServiceBackend({
    config,
    ledger,
    table,
    billAcceptors,
    shoe,
    sync,
    floor,
    log,
    i18n: createI18n(config.defaultLanguage),
    softwareVersion: SOFTWARE_VERSION,
    // The host's clock: an enrolment file's deadline, the exports' stamps.
    now: () => timers.now(),
    program: { layout, atStart: manifest },
    stadium: {
      lan: () => lanOrigin,
      fingerprint: () => certificate?.fingerprint ?? null,
      stations: () => host.remoteViews().flatMap((v) => stationOf(v) ?? []),
      enrolledAt: (station) => remoteStations.current(station)?.enrolledAt ?? null,
      screenConnected: (station) => connections.connected().includes(station),
      acceptorConnected: (station) => remoteAcceptors.connected(station),
      enrol: (station, by) => JSON.stringify(enrol(station, by), null, 1),
      revoke: (station, by) => remoteStations.revoke(station, by),
    },
    ...(options.service?.testTimeoutMs !== undefined ? { testTimeoutMs: options.service.testTimeoutMs } : {}),
  });
  const service = new ServiceHost({
    // Checked against the journal at start and at every sign-in; its locks run on the host's clock.
    accounts: new AccountStore(dataDir, {
      journal: ledgerAccountJournal(ledger),
      now: () => timers.now(),
      onPinCheck: (outcome) => metrics.pinChecked(outcome),
    }),
    backend: serviceBackend,
    timers,
    onRefused: (reason) => metrics.signInRefused(reason),
    ...(options.service?.idleMs !== undefined ? { idleMs: options.service.idleMs } : {}),
  });
  host.attachService(service);

  const started = Date.now();
  const health = () => ({
    tableId: config.tableId,
    game: config.game,
    version: SOFTWARE_VERSION,
    uptimeSeconds: Math.round((Date.now() - started) / 1000),
    terminalId,
    devices: { shoe: shoe.state(), billAcceptors: billAcceptors.statuses() },
    ledger: { head: ledger.headOf().seq, verified: recovery.ledgerVerified },
    recovery: { resumedRound: recovery.resumedRound, voided: recovery.voided.length, tableHold: recovery.tableHold },
    // What a monitor needs to see a held or faulted table without opening service mode.
    table: { phase: table.view().phase, hold: table.view().hold, faults: floor.tilts.list().map((t) => t.kind) },
    sync: sync ? sync.status() : 'off',
    witness: witness ? witness.status() : 'off',
  });
  // Each heartbeat carries this snapshot upstream.
  syncEvents.health = health;
  // Remote stations: enrolled in service mode, each with its own credential, reaching the host
  // over TLS on the configured LAN address (the table's certificate, which the enrolment pins).
  // Checked against the journal's station.credential entries: a credential swapped in the file connects no more.
  const remoteStations = RemoteStations.inDataDir(dataDir, ledgerStationJournal(ledger));
  for (const problem of remoteStations.problems()) log.error({ problem }, 'remote station refused: its registry row differs from the journal');
  const connections = new RemoteStationConnections(remoteStations);
  const remoteAcceptors = new RemoteAcceptors({
    ledger,
    log,
    credits,
    stations: remoteStations,
    hasStation: (station) => isRemote(table.state.params, station),
    accepted: () => config.denominations ?? NOTE_FACE_VALUES[config.currency],
    onEvent: (station, e) => onBillAcceptorEvent(tilts, station, e),
    // A relaying agent's acceptor is driven here, by the seated stations' code.
    relayed: billAcceptors,
    relayOnly: config.remoteAcceptors.relayOnly,
    ...(config.remoteAcceptors.esspFixedKey ? { esspFixedKey: BigInt(`0x${config.remoteAcceptors.esspFixedKey}`) } : {}),
  });
  const sessionOptions = {
    remoteStations,
    connections,
    // One sampler for every screen: a station that reconnects and floods again logs no more.
    refusals: new RefusalLog(log),
    ...(options.sendBuffer !== undefined ? { limits: { highWater: options.sendBuffer, maxReplies: 64 } } : {}),
    ...(options.incoming ? { incoming: options.incoming } : {}),
  };
  const sent = { sessions: 0, messages: 0, bytes: 0, superseded: 0, kinds: {} as OutboxCounters['kinds'] };
  const openSessions = new Set<ScreenSession>();
  const openSession = (transport: ScreenTransport, unlimited = false) => {
    // `sessions`: the live ones (the metrics' connected screens); `openSessions` keep their send counters until summed.
    const options = { ...sessionOptions, onDispose: (x: ScreenSession) => sessions.delete(x), ...(unlimited ? { incoming: null } : {}) };
    const session = new ScreenSession(host, tokens, transport, log, options);
    sessions.add(session);
    openSessions.add(session);
    sent.sessions++;
    return session;
  };
  const addKinds = (to: OutboxCounters['kinds'], from: OutboxCounters['kinds']) => {
    for (const [kind, k] of Object.entries(from)) {
      const t = (to[kind] ??= { messages: 0, bytes: 0 });
      t.messages += k.messages;
      t.bytes += k.bytes;
    }
  };
  // Sessions' counters are summed when asked; a closed session's are kept in `sent`.
  const sentNow = () => {
    const out = { ...sent, kinds: {} };
    addKinds(out.kinds, sent.kinds);
    for (const s of [...openSessions]) {
      const c = s.outbox.counters;
      if (s.closed()) {
        sent.messages += c.sent;
        sent.bytes += c.bytes;
        sent.superseded += c.superseded;
        addKinds(sent.kinds, c.kinds);
        openSessions.delete(s);
      }
      out.messages += c.sent;
      out.bytes += c.bytes;
      out.superseded += c.superseded;
      addKinds(out.kinds, c.kinds);
    }
    return out;
  };

  const simToken = options.simControls ? randomBytes(24).toString('base64url') : null;
  // Created once the devices are open (below); the sim controls reach it through this.
  let simDealer: SimDealer | null = null;
  const server = await listenRemembering(dataDir, options.port ?? 0, !syncEvents.clean, (port) =>
    createHttpServer(
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
                unreadableNext: () => {
                  if (!simDealer) return 'no simulated dealer at this table';
                  simDealer.unreadableNext();
                  return null;
                },
                misdraw: () => (simDealer ? simDealer.misdrawNow() : 'no simulated dealer at this table'),
                billFault: (station: number, fault: 'jam' | 'clear') => {
                  const sim = billAcceptors.simulator(station);
                  if (!sim) return `station ${station} has no simulated bill acceptor`;
                  if (fault === 'jam') sim.jam();
                  else sim.clearFault();
                  return null;
                },
                endCountdown: (kind) => (table.endCountdown(kind) ? null : `no ${kind} countdown is running`),
                freezeCountdown: (kind) => (table.freezeCountdown(kind) ? null : `no ${kind} countdown is running`),
              },
            }
          : {}),
        serviceExport: (token, kind, roundId, language) => service.exportFile(token, kind, roundId, language),
        connections: listenerLimits(config, 'local'),
        onGuardClose: (reason) => metrics.connectionClosed('local', reason),
        rendererDir: options.rendererDir,
        ...(options.metricsToken ? { metrics: { token: options.metricsToken, contentType: metrics.contentType, text: () => metrics.text() } } : {}),
        health,
      },
      port,
    ),
  );
  remoteGate = remoteAcceptors;
  let lan: Awaited<ReturnType<typeof createLanServer>> | null = null;
  let certificate: TableCertificate | null = null;
  if (config.remoteStations > 0) {
    certificate = await tableCertificate(dataDir, config.tableId, [config.lan.host]);
    lan = await createLanServer(
      {
        log,
        openSession,
        openDevice: (send, close) => remoteAcceptors.open(send, close),
        certificate,
        connections: listenerLimits(config, 'lan'),
        onGuardClose: (reason) => metrics.connectionClosed('lan', reason),
      },
      config.lan.host,
      config.lan.port,
    );
    log.info({ lan: `${lan.host}:${lan.port}`, fingerprint: certificate.fingerprint, remoteStations: config.remoteStations }, 'listening for remote stations');
  }
  // The listeners' caps are what keeps the host within its open files: say so when they do not fit.
  const files = openFilesLimit();
  const sockets = config.connections.local.total + (lan ? config.connections.lan.total : 0);
  if (files !== null && sockets + FILES_BESIDE_SOCKETS > files)
    log.warn(
      { openFilesLimit: files, connectionCaps: sockets, besideSockets: FILES_BESIDE_SOCKETS },
      'the connection caps do not fit under the open-files limit (ulimit -n): lower connections.*.total or raise the limit',
    );
  // Devices open once the screens can be served: a note inserted at start-up credits a screen that exists.
  billAcceptors.start();
  // A simulated shoe is a new device after an unclean stop: no new round before its shoe is in.
  // The parameters now, the journalled configuration changes applied again (by the floor services, above).
  opened.resume({ newShoe: !syncEvents.clean && config.shoe === 'sim' && recovery.resumedRound === null, params: paramsNow() });
  shoe.start();
  const dealer = options.simulatedDealer ?? { dealMs: 800 };
  simDealer = shoe.simulator() && dealer !== false ? new SimDealer(table, shoe, timers, log, dealer.dealMs, options.roundScript?.cards) : null;
  const stopDealer = simDealer ? simDealer.start() : () => undefined;
  const autoplay = options.autoplay
    ? new Autoplay({
        config,
        // Simulated players act at the test's speed (30 ms betting windows), not a hand's: no rate limit.
        openSession: (transport) => openSession(transport, true),
        tokenFor: (view) => tokens.tokenFor(view),
        insertNote: (station, note) => {
          const sim = billAcceptors.simulator(station);
          sim?.insertNote(note);
          return sim !== null;
        },
        seed: options.seed ?? 1,
        log,
        credit: (station) => ledger.credit(station),
        ...(options.roundScript ? { script: options.roundScript } : {}),
      })
    : null;
  autoplay?.start();
  // Simulated players cash out now and then: a simulated attendant pays their handpays.
  const stopAttendant = options.autoplay ? startSimAttendant(floor.handpays, timers, log) : () => undefined;
  const origin = `http://127.0.0.1:${server.port}`;
  const lanOrigin = lan ? `https://${lan.host.includes(':') ? `[${lan.host}]` : lan.host}:${lan.port}` : null;
  const enrol = (station: number, by: [string, string]): EnrolmentFile => {
    if (!lanOrigin || !certificate) throw new Error('this table takes no remote stations (remoteStations in its configuration)');
    if (!isRemote(table.state.params, station)) throw new Error(`station ${station} is not one of this table's remote stations`);
    const credential = remoteStations.enrol(station, by);
    ledger.append({
      type: 'service.action',
      payload: { who: by[0], action: 'station-enrol', confirmedBy: by[1], detail: `station ${station}; certificate ${certificate.fingerprint}` },
    });
    return enrolmentFor(credential, { tableId: config.tableId, lanOrigin, certificate: certificate.cert, fingerprint: certificate.fingerprint });
  };

  log.info({ origin, dataDir, tableId: config.tableId, terminalId, ledger: ledger.file }, 'table host started');

  return {
    origin,
    dataDir,
    hub: host,
    ledger,
    billAcceptors,
    simToken,
    table,
    shoe,
    sync,
    witness,
    floor,
    log,
    recovery,
    service,
    openSession,
    sent: sentNow,
    stadium: {
      stations: remoteStations,
      acceptors: remoteAcceptors,
      connections,
      lanOrigin,
      certificate,
      enrol,
    },
    screens: tokens.entries().map(([view, token]) => ({
      view,
      token,
      url: `${origin}/${view}?token=${encodeURIComponent(token)}`,
    })),
    async close() {
      stopCountingTilts();
      disk.stop();
      autoplay?.stop();
      stopAttendant();
      stopDealer();
      floor.close();
      table.stop();
      // Whoever is signed in to service mode is journalled out before the ledger closes.
      service.stop();
      serviceBackend.dispose();
      remoteAcceptors.closeAll();
      await lan?.close();
      await server.close();
      await shoe.close();
      await billAcceptors.close();
      await release();
      log.info('table host stopped');
      log.flush();
    },
  };
}

/** A listener's hello deadline and caps, as the table's configuration sets them. */
function listenerLimits(config: TableConfig, listener: 'local' | 'lan'): ConnectionLimits {
  return { helloMs: Math.round(config.connections.helloSeconds * 1000), ...config.connections[listener] };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
