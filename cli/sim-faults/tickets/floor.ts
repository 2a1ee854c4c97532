import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { simulatedTableConfig, TableConfig } from '../../../host/config/table-config.js';
import { BillAcceptors } from '../../../host/devices/bill-acceptors.js';
import { tableCreditRule } from '../../../host/devices/credit-rule/table-credit-rule.js';
import { TicketIn } from '../../../host/devices/ticket-in.js';
import { TicketOut } from '../../../host/floor/ticket-out.js';
import { TiltManager } from '../../../host/tilts/tilt-manager.js';
import { guardAuthority } from '../../../host/tickets/guard.js';
import { entriesOfTypes, Ledger } from '../../../ledger/index.js';
import { TICKET_ENTRY_TYPES } from '../../../terms/ticket-terms.js';
import { FaultyLedger, Killed, type WriteFault } from '../faulty-ledger.js';
import { acceptorTruth, type AcceptorTruth } from '../../fake-acceptor/fake-acceptor.js';
import { AuthorityModel, HeldAnswers, type AuthorityFault } from './authority-model.js';
import { printerTruth, SimPrinter, type PrinterJob, type PrinterTruth } from './printer-model.js';
import { SimTicketAcceptor, ticketSlotTruth, type Inserted, type TicketSlotTruth } from './ticket-acceptor.js';
import { inEnglish } from '../../../host/config/refusal-words.js';

// A floor of table hosts that print and take tickets, for the fault simulation (issue 47): each
// table the host's own ticket code (TicketOut, TicketIn, BillAcceptors, the guard around the
// authority) on its own ledger file behind the fault injector (faulty-ledger.ts), its stations'
// printers and acceptors as models whose truth outlives the host, and one validation authority for
// the floor (authority-model.ts). A kill drops a table's host — its ledger, its acceptors' host
// side, the answers on their way to it — and starts a new one on the same file, which recovers as
// the host does at every start: the tickets in print asked of their printers, a ticket in escrow
// resolved by the acceptor's power-up. The players' paper (the wallet) outlives everything.

const silent = pino({ level: 'silent' });
export const STATIONS = [1, 2] as const;

export interface FloorHooks {
  /** The faults armed on a table host's journal writes at each of its starts. */
  armed: (table: string, start: number) => WriteFault[];
  /** How the next print job at a printer goes. */
  job: (table: string, station: number) => PrinterJob;
  /** How the next call of a table to the authority goes on the link. */
  link: (table: string, call: 'redeem' | 'word') => AuthorityFault;
  /** What the floor noticed (the run's trace). */
  note: (s: string) => void;
  violated: (s: string) => void;
}

interface Host {
  ledger: Ledger;
  faulty: FaultyLedger;
  acceptors: BillAcceptors;
  sims: Map<number, SimTicketAcceptor>;
  printers: Map<number, SimPrinter>;
  out: TicketOut;
  in: TicketIn;
}

/** What outlives a table's host: its file, its devices' truth, its starts. */
export interface TableSite {
  readonly name: string;
  readonly file: string;
  readonly config: TableConfig;
  readonly notes: Map<number, AcceptorTruth>;
  readonly slots: Map<number, TicketSlotTruth>;
  readonly paper: Map<number, PrinterTruth>;
  starts: number;
  kills: number;
  host: Host | null;
}

export class TicketFloor {
  readonly authority: AuthorityModel;
  readonly held = new HeldAnswers();
  readonly sites: TableSite[];
  /** Paper in the players' hands: every whole ticket taken out of a chute and not yet in a stacker. */
  readonly wallet: string[] = [];
  private readonly dir: string;
  private wall = Date.UTC(2026, 10, 26, 12);

