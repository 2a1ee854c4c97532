import { watchJackpotController } from '../tilts/jackpot-controller.js';
import type { Logger } from 'pino';
import { NOTE_FACE_VALUES } from '../../hardware/billacceptor/notes.js';
import { heldStakeOf, type Ledger, type VerifyReport } from '../../ledger/index.js';
import { ConfigChanges, type ChangeableKey, type RuleSwitch } from '../config/config-changes.js';
import type { TableConfig } from '../config/table-config.js';
import type { BillAcceptors, InhibitReason } from '../devices/bill-acceptors.js';
import { Emitter } from '../../hardware/clock.js';
import type { LiveTable } from '../table/runtime.js';
import type { TableParams } from '../../engine/table/state.js';
import { remoteStationNumbers } from '../../engine/table/vocabulary.js';
import { applyTiltEffects } from '../tilts/tilt-effects.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import { verifyForTilts, watchHolds } from '../tilts/tilt-sources.js';
import { Handpays } from './handpays.js';
import { StationGates, type StationGate } from './station-gates.js';
import { TicketOut } from './ticket-out.js';
import { openSystemValidations } from '../devices/sas-system-validation.js';
import type { Printers } from '../devices/printers.js';
import type { TicketIn } from '../devices/ticket-in.js';
import type { CreditLimitNotes } from '../devices/credit-rule/credit-limit.js';
import { AftNotices } from './aft-notices.js';
import type { TicketAuthority } from '../tickets/authority.js';
import type { FloorClock } from '../tickets/floor-clock.js';

/** The casino-floor services of a running table, for service mode (issue 9). */
export interface FloorServices {
  tilts: TiltManager;
  handpays: Handpays;
  /** Cash-out tickets: at start, the tickets a kill left in print are asked of their printers; `tickets.system`, SAS system validation (docs/sas.md). */
  tickets: TicketOut;
  /** Tickets in that the acceptor left without an end after their approval, for a person to settle (absent: the table takes no tickets in). */
  ticketsIn?: Pick<TicketIn, 'held' | 'isHeld' | 'settleByHand' | 'onChange'>;
  configChanges: ConfigChanges;
  /** The full ledger verification, on demand; a failure raises `ledger-integrity` (table halted). */
  verifyLedger(): VerifyReport;
  close(): void;
}

export interface FloorServicesDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  tilts: TiltManager;
  table: LiveTable;
  billAcceptors: Pick<BillAcceptors, 'setAccepted' | 'setInhibited'>;
  /** The table's parameters as the running configuration now sets them. */
  params: () => TableParams;
  /** A configuration change took effect: the screens look again. */
  onConfigApplied: () => void;
  /** The game rebuilt under a rule set switched at a shoe change (absent: a rule set changes at a start). */
  ruleSwitch?: RuleSwitch;
  /** The stations' ticket printers (cash-out to a ticket, docs/tito.md); absent: handpays only. */
  printers?: Pick<Printers, 'at'> & Partial<Pick<Printers, 'onLinkUp'>>;
  /** Tickets in at the acceptors: what each station's screen says of the last one, and the ones held for a person. */
  ticketsIn?: Pick<TicketIn, 'lastAt' | 'onChange' | 'held' | 'isHeld' | 'settleByHand'>;
  /** The notes each station's acceptor returned at its credit limit (host/devices/credit-rule/credit-limit.ts). */
  limitNotes?: Pick<CreditLimitNotes, 'lastAt' | 'onChange'>;
  /** The validation authority, told of each ticket at once (the synced journal tells it anyway). */
  authority?: TicketAuthority;
  /** The upstream's time as the table heard it: ticket-out is refused on a clock it contradicts (docs/tito.md, "The table's clock"). */
  floorClock?: Pick<FloorClock, 'verdict'>;
}

/** The floor services with what the screens need of them (refusals, notices, cash-out). */
export interface WiredFloorServices extends FloorServices {
  gate: StationGate;
  /** What each station's screen is told of the AFT transfers in it refused (the SAS links tell it). */
  aftNotices: AftNotices;
}

