import type { Logger } from 'pino';
import { openBillAcceptor, openBillAcceptorOn, type OpenedBillAcceptor } from '../../hardware/open.js';
import type { Currency } from '../../hardware/billacceptor/notes.js';
import type { SspOptions } from '../../hardware/billacceptor/ssp/driver.js';
import type { BillAcceptorEvent, BillAcceptorOptions, Credit, EscrowDecision, EscrowedNote, EscrowedTicket } from '../../hardware/billacceptor/types.js';
import type { PortOpener } from '../../hardware/transport/byte-port.js';
import type { WireFrame } from '../../hardware/wire-frame.js';
import type { InhibitedBy } from '../../protocol/index.js';
import { serviceDisabledDevices, type Ledger } from '../../ledger/index.js';
import type { TableConfig } from '../config/table-config.js';
import { lastCreditFor, pendingNoteFor } from '../recovery/escrow.js';
import type { TicketIn } from './ticket-in.js';
import { remoteStationNumbers } from '../../engine/table/vocabulary.js';
import { NotesHeld } from './notes-held.js';
import type { CreditRule } from './credit-rule/credit-rule.js';

/** What service mode and /healthz show of one station's acceptor. */
export interface BillAcceptorStatus {
  station: number;
  device: string;
  spec: string;
  state: 'connecting' | 'ready' | 'disconnected' | 'fault';
  /** The name of its last event (service mode words it). */
  lastEvent: BillAcceptorEvent['type'] | null;
  /** The protocol the station's acceptor speaks (id003, ssp). */
  protocol: 'id003' | 'ssp';
  firmware?: string;
  /** The unit's serial number, where its protocol reports one (SSP does; ID-003 has no such request). */
  serial?: string;
}

export interface BillAcceptorDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** The one credit rule (host/devices/credit-rule/): what is stacked and credited, for seated and remote acceptors alike. */
  credits: CreditRule;
  /** Every device event, for the tilt manager (host/tilts/tilt-sources.ts). */
  onEvent?: (station: number, e: BillAcceptorEvent) => void;
  /** For tests: the device factory (default: the real drivers, over the simulator for `sim`). */
  open?: typeof openBillAcceptor;
  /** Tickets in (ID-003 barcodes, docs/tito.md): each asked of the validation authority while it waits in escrow. Absent: tickets refused. */
  tickets?: TicketIn;
}

/**
 * Why a station's acceptor takes no notes: a technician disabled it in service mode, or a current
 * fault (`tilt:<kind>`) disables the station or halts the table.
 */
export type InhibitReason = InhibitedBy;

const FAULTS = new Set<BillAcceptorEvent['type']>(['jam', 'stackerFull', 'stackerRemoved', 'cheated', 'failure', 'unvaluedCredit', 'protocolViolation']);

/**
 * One bill acceptor per station, driven through the hardware layer. The money rule of
 * docs/architecture.md is the credit rule's (host/devices/credit-rule/): the escrowed note is
 * journalled before the acceptor is told to stack it, and a credit is journalled, only against
 * such an escrow, before the driver acknowledges the device (the driver awaits `onCredit`; a
 * refused credit throws, so the device is not acknowledged). Transaction ids come from the
 * driver's escrow id, so a repeated credit report is journalled once.
 */
export class BillAcceptors {
  private readonly devices = new Map<number, OpenedBillAcceptor>();
  private readonly status = new Map<number, BillAcceptorStatus>();
  /**
   * The reasons each station's acceptor is inhibited for. Several hold at once (a technician's
   * disable and a jam): it takes notes again only when none is left, so the end of one (the jam
   * cleared) never undoes another (the technician's disable).
   */
  private readonly inhibitions = new Map<number, Set<InhibitReason>>();
  private readonly listeners = new Set<(station: number, e: BillAcceptorEvent) => void>();
  private readonly frameListeners = new Set<(station: number, f: WireFrame) => void>();

