// Test kit: the table's runtime, its screens' hub and the floor services over a real ledger in a temporary
// folder, with timers that fire only when the test says so. Used by the host's unit tests.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openLedger, type Ledger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { tableParams } from '../config/table-params.js';
import { ViewHub, type ApplyResult } from '../screens/view-hub.js';
import { wireFloorServices, type FloorServicesDeps, type WiredFloorServices } from '../floor/floor-services.js';
import type { Printers } from '../devices/printers.js';
import type { LiveTable } from '../table/runtime.js';
import { openTable } from '../table/start-table.js';
import type { GroupCommit } from '../table/command-batch.js';
import { openTableGame } from '../table/table-game.js';
import type { GameDefinition } from '../../engine/table/game.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { manualTimers } from './manual-timers.js';
import { parseCard } from '../../engine/cards/card.js';

export const silent = pino({ level: 'silent' });

export { manualTimers };

/**
 * A screen's command as the product sends it (`hub.commands.submit`: a bet, chips cleared or a decision to
 * the table's group commit), answered at once: the test table has no group-commit window unless a
 * test gives it one, and then the test awaits `hub.commands.submit` itself.
 */
export function submitted(r: ApplyResult | Promise<ApplyResult>): ApplyResult {
  if (r instanceof Promise) throw new Error('this table commits in groups: await hub.commands.submit instead');
  return r;
}

export interface TestTable {
  dir: string;
  ledger: Ledger;
  config: TableConfig;
  /** The table (its state machine's runtime). */
  table: LiveTable;
  hub: ViewHub;
  /**
   * A second hub over the same table that builds every station's part whole (`reuseIdleParts`
   * false), listening right after `hub` and before the floor services (`reference` asked for): what
   * each screen would have been sent before idle parts were made from their last.
   */
  reference: ViewHub | null;
  /** The floor services, with the gate a hub of the test's own attaches (host/screens/view-hub-stale.test.ts). */
  floor: WiredFloorServices;
  tilts: TiltManager;
  accepted: (readonly number[])[];
  /** Whether each station's acceptor takes notes after the floor's last word to it (absent: never told, so accepting). */
  acceptorEnabled: Map<number, boolean>;
  /** The reasons the floor gave each station's acceptor to take no notes. */
  acceptorInhibitions: Map<number, Set<string>>;
  clock: ReturnType<typeof manualTimers>;
  /** Closes this table's services and ledger, keeping the folder (a restart opens it again). */
  stop(): void;
  /** Stops and removes the folder. */
  close(): void;
}

/** What a test table is opened with. */
export interface TestTableOptions<S, R> {
  game?: 'war' | 'blackjack' | 'baccarat';
  dir?: string;
  config?: Partial<TableConfig>;
  /** The game's definition itself, in place of the configured one (a test's own rules). */
  definition?: GameDefinition<S, R>;
  /** Station commands submitted share durable commits within this window (on the test's clock). */
  groupCommit?: GroupCommit;
  /** The stations' ticket printers (cash-out to a ticket); none: handpays only. */
  printers?: Pick<Printers, 'at'>;
  /** The ledger's terminal id (several tables synced to one upstream); default T-FLOOR. */
  terminalId?: string;
  /** A second hub that builds every part whole (`TestTable.reference`). */
  reference?: boolean;
  /** The upstream's time as the table heard it (ticket-out is refused on a clock it contradicts). */
  floorClock?: FloorServicesDeps['floorClock'];
  /** The validation authority the tickets are told to and numbered by (none: the configuration's id). */
  authority?: FloorServicesDeps['authority'];
}