/** A configuration change took effect: the acceptors told the notes, the table its limits and timings, the screens. */
function configApplied(d: FloorServicesDeps, key: ChangeableKey): void {
  if (key === 'denominations') d.billAcceptors.setAccepted(d.config.denominations ?? NOTE_FACE_VALUES[d.config.currency]);
  // Limits and timings are the table's to play by: an input, journalled like any other.
  if (key === 'limits' || key === 'betLimits' || key === 'timings' || key === 'roundMax' || key === 'handpayTwoPersonAbove') d.table.configure(d.params());
  d.onConfigApplied();
}

/**
 * The stations whose acceptors the current faults may inhibit or release: the seated ones, any a
 * fault names, any still inhibited, and while a fault halts the table every remote one, whose
 * acceptor takes no notes then either (docs/table-host.md, "Effects"). Before, a halt reached no
 * remote station no fault named: during a `ledger-integrity` halt a stadium's agents were still
 * answered "stack" and their notes credited into the journal the table had stopped on.
 */
function stationsToGate(
  config: Pick<TableConfig, 'stations' | 'remoteStations'>,
  current: ReturnType<TiltManager['list']>,
  applied: ReadonlyMap<number, unknown>,
): Set<number> {
  const halted = current.some((t) => t.disables === 'table');
  return new Set<number>([
    ...config.stations.map((s) => s.station),
    ...current.flatMap((t) => (t.station !== undefined ? [t.station] : [])),
    ...applied.keys(),
    ...(halted ? remoteStationNumbers(config.remoteStations) : []),
  ]);
}

/** What the screens see of the floor: refusals, notices, each station's cash-out and what its acceptor and AFT refused. */
function gateOf(d: FloorServicesDeps, handpays: Handpays, handpayChanges: Emitter<void>, tickets: TicketOut, aftNotices: AftNotices): StationGates {
  const streakHeld = (station: number) => heldStakeOf(d.ledger, station);
  return new StationGates(
    d.tilts,
    handpays,
    (listener) => handpayChanges.on(listener),
    tickets,
    d.ticketsIn ?? null,
    streakHeld,
    d.limitNotes ?? null,
    aftNotices,
    d.log,
  );
}

/**
 * Cash-out tickets, and their printers' links: a ticket left in print whose printer answered only
 * after the start's question timed out, or came back after a loss, is asked about again.
 */
function ticketOut(d: FloorServicesDeps, handpays: Handpays, changed: () => void): TicketOut {
  const tickets = new TicketOut({
    config: d.config,
    ledger: d.ledger,
    log: d.log,
    printerAt: (s) => d.printers?.at(s),
    ...(d.authority ? { authority: d.authority } : {}),
    ...(d.floorClock ? { clock: d.floorClock } : {}),
    faults: d.tilts,
    now: () => new Date(),
    onChanged: changed,
    system: openSystemValidations(d, handpays),
  });
  d.printers?.onLinkUp?.((station) => tickets.printerBack(station));
  return tickets;
}

/**
 * Wires the faults, the handpays and the configuration changes to the rounds and the screens.
 * Called before the devices and the rounds start, so journalled configuration changes are in
 * effect before the first note or bet.
 */