  /** Every frame on each acceptor's wire (service mode's Devices trace); nothing is kept here. */
  onFrame(listener: (station: number, f: WireFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }
  /** Stations in service mode's note test: the next note is returned, reported, never credited. */
  private readonly noteTests = new Map<number, (note: EscrowedNote) => void>();

  /** Notes answered "stack" that no acceptor will end: a person's to settle (service mode, Devices). */
  readonly notes: NotesHeld;

  constructor(private readonly deps: BillAcceptorDeps) {
    const configured = new Set([...deps.config.stations.map((s) => s.station), ...remoteStationNumbers(deps.config.remoteStations)]);
    this.notes = new NotesHeld({ ledger: deps.ledger, configured: () => configured });
  }

  start(): void {
    // The attempts no acceptor can be asked about are settled before any acceptor is told of one.
    this.deps.tickets?.recover();
    const open = this.deps.open ?? openBillAcceptor;
    for (const s of this.deps.config.stations) this.add(s.station, s.billAcceptor, s.billProtocol, (options) => open(s.billAcceptor, options));
  }

  /**
   * A remote station whose agent relays its acceptor's bytes (host/devices/remote-acceptors.ts):
   * the host's own driver over that relay, with everything a seated station's has (the credit
   * rule, the faults, the inhibit, service mode's trace). Opened once; a later link of the agent
   * reaches the same driver through `opener`. SSP runs encrypted end to end (`ssp`: always, with
   * the table's fixed key), so the station's machine carries only ciphertext.
   */
  attachRelayed(station: number, protocol: 'id003' | 'ssp', opener: PortOpener, ssp: Pick<SspOptions, 'encryption' | 'fixedKey'> = {}): void {
    if (this.devices.has(station)) return;
    this.add(station, `relay:${station}`, protocol, (options) => openBillAcceptorOn(opener, { ...options, ...ssp }));
  }

  /**
   * A relayed station's agent now runs the driver itself (`mode: driver`): the host's own driver
   * of it goes, said nothing more of (its port's end is no lost acceptor: the agent's is there).
   * Before, it stayed, opening ports over the dead relaying link and saying the acceptor lost.
   */
  detachRelayed(station: number): Promise<void> {
    const d = this.devices.get(station);
    if (!d || this.status.get(station)?.spec !== `relay:${station}`) return Promise.resolve();
    this.devices.delete(station);
    this.status.delete(station);
    this.detached.add(d);
    this.deps.log.info({ station }, "the station's agent runs its acceptor's driver now: the host's driver of it let go");
    return d.close();
  }

  /** Drivers let go (detachRelayed): whatever they say after is not heard. */
  private readonly detached = new WeakSet<OpenedBillAcceptor>();

  /** Reconnects a station's driver now rather than after its backoff (the relayed port came back). */
  wake(station: number): void {
    const d = this.devices.get(station);
    if (d && 'wake' in d && typeof d.wake === 'function') d.wake();
  }

  private add(
    station: number,
    spec: string,
    protocol: 'id003' | 'ssp',
    open: (options: BillAcceptorOptions & Pick<SspOptions, 'dataset'> & { protocol: 'id003' | 'ssp'; currency: Currency }) => OpenedBillAcceptor,
  ): void {
    const { config } = this.deps;
    const device = `BA-${station}`;
    // A technician's disable stands until a technician enables the device again, restart or not.
    if (serviceDisabledDevices(this.deps.ledger).includes(device)) this.reasons(station).add('service-disable');
    this.status.set(station, { station, device, spec, protocol, state: 'connecting', lastEvent: null });
    const pendingNote = pendingNoteFor(this.deps.ledger, device);
    // Handed to this driver: its word ends the note again, whatever an earlier driver left.
    if (pendingNote) this.notes.handed(device, pendingNote.escrowId);
    const acceptor = open({
      protocol,
      currency: config.currency,
      ...(config.denominations ? { accept: config.denominations } : {}),
      ...(protocol === 'ssp' && config.sspDataset ? { dataset: config.sspDataset } : {}),
      enabled: this.reasons(station).size === 0,
      // A note in escrow when the host stopped: the power-up report resolves it (host/recovery/escrow.ts).
      pendingNote,
      // A credit journalled just before the host stopped may be unacknowledged: its repeat is no cheat.
      lastCredit: lastCreditFor(this.deps.ledger, device),
      onEscrow: (note) => this.escrow(station, device, note),
      onCredit: (credit) => this.credit(station, device, credit),
      ...(this.deps.tickets ? this.ticketOptions(station, this.deps.tickets) : {}),
    });
    acceptor.on((e) => {
      if (!this.detached.has(acceptor)) this.track(station, e);
    });
    acceptor.onFrame((f) => {
      if (this.detached.has(acceptor)) return;
      for (const l of this.frameListeners) l(station, f);
    });
    this.devices.set(station, acceptor);
  }

  private ticketOptions(station: number, tickets: TicketIn): Pick<BillAcceptorOptions, 'onTicket' | 'onTicketStacked' | 'pendingTicket' | 'lastTicket'> {
    return {
      onTicket: (t) => tickets.escrow(station, t),
      onTicketStacked: (t) => tickets.stacked(station, t),
      pendingTicket: tickets.pendingFor(station),
      // A ticket stacked just before the host stopped may be unacknowledged: its repeat is no cheat.
      lastTicket: tickets.lastStackedFor(station),
    };
  }

  /** The simulator behind a `sim` station (insert a note, inject a fault); null for real hardware. */
  simulator(station: number): OpenedBillAcceptor['simulator'] | null {
    return this.devices.get(station)?.simulator ?? null;
  }

  /**
   * Adds (`inhibited`) or removes one reason for a station's acceptor to take no notes; it takes
   * them only while no reason is left. Remembered before the devices open, so a station disabled
   * by a fault restored at start opens inhibited.
   */
  setInhibited(station: number, reason: InhibitReason, inhibited: boolean): void {
    const reasons = this.reasons(station);
    const before = reasons.size === 0;
    if (inhibited) reasons.add(reason);
    else reasons.delete(reason);
    const after = reasons.size === 0;
    if (before === after) return;
    const d = this.devices.get(station);
    if (!d) return;
    if (after) d.enable();
    else d.disable();
  }

  /** Why the station's acceptor takes no notes now (empty: it takes them). */
  inhibitedBy(station: number): InhibitReason[] {
    return [...(this.inhibitions.get(station) ?? [])];
  }

  /** Whether the table has a station with this number (and so an acceptor). */
  hasStation(station: number): boolean {
    return this.deps.config.stations.some((s) => s.station === station);
  }

  /** The notes every acceptor takes (a configuration change of `denominations`). */
  setAccepted(denominations: readonly number[]): void {
    for (const d of this.devices.values()) d.setAccepted(denominations);
  }

  /** Every decoded device event, for service mode's live trace. */
  onEvent(listener: (station: number, e: BillAcceptorEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Service mode's note test: the next note at `station` is validated and handed back to the
   * customer side (returned from escrow), and `onNote` is told its value. Nothing is journalled as
   * money: the test journals itself as a test. Returns a function that ends the test.
   */
  testNextNote(station: number, onNote: (note: EscrowedNote) => void): () => void {
    this.noteTests.set(station, onNote);
    return () => {
      if (this.noteTests.get(station) === onNote) this.noteTests.delete(station);
    };
  }

  statuses(): BillAcceptorStatus[] {
    return [...this.status.values()].map((s) => ({ ...s }));
  }

  async close(): Promise<void> {
    await Promise.all([...this.devices.values()].map((d) => d.close()));
  }

  private reasons(station: number): Set<InhibitReason> {
    let r = this.inhibitions.get(station);
    if (!r) this.inhibitions.set(station, (r = new Set()));
    return r;
  }

  private escrow(station: number, device: string, note: EscrowedNote): EscrowDecision {
    const test = this.noteTests.get(station);
    if (test) {
      this.noteTests.delete(station);
      test(note);
      return 'return';
    }
    return this.deps.credits.escrow(this.at(station, device), note);
  }

  private credit(station: number, device: string, credit: Credit): void {
    const r = this.deps.credits.credit(this.at(station, device), credit);
    // Thrown: the driver does not acknowledge the device, and nothing was credited.
    if (!r.ok) throw new Error(`credit refused: ${r.reason}`);
    this.deps.log.info({ station, device, amount: credit.amount, seq: r.seq, status: r.status, recovered: credit.recovered }, 'bill credited');
  }

  /** The unit left a ticket without saying it stacked or returned (in dispute, jammed): no longer its to end. */
  private ticketLeft(station: number, ticket: EscrowedTicket, why: string): void {
    try {
      this.deps.tickets?.acceptorLeft(station, ticket, why);
    } catch (err) {
      this.deps.log.error({ err, station }, 'a ticket the acceptor left could not be journalled');
    }
  }

  private at(station: number, device: string) {
    return { station, device, enabled: this.reasons(station).size === 0 };
  }

  private track(station: number, e: BillAcceptorEvent): void {
    for (const l of this.listeners) l(station, e);
    const s = this.status.get(station);
    if (!s) return;
    // Before the fault is journalled: the Tickets page it refreshes lists the ticket left held.
    if ((e.type === 'protocolViolation' || e.type === 'jam') && e.ticket) this.ticketLeft(station, e.ticket, e.type === 'jam' ? 'jam' : e.rule);
    // …and the Devices page the note left held: in dispute, or jammed (the driver went idle and
    // forgot it; the attendant takes it out), the driver never credits it after.
    if ((e.type === 'protocolViolation' || e.type === 'jam') && e.note && this.notes.acceptorLeft(s.device, e.note.escrowId))
      this.deps.log.warn(
        { station, device: s.device, escrowId: e.note.escrowId, rule: e.type === 'jam' ? 'jam' : e.rule },
        'note left by its acceptor without an end: held for a person (service mode, Devices)',
      );
    this.deps.onEvent?.(station, e);
    s.lastEvent = e.type;
    if (e.type === 'ticketReturned') {
      try {
        this.deps.tickets?.deviceReturned(station, e.ticket, e.reason);
      } catch (err) {
        this.deps.log.error({ err, station }, 'the return of a ticket in escrow could not be journalled');
      }
    }
    if (e.type === 'returned' && e.note) {
      try {
        const r = this.deps.credits.returned(this.at(station, s.device), e.note, e.reason);
        if (r.ok && r.wrote) this.deps.log.info({ station, device: s.device, amount: e.note.amount, reason: e.reason }, 'note in escrow returned');
      } catch (err) {
        this.deps.log.error({ err, station }, 'the return of a note in escrow could not be journalled');
      }
    }
    if (e.type === 'connected') {
      s.state = 'ready';
      if (e.firmware) s.firmware = e.firmware;
      if (e.serial) s.serial = e.serial;
    } else if (e.type === 'reconnected' || e.type === 'faultCleared') s.state = 'ready';
    else if (e.type === 'disconnected') s.state = 'disconnected';
    else if (FAULTS.has(e.type)) s.state = 'fault';
    if (s.state !== 'ready' && e.type !== 'idle') this.deps.log.warn({ station, device: s.device, event: e }, 'bill acceptor event');
  }
}