  constructor(
    tables: number,
    private readonly hooks: FloorHooks,
    flaw: 'approve-pending' | null = null,
  ) {
    this.authority = new AuthorityModel(flaw);
    this.dir = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'sim-tickets-'));
    const base = simulatedTableConfig('war');
    this.sites = Array.from({ length: tables }, (_, i) => {
      const name = `T${i + 1}`;
      const config = TableConfig.parse({
        ...base,
        tableId: name,
        stations: base.stations.slice(0, STATIONS.length),
        tickets: { limit: 5_000_000, expiryDays: 90, machineId: 100 + i },
      });
      return {
        name,
        file: path.join(this.dir, `${name}.sqlite`),
        config,
        notes: new Map(STATIONS.map((s) => [s, acceptorTruth(`${name}-BA-${s}`)])),
        slots: new Map(STATIONS.map((s) => [s, ticketSlotTruth(`${name}-BA-${s}`)])),
        paper: new Map(STATIONS.map((s) => [s, printerTruth(`${name}-PR-${s}`)])),
        starts: 0,
        kills: 0,
        host: null,
      };
    });
  }

  now(): Date {
    this.wall += 1000;
    return new Date(this.wall);
  }

  /** Starts every table's host. */
  async open(): Promise<void> {
    for (const s of this.sites) await this.boot(s);
  }

  /** A table's host, started (again, after a kill, until a start survives). */
  async boot(site: TableSite): Promise<Host> {
    for (;;) {
      const host = await this.start(site);
      if (!host.faulty.killed) return host;
      await this.drop(site, host);
    }
  }

  /** Runs one action of a table's host; a kill on the way drops the host and starts a new one. */
  async at<T>(site: TableSite, act: (h: Host) => T | Promise<T>): Promise<T | 'killed'> {
    const host = site.host ?? (await this.boot(site));
    try {
      const r = await act(host);
      if (!host.faulty.killed) return r;
    } catch (e) {
      if (!(e instanceof Killed) && !host.faulty.killed) throw e;
    }
    await this.drop(site, host);
    await this.boot(site);
    return 'killed';
  }

  private async start(site: TableSite): Promise<Host> {
    site.starts++;
    const ledger = Ledger.open({ file: site.file, terminalId: site.name, clock: () => new Date(this.wall), checkpointEvery: 40 });
    const armed = this.hooks.armed(site.name, site.starts);
    for (const f of armed)
      if (f.kind === 'kill') this.hooks.note(`${site.name} start ${site.starts}: armed kill at write ${f.at} ${f.committed ? 'after' : 'before'} commit`);
    const faulty = new FaultyLedger(ledger, armed);
    const authority = guardAuthority(
      this.authority.clientFor(site.name, (call) => this.hooks.link(site.name, call), this.held),
      // The deadlines are real time, but the world never runs while a host waits: an answer not
      // given at once (held, never) is always past them, one given at once always within.
      { deadlineMs: 1, wordDeadlineMs: 1 },
    );
    const ticketsIn = new TicketIn({ config: site.config, ledger, log: silent, authority });
    const sims = new Map<number, SimTicketAcceptor>();
    const order = [...STATIONS];
    const acceptors = new BillAcceptors({
      config: site.config,
      ledger,
      log: silent,
      credits: tableCreditRule({
        config: site.config,
        ledger,
        log: silent,
        fault: (station, say) => this.hooks.violated(`${site.name}: an honest acceptor's note was refused at ${station}: ${inEnglish(say)}`),
      }),
      tickets: ticketsIn,
      open: (_spec, o) => {
        const station = order.shift() ?? 1;
        const notes = site.notes.get(station) ?? acceptorTruth('?');
        const slot = site.slots.get(station) ?? ticketSlotTruth('?');
        const a = new SimTicketAcceptor(notes, slot, { ...o, enabled: true });
        sims.set(station, a);
        return a;
      },
    });
    const printers = new Map<number, SimPrinter>();
    for (const s of STATIONS) {
      const truth = site.paper.get(s) ?? printerTruth('?');
      const dies = () => {
        faulty.killed ??= new Killed(faulty.writes, true, ['(after the print command)']);
      };
      printers.set(s, new SimPrinter(truth, () => this.hooks.job(site.name, s), dies));
    }
    const out = new TicketOut({
      config: site.config,
      ledger,
      log: silent,
      printerAt: (s) => printers.get(s),
      authority,
      faults: new TiltManager({ ledger, log: silent }),
      now: () => new Date(this.wall),
      onChanged: () => undefined,
    });
    const host: Host = { ledger, faulty, acceptors, sims, printers, out, in: ticketsIn };
    site.host = host;
    this.hooks.note(`${site.name} start ${site.starts}: journal head ${ledger.headOf().seq}`);
    try {
      acceptors.start();
      for (const a of sims.values()) {
        a.start();
        a.poll(true, false);
        await a.recover();
      }
      await out.recover();
    } catch (e) {
      if (!(e instanceof Killed)) throw e;
    }
    return host;
  }

  private async drop(site: TableSite, host: Host): Promise<void> {
    site.kills++;
    const k = host.faulty.killed;
    this.hooks.note(`${site.name} KILLED ${k ? k.message : ''}`);
    this.held.drop(site.name);
    await host.acceptors.close();
    host.ledger.close();
    site.host = null;
  }

  // --- what players and attendants do -----------------------------------------------------------

  async insertNote(site: TableSite, station: number, amount: number): Promise<void> {
    await this.at(site, (h) => {
      h.sims.get(station)?.insert(amount);
      h.sims.get(station)?.poll(false, false);
    });
  }

  async cashOut(site: TableSite, station: number): Promise<string> {
    const r = await this.at(site, (h) => (h.ledger.credit(station) > 0 ? h.out.cashOut(station) : null));
    return r === 'killed' ? 'killed' : r === null ? 'no credit' : r.kind === 'no-ticket' ? `no ticket (${r.reason})` : `${r.kind} ${r.validation}`;
  }

  /** The player takes the paper in the chute. */
  take(site: TableSite, station: number): string[] {
    const truth = site.paper.get(station);
    if (!truth) return [];
    const taken = truth.inChute;
    truth.inChute = [];
    this.wallet.push(...taken);
    return taken;
  }

  /** An attendant clears a printer's jam (the torn ticket is thrown away). */
  clearJam(site: TableSite, station: number): void {
    const truth = site.paper.get(station);
    if (truth) truth.jammed = false;
  }

  /** A ticket (from the wallet, or any barcode) inserted at a station: back in the wallet unless it is in the stacker. */
  async insertTicket(site: TableSite, station: number, validation: string): Promise<Inserted | 'killed'> {
    const slot = site.slots.get(station);
    if (!slot) return 'refused';
    const escrowId = `${slot.device}:T${slot.next}`;
    const i = this.wallet.indexOf(validation);
    if (i >= 0) this.wallet.splice(i, 1);
    const r = await this.at(site, async (h) => (await h.sims.get(station)?.insertTicket(validation)) ?? 'refused');
    // A ticket in escrow at a kill was given back by the power-up that followed; one stacked stays stacked, told or not.
    if (slot.tickets.get(escrowId)?.where !== 'stacker' && i >= 0) this.wallet.push(validation);
    return r;
  }

  /** A table's journal reaches the authority (its sync). */
  sync(site: TableSite): void {
    const h = site.host;
    if (!h) return;
    this.authority.ingest(site.name, [...entriesOfTypes(h.ledger, [...TICKET_ENTRY_TYPES])]);
  }

  /** The faults stop: writes go through, every host stays up. */
  disarm(): void {
    for (const s of this.sites) s.host?.faulty.disarm();
  }

  async close(): Promise<void> {
    for (const s of this.sites) {
      if (!s.host) continue;
      await s.host.acceptors.close();
      s.host.ledger.close();
      s.host = null;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