export function wireFloorServices(d: FloorServicesDeps): WiredFloorServices {
  // A handpay asked for or paid changes a station's lock and cash-out: the screens look again.
  const handpayChanges = new Emitter<void>();
  const handpays = new Handpays({
    config: d.config,
    ledger: d.ledger,
    log: d.log,
    hasBets: (s) => d.table.reads.hasBets(s),
    onChanged: () => handpayChanges.emit(),
    onPaid: (requestTxId) => jackpotHandpaid(d.table, requestTxId),
  });
  const configChanges = new ConfigChanges({
    config: d.config,
    ledger: d.ledger,
    log: d.log,
    bets: () => d.table.game.rules.bets,
    betweenRounds: () => d.table.reads.betweenRounds(),
    ...(d.ruleSwitch ? { ruleSwitch: d.ruleSwitch } : {}),
    faults: d.tilts,
    onApplied: (key) => configApplied(d, key),
  });
  const restored = configChanges.restore();
  if (restored > 0) d.log.info({ restored }, 'journalled configuration changes in effect');
  const tickets = ticketOut(d, handpays, () => handpayChanges.emit());
  const aftNotices = new AftNotices();
  const gate = gateOf(d, handpays, handpayChanges, tickets, aftNotices);
  // A station disabled by a fault (a jam, a removed stacker, a cheat attempt) or a halted table
  // takes no notes either. Each fault is its own reason at the acceptor, beside a technician's
  // disable: the acceptor takes notes again only once every reason has gone.
  const applied = new Map<number, Set<InhibitReason>>();
  const gateAcceptors = () => {
    const current = d.tilts.list();
    for (const station of stationsToGate(d.config, current, applied)) {
      const want = new Set<InhibitReason>(
        current.filter((t) => t.disables === 'table' || (t.disables === 'station' && t.station === station)).map((t) => `tilt:${t.kind}` as const),
      );
      const had = applied.get(station) ?? new Set<InhibitReason>();
      // New reasons first: one fault giving way to another never lets a note in between.
      for (const r of want) if (!had.has(r)) d.billAcceptors.setInhibited(station, r, true);
      for (const r of had) if (!want.has(r)) d.billAcceptors.setInhibited(station, r, false);
      // A station with no reason left is not kept: a stadium's stations are looked at again only when a fault concerns them.
      if (want.size > 0) applied.set(station, want);
      else applied.delete(station);
    }
  };
  gateAcceptors();
  const off = [
    applyTiltEffects(d.tilts, d.table),
    watchHolds(d.tilts, d.table),
    watchJackpotController({ ledger: d.ledger, table: d.table, tilts: d.tilts }),
    d.tilts.onChange(gateAcceptors),
    d.table.onChange(() => configChanges.applyQueued()),
    tableHandpays(d.ledger, handpays, () => handpayChanges.emit()),
  ];
  return {
    gate,
    aftNotices,
    tilts: d.tilts,
    handpays,
    tickets,
    ...(d.ticketsIn ? { ticketsIn: d.ticketsIn } : {}),
    configChanges,
    verifyLedger: () => verifyForTilts(d.ledger, d.tilts),
    close: () => off.forEach((f) => f()),
  };
}

/**
 * Portugal rule 49: a jackpot award paid by hand keeps its round's cards on the table until it is
 * paid; its confirmation is the table's input that lets them be collected. Only a handpay the
 * table owes is fed (a cash-out's is none of the table's).
 */
export function jackpotHandpaid(table: LiveTable, requestTxId: string): void {
  if (!table.state.jackpotUnpaid?.handpays.includes(requestTxId)) return;
  table.input({ kind: 'jackpot-paid', at: Date.now(), handpay: requestTxId });
}

/**
 * At a start, the jackpot handpays the table still owes that were confirmed before a kill could
 * journal the table's input: fed now, so the round is not held for a paid award.
 */
export function jackpotsPaidMeanwhile(table: LiveTable, handpays: Pick<Handpays, 'pending'>): void {
  const owed = table.state.jackpotUnpaid?.handpays ?? [];
  const pending = new Set(handpays.pending().map((p) => p.requestTxId));
  for (const tx of owed) if (!pending.has(tx)) jackpotHandpaid(table, tx);
}

/**
 * A jackpot award paid by hand is the table's handpay request, not the Handpays class's own
 * write: the pending ones are read again, so the station locks and service mode lists it at once.
 */
function tableHandpays(ledger: FloorServicesDeps['ledger'], handpays: Handpays, changed: () => void): () => void {
  return ledger.onAppended((entries) => {
    if (!entries.some((e) => e.type === 'handpay.request')) return;
    handpays.refresh();
    changed();
  });
}
