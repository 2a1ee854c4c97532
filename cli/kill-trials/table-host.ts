// The table host of one kill trial: the real ledger file, the real table runtime recovered from it
// (`openTable`/`recoverTable`), the host's own `BillAcceptors` over acceptors whose state lives in
// record files, and the sync client. The kill target (target.ts) opens it and plays until killed;
// the campaign's parent opens it again after every kill, which is the restart that recovers.
// Nothing here loads the server, the screens or pixi, so a child starts in a fraction of a second.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import type { GameKind } from '../../engine/table/vocabulary.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { tableParams } from '../../host/config/table-params.js';
import { BillAcceptors } from '../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../host/devices/credit-rule/table-credit-rule.js';
import { openTable } from '../../host/table/start-table.js';
import { Ledger, SyncClient } from '../../ledger/index.js';
import { VirtualClock } from '../sim-faults/virtual-clock.js';
import { RecordedAcceptor } from './device-record.js';

export const TERMINAL = 'KILL-1';
/** A fixed key: the campaign's upstream model checks the chain, not who signed. */
export const UPSTREAM_KEY = Buffer.alloc(32, 7).toString('base64');
const silent = pino({ level: 'silent' });

export interface TableHost<S = unknown, R = unknown> {
  def: GameDefinition<S, R>;
  ledger: Ledger;
  table: ReturnType<typeof openTable>['table'];
  acceptors: BillAcceptors;
  devices: Map<number, RecordedAcceptor>;
  stations: number[];
  clock: VirtualClock;
  sync: SyncClient | null;
  /** Wall time of the start: the ledger's open and checks, the table's recovery, the devices' power-up (ms). */
  recoverMs: number;
  verifiedAtStart: boolean;
  problems: string[];
  /** What the start found: a round it went on with, rounds it voided (every bet returned). */
  found: { resumedRound: boolean; voided: number };
  close(): Promise<void>;
}

/** The record file of a station's acceptor in a trial's data folder. */
export function deviceFile(dir: string, station: number): string {
  return path.join(dir, `acceptor-${station}.jsonl`);
}

export function ledgerPath(dir: string): string {
  return path.join(dir, 'ledger.sqlite');
}

/** The table's configuration in a trial: the game's simulated table, four stations. */
export function trialConfig(game: GameKind, profile: string): TableConfig {
  const base = simulatedTableConfig(game, profile);
  return TableConfig.parse({ ...base, stations: base.stations.slice(0, 4) });
}

/**
 * Opens the table on `dir` as a start of the host does: the ledger (its tail check), the table
 * folded from its checkpoint and put back in play, the acceptors' power-up (a note in escrow
 * returned, a stacked note reported again). `upstream`: the sync client's URL (none: no client).
 */
export function openTableHost<S, R>(def: GameDefinition<S, R>, o: { dir: string; game: GameKind; profile: string; upstream?: string }): TableHost<S, R> {
  const t0 = performance.now();
  const config = trialConfig(o.game, o.profile);
  const params = tableParams(config);
  const stations = config.stations.map((s) => s.station);
  const ledger = Ledger.open({ file: ledgerPath(o.dir), terminalId: TERMINAL, checkpointEvery: 40 });
  // Timers on a virtual clock so that rounds run as fast as the process can go; the wall clock
  // starts at the real time or just after the journal's last entry, whichever is later.
  const last = ledger.entry(ledger.headOf().seq);
  const clock = new VirtualClock(Math.max(Date.now(), last ? Date.parse(last.ts) + 1 : 0));
  const opened = openTable(def, { ledger, log: silent, timers: clock.timers, params });
  const devices = new Map<number, RecordedAcceptor>();
  const order = [...stations];
  const acceptors = new BillAcceptors({
    config,
    ledger,
    log: silent,
    // No faults in the trials: a note refused is a stacked note not credited, which the invariants count as lost.
    credits: tableCreditRule({ config, ledger, log: silent, fault: () => undefined }),
    open: (_spec, options) => {
      const station = order.shift();
      if (station === undefined) throw new Error('more acceptors opened than the table has stations');
      const a = new RecordedAcceptor(deviceFile(o.dir, station), `BA-${station}`, { ...options, enabled: true });
      devices.set(station, a);
      return a;
    },
  });
  opened.resume({ newShoe: false, params });
  acceptors.start();
  // The power-up, then the first poll: a stacked note not acknowledged is reported again.
  for (const a of devices.values()) {
    a.start();
    a.poll(true);
  }
  const sync = o.upstream
    ? new SyncClient(ledger, {
        url: o.upstream,
        credentials: { terminalId: TERMINAL, key: UPSTREAM_KEY },
        now: () => new Date(clock.wall()),
      })
    : null;
  const recoverMs = performance.now() - t0;
  return {
    def,
    ledger,
    table: opened.table,
    acceptors,
    devices,
    stations,
    clock,
    sync,
    recoverMs,
    verifiedAtStart: opened.report.ledgerVerified,
    problems: opened.report.problems,
    found: { resumedRound: opened.report.resumedRound !== null, voided: opened.report.voided.length },
    async close() {
      opened.table.stop();
      clock.dropAll();
      await acceptors.close();
      ledger.close();
    },
  };
}