/** Opens a table over the ledger in `dir` (a new temporary folder when absent). */
export function testTable<S, R>(options: TestTableOptions<S, R> = {}): TestTable {
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'floor-'));
  const ledger = openLedger(dir, options.terminalId ?? 'T-FLOOR');
  const gameKind = options.game ?? 'war';
  // The simulated table of the profile asked for (its limits keep to what the profile's text fixes), then the test's own settings.
  const config = TableConfig.parse({ ...simulatedTableConfig(gameKind, options.config?.profile, options.config?.profileAuthorisation), ...options.config });
  const clock = manualTimers();
  const deps = { ledger, log: silent, timers: clock.timers, params: tableParams(config), ...(options.groupCommit ? { groupCommit: options.groupCommit } : {}) };
  const opened = options.definition ? openTable(options.definition, deps) : openTableGame(config, (game) => openTable(game, deps));
  const table = opened.table;
  const hub = new ViewHub(config, '0.0.0-test', table, ledger);
  const reference = options.reference ? new ViewHub(config, '0.0.0-test', table, ledger, { reuseIdleParts: false }) : null;
  const tilts = new TiltManager({ ledger, log: silent });
  tilts.restore();
  const accepted: (readonly number[])[] = [];
  const acceptorEnabled = new Map<number, boolean>();
  const acceptorInhibitions = new Map<number, Set<string>>();
  const setInhibited = (s: number, reason: string, on: boolean) => {
    const reasons = acceptorInhibitions.get(s) ?? new Set<string>();
    reasons[on ? 'add' : 'delete'](reason);
    acceptorInhibitions.set(s, reasons);
    acceptorEnabled.set(s, reasons.size === 0);
  };
  const floor = wireFloorServices({
    config,
    ledger,
    log: silent,
    tilts,
    table,
    billAcceptors: { setAccepted: (d) => void accepted.push(d), setInhibited },
    params: () => tableParams(config),
    ...(options.printers ? { printers: options.printers } : {}),
    ...(options.floorClock && { floorClock: options.floorClock }),
    ...(options.authority && { authority: options.authority }),
    onConfigApplied: () => [hub, reference].forEach((h) => h?.configChanged()),
  });
  [hub, reference].forEach((h) => h?.attachFloor(floor.gate));
  opened.resume({ newShoe: false, params: tableParams(config) });
  const stop = () => {
    floor.close();
    table.stop();
    ledger.close();
  };
  return {
    dir,
    ledger,
    config,
    table,
    hub,
    reference,
    floor,
    tilts,
    accepted,
    acceptorEnabled,
    acceptorInhibitions,
    clock,
    stop,
    close: () => {
      stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let notes = 0;
/** Credits a station as a bill acceptor would (journalled first). */
export function credit(ledger: Ledger, station: number, amount: number): void {
  notes++;
  ledger.append({
    type: 'bill.credit',
    payload: { station, device: `BA-${station}`, denomination: amount, currency: 'MOP' },
    txId: `test-note-${Date.now()}-${notes}`,
  });
}

const TWO_BETTORS_CARDS = ['9S', '8H', '7D', '2C', 'KD', '5H', 'AS', '3C', '6D', 'QH', '4S', 'TC'];

/**
 * Step `i` of a baccarat table played by remote stations 101 (on the banker) and 102 (on the
 * player), 10,000 each: their bets while betting is open, else the card the table asks for (from a
 * fixed run of twelve), a new shoe when it asks for a shuffle, the timer it waits on run out, or a
 * second of time. The tests of one change of the hub (its updates, its end, its writes) step it.
 */
export function stepTwoBettors(t: Pick<TestTable, 'table' | 'clock'>, i: number): void {
  const view = t.table.reads.view();
  const cue = t.table.reads.cue();
  if (view.phase === 'betting' && !t.table.reads.hasBets(101)) {
    t.table.commands.placeBet(101, { bet: 'banker' }, 10_000);
    t.table.commands.placeBet(102, { bet: 'player' }, 10_000);
  } else if (cue?.kind === 'card') t.table.shoe.onCard(parseCard(TWO_BETTORS_CARDS[i % TWO_BETTORS_CARDS.length] ?? '2C'));
  else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
  else if (view.endsAt !== null) t.clock.runOut(view.endsAt);
  else t.clock.advance(1_000);
}

/**
 * A new hub over the test's table that hears of no change: what each screen's parts are now, built
 * from scratch, to hold against what a long-lived hub kept (a stale part, another station's data).
 */
export function quietHub(t: Pick<TestTable, 'table' | 'config' | 'ledger' | 'floor'>): ViewHub {
  const quiet = new Proxy(t.table, {
    get: (target, key) => (key === 'onChange' ? () => () => undefined : (Reflect.get(target, key) as unknown)),
  }) as LiveTable;
  const hub = new ViewHub(t.config, '0.0.0-test', quiet, t.ledger);
  hub.attachFloor(t.floor.gate);
  return hub;
}
