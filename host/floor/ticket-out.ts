import type { Logger } from 'pino';
import type { PrintAttempt } from '../../hardware/printer/judge.js';
import { TEMPLATE_IDS } from '../../hardware/printer/template.js';
import type { PrintOutcome, TicketPrinter } from '../../hardware/printer/types.js';
import type { NewEntry } from '../../ledger/index.js';
import type { Ledger } from '../../ledger/ledger.js';
import { ticketOutTxId } from '../../ledger/ticket-postings.js';
import { lastMachineTicket, lastTicketIssued, ticketsInPrint, type IssuedTicket } from '../../ledger/ticket-queries.js';
import type { TicketTerms } from '../../terms/ticket-terms.js';
import { SEQUENCE_MAX, validationNumber, type ValidationNumber } from '../../terms/validation-number.js';
import type { CashoutState, HandpayWhy } from '../../protocol/index.js';
import type { TableConfig } from '../config/table-config.js';
import { tiltDetailSaid } from '../../locales/said.js';
import { serviceSaid, type Said } from '../config/refusal-words.js';
import type { TicketAuthority } from '../tickets/authority.js';
import { clockRefusal, type FloorClock } from '../tickets/floor-clock.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import type { SystemValidations } from '../devices/sas-system-validation.js';
import { settledByOf, settleRefusal, ticketFaultDetail, ticketFaultSaid } from './ticket-fault.js';
import { TicketMachineId } from './ticket-machine-id.js';

import { ticketExpiresAt, ticketPaper } from './ticket-paper.js';
import { printerWhyNot } from './ticket-printer-ready.js';

export interface TicketOutDeps {
  config: TableConfig;
  ledger: Ledger;
  log: Logger;
  /** The station's printer, if it has one. */
  printerAt: (station: number) => TicketPrinter | undefined;
  /** Told of each ticket as soon as it is journalled (a fast path: the synced journal reaches it anyway). */
  authority?: TicketAuthority;
  /**
   * Where a ticket held for a person (`ticket-held`, cleared when it ends) and a printer's late
   * verdict that differs from a person's settlement (`ticket-late-verdict`) become journalled faults.
   */
  faults: Pick<TiltManager, 'raise' | 'conditionGone' | 'list'>;
  now: () => Date;
  /** A station's credit or lock changed: its screen must be told. */
  onChanged: (station: number) => void;
  /** SAS system validation: the stations whose ticket numbers the casino's system gives (docs/sas.md). */
  system?: SystemValidations;
  /** The upstream's time as the table heard it: no ticket on a clock it contradicts (docs/tito.md, "The table's clock"). */
  clock?: Pick<FloorClock, 'verdict'>;
}

/** A ticket the printer could not judge, waiting for a person (service mode's Tickets page). */
export interface HeldTicket {
  station: number;
  /** The validation number's last four digits: the whole number never leaves the host for a screen. */
  last4: string;
  amount: number;
  /** When it was issued. */
  since: string;
}

/** A person's settlement of a held ticket: `void` (not printed, the credit back) or `printed` (handed over). */
export type HandSettlement = 'void' | 'printed';

export type HandSettled = { ok: true; station: number; last4: string; amount: number; outcome: HandSettlement } | { ok: false; detail: string; say: Said };

/** Why a cash-out did not print a ticket and goes to an attendant instead (the handpay fallback). */
export type NoTicket = HandpayWhy | 'no-printer';

export type TicketOutcome =
  | { kind: 'printed'; validation: TicketTerms['validation']; amount: number }
  /**
   * Nothing was journalled: the credit is on the meter as it was. `requestId`: the casino system was
   * asked first for `held` (its handpay goes under `validationTxId(requestId, 'handpay')`, for that amount).
   */
  | { kind: 'no-ticket'; reason: NoTicket; requestId?: string; held?: number }
  /** Journalled, then not printed (from the printer's own status): the credit went back. */
  | { kind: 'voided'; validation: TicketTerms['validation']; amount: number; reason: string }
  /** The printer could not say: the ticket stays in print, the station locked, until the printer or a person settles it. */
  | { kind: 'unresolved'; validation: TicketTerms['validation']; amount: number; reason: string };

/** The handpay a system-validated cash-out owes: its request, the amount the request told the casino system, why no ticket. */
export interface OwedHandpay {
  requestId: string;
  held: number;
  why: NoTicket;
}

/** A cash-out's number: the table's own, or the casino system's (its request named); or why none (`requestId`: the system was asked). */
type Numbered =
  | { ok: true; machineId: number; sequence: number }
  | { ok: true; sequence: number; system: { validation: ValidationNumber; systemId: number; requestId: string } }
  | { ok: false; reason: NoTicket; requestId?: string };

/** A person's word on a held ticket, as `end` takes it beside the printer's. */
type PersonVerdict = { kind: 'printed' } | { kind: 'void'; reason: string };

/**
 * Cash-out to a ticket (issue 47, docs/tito.md). The station's whole credit leaves the meter by a
 * `ticket.issue` journalled in the printer driver's `onSend`, that is after the printer was found
 * ready and before the print command is written; the ticket ends `ticket.printed` or
 * `ticket.void` (credit back) from the printer's own status, and the ledger takes one end only.
 * A print the printer cannot judge (a link lost mid-ticket, a power cut) stays in print and locks
 * the station; the printer is asked again when it is back, and at every start.
 */
export class TicketOut {
  /** Tickets journalled and not ended, by station: each locks its station. */
  private readonly inPrint = new Map<number, IssuedTicket>();
  private nextSequence: number | null = null;
  /** Stations whose printer is working on a ticket now (a print, or a question after a restart): no person settles it meanwhile. */
  private readonly working = new Set<number>();
  /**
   * Stations whose printer's link came up while a question about their ticket was out: one that then
   * times out is asked again (the printer answers only once settleMs idle into its session).
   */
  private readonly linkUpWhileAsked = new Set<number>();
  /** Stations whose cash-out is under way and not yet journalled (its amount): each is held as a ticket in print is. */
  private readonly cashing = new Map<number, number>();
  /** Each station's last ticket, for its screen (`CashoutState.ticket`). */
  private readonly last = new Map<number, NonNullable<CashoutState['ticket']>>();
  /**
   * Stations whose cash-out asked the casino system, got no ticket, and whose handpay the journal
   * refused: the restart rule owes that request its handpay (docs/sas.md), so this run holds the
   * credit for it as a restart would, until the handpay is journalled (the player's next cash-out).
   */
  private readonly owed = new Map<number, OwedHandpay>();

  /**
   * The issue's word to the authority for each ticket in print, settled when answered (or failed):
   * its end's word waits for it. Sent unordered, a printed that overtook its issue was refused as an
   * unknown ticket, which stayed issued, refused at every table, until the journal synced (a review
   * of 4 December). Held only while the ticket is in print in this run.
   */
  private readonly issueTold = new Map<string, Promise<void>>();
  /** The id the upstream holds for this table, once it has said (null: not yet, or no upstream). */
  /** The id the table numbers its tickets under, when the upstream is the authority. */
  private readonly ids: TicketMachineId;

  constructor(private readonly deps: TicketOutDeps) {
    this.ids = new TicketMachineId(deps);
  }

  /** At start: the tickets a kill left in print, asked about once their printers answer. */
  async recover(): Promise<void> {
    for (const t of ticketsInPrint(this.deps.ledger)) {
      this.inPrint.set(t.terms.station, t);
      // Its issue's word may have died with the last run: told again, so that its end's word (printed) finds the ticket registered.
      this.issueTold.set(
        t.terms.validation,
        this.tell('issue', () => this.deps.authority?.registerIssue(t.terms)),
      );
      this.last.set(t.terms.station, { state: 'printing', amount: t.terms.amount, validation: t.terms.validation, at: this.deps.now().getTime() });
    }
    // A ticket ended just before a kill, its `ticket-held` clear not yet journalled: nothing is held there.
    for (const f of this.deps.faults.list())
      if (f.kind === 'ticket-held' && f.station !== undefined && !this.inPrint.has(f.station))
        this.deps.faults.conditionGone('ticket-held', f.station, tiltDetailSaid('ticketHeldEnded'));
    await Promise.all([...this.inPrint.values()].map((t) => this.settle(t)));
  }

  /** The station's screen told; its throw changes nothing the journal holds (a review of 6 December: after an issue, no print and a handpay). */
  private changed(station: number): void {
    try {
      this.deps.onChanged(station);
    } catch (err) {
      this.deps.log.error({ err, station }, "ticket: a station's screen could not be told of a change");
    }
  }

  /** SAS system validation: the stations the casino's system numbers tickets for, and their 0x57/0x58 sides (host/start/sas-links.ts). */
  get system(): SystemValidations | undefined {
    return this.deps.system;
  }

  lastAt(station: number): CashoutState['ticket'] {
    return this.last.get(station) ?? null;
  }

  creditOf(station: number): number {
    return this.deps.ledger.credit(station);
  }

  isPrinting(station: number): boolean {
    return this.inPrint.has(station);
  }

  /** The ticket a station waits on, if any (its screen shows it; service mode lists it). */
  pendingAt(station: number): IssuedTicket | null {
    return this.inPrint.get(station) ?? null;
  }

  /**
   * Why the station's credit is held by a ticket now, or null: one in print, a cash-out waiting for
   * the casino system's number, or one under way between its start and its `ticket.issue`. Every
   * path that moves the station's credit out asks it: bets, cash-outs, AFT out, `move-credit`,
   * `leave-table` (StationGates.refuse, host/start/sas-links.ts); and the AFT game lock, which is
   * not taken meanwhile (host/devices/sas-aft-lock.ts `creditMoving`).
   */
  holdAt(station: number): string | null {
    const t = this.inPrint.get(station);
    if (t) return `station ${station} is locked until ticket ${t.terms.validation} is printed or voided`;
    if (this.owed.has(station)) return `station ${station} is locked until the handpay its cash-out owes is journalled (the journal refused it)`;
    const w = this.deps.system?.waitingAt(station);
    if (w) return `station ${station} is locked while its cash-out of ${w.amount} waits for the casino system's validation number`;
    const cashing = this.cashing.get(station);
    return cashing === undefined ? null : `station ${station} is locked while its cash-out of ${cashing} is issued`;
  }

  /** The system-validated cash-out whose handpay the journal refused at `station`, if any: the next cash-out there journals it. */
  owedAt(station: number): OwedHandpay | null {
    return this.owed.get(station) ?? null;
  }

  /**
   * The handpay of a cash-out that asked the casino system (`requestId`) was refused by the
   * journal: the station is held for it, and its screen told (it no longer waits for the system).
   * `null`: its handpay is journalled now, the hold is the pending handpay's.
   */
  owe(station: number, owed: OwedHandpay | null): void {
    if (owed) this.owed.set(station, owed);
    else this.owed.delete(station);
    this.changed(station);
  }

  /** Whether the station has a ticket printer (its screen offers the ticket and, on request, a handpay). */
  hasPrinter(station: number): boolean {
    return this.deps.printerAt(station) !== undefined;
  }

  /** Why no ticket may be dated by this host's clock now (it is far from the upstream's, or from any sane date), or null. */
  clockRefusal(): string | null {
    return clockRefusal(this.deps.clock);
  }

  /** Whether a cash-out of `amount` at `station` can be a ticket now; why not otherwise. */
  whyNot(station: number, amount: number): NoTicket | null {
    const printer = this.deps.printerAt(station);
    if (!printer) return 'no-printer';
    if (amount > this.deps.config.tickets.limit) return 'over-ticket-limit';
    if (this.deps.system?.at(station)) return printerWhyNot(printer);
    if (this.deps.config.tickets.machineId === undefined && !this.deps.authority && !lastMachineTicket(this.deps.ledger)) return 'no-machine-id';
    if (this.deps.config.tickets.authority === 'sas' && !this.deps.authority) return 'no-machine-id';
    return printerWhyNot(printer);
  }

  /**
   * Prints a ticket for the station's whole credit. Refusals that leave the credit where it was
   * come back as `no-ticket` (the caller falls back to a handpay); once journalled, the outcome is
   * the printer's.
   */
  async cashOut(station: number): Promise<TicketOutcome> {
    if (this.holdAt(station)) return { kind: 'no-ticket', reason: 'printer-not-ready' };
    const amount = this.deps.ledger.credit(station);
    const why = this.whyNot(station, amount);
    if (why) return { kind: 'no-ticket', reason: why };
    // Held from here until the ticket is journalled (then `inPrint` holds it) or the cash-out gives
    // up: the system's wait, the window after its number, the printer's answer (docs/sas.md).
    this.cashing.set(station, amount);
    try {
      return await this.issue(station, amount);
    } finally {
      this.cashing.delete(station);
    }
  }

  /** The ticket of `amount` (the station's credit, held meanwhile): numbered, journalled, printed. */
  private async issue(station: number, amount: number): Promise<TicketOutcome> {
    const numbered: Numbered = this.deps.system?.at(station) ? await this.systemNumber(station, amount) : await this.number();
    const printer = this.deps.printerAt(station);
    const requestId = numbered.ok ? ('system' in numbered ? numbered.system.requestId : undefined) : numbered.requestId;
    const asked = requestId === undefined ? {} : { requestId, held: amount };
    if (!printer || !numbered.ok) return { kind: 'no-ticket', reason: numbered.ok ? 'no-printer' : numbered.reason, ...asked };
    // Checked where the ticket is dated, whoever asked: the gate's check came before the number's wait, whose answer may say this clock is wrong.
    if (this.clockRefusal()) return { kind: 'no-ticket', reason: 'table-clock', ...asked };
    const now = this.deps.now();
    const issued = {
      sequence: numbered.sequence,
      station,
      amount,
      currency: this.deps.config.currency,
      issuedAt: now.toISOString(),
      expiresAt: ticketExpiresAt(now, this.deps.config.tickets.expiryDays).toISOString(),
    };
    const terms: TicketTerms =
      'system' in numbered
        ? { validation: numbered.system.validation, systemId: numbered.system.systemId, requestId: numbered.system.requestId, ...issued }
        : { validation: validationNumber(numbered.machineId, numbered.sequence), machineId: numbered.machineId, ...issued };
    let journalled = false;
    this.working.add(station);
    this.linkUpWhileAsked.delete(station);
    const out = await printer
      .print({
        ticket: ticketPaper(terms, this.deps.config.tableId),
        onSend: (attempt) => {
          this.journalIssue(terms, attempt);
          journalled = true;
        },
      })
      .finally(() => this.working.delete(station));
    // What the journal holds: a throw after the entry (the driver reads any as not journalled) leaves a ticket to end.
    journalled ||= this.deps.ledger.byTxId(ticketOutTxId(terms.validation, 'issue')) !== undefined;
    if (!journalled)
      return { kind: 'no-ticket', reason: out.outcome === 'not-printed' && out.reason === 'not-ready' ? 'printer-not-ready' : 'not-printed', ...asked };
    // Its link lost mid-ticket and back too late for the print's answer: asked as a ticket left in print is.
    const held = this.inPrint.get(station);
    if (held && this.askAgain(terms, out)) return this.settle(held, true);
    return this.endOrHold({ seq: 0, terms }, out);
  }

  /**
   * The ticket stays in print, held for a person: the station told, and the floor too (`ticket-held`
   * at the station, its last four digits: the whole number never leaves the host for a screen).
   */
  private unresolved(terms: Pick<TicketTerms, 'station' | 'amount' | 'validation'>): void {
    const { station, amount, validation } = terms;
    this.last.set(station, { state: 'unresolved', amount, validation, at: this.deps.now().getTime() });
    this.changed(station);
    this.deps.faults.raise('ticket-held', { station, say: tiltDetailSaid('ticketHeld', { lastDigits: validation.slice(-4) }) });
  }

  private heldGone(station: number): void {
    this.deps.faults.conditionGone('ticket-held', station);
  }

  /** Asks a printer again about a ticket left in print (it reconnected; a person asked). */
  async settle(t: IssuedTicket, again = false): Promise<TicketOutcome> {
    const printer = this.deps.printerAt(t.terms.station);
    const template = TEMPLATE_IDS.find((id) => id === t.print?.template);
    if (!printer || !t.print || !template) {
      // No command was ever sent for it (a kill between the entry and the bytes cannot happen: the
      // entry is written in onSend, just before them), or the printer is gone from the configuration:
      // no printer can answer, so the ticket waits for a person.
      this.unresolved(t.terms);
      return { kind: 'unresolved', validation: t.terms.validation, amount: t.terms.amount, reason: printer ? 'no-attempt' : 'no-printer' };
    }
    const attempt: PrintAttempt = { validationNumber: t.terms.validation, template, before: t.print.before };
    const station = t.terms.station;
    this.working.add(station);
    this.linkUpWhileAsked.delete(station);
    const out = await printer.resolve(attempt).finally(() => this.working.delete(station));
    // Its link came up too late for this question (a review: it timed out, and the driver's start
    // reset then wiped what the printer could say): asked again, before the driver's loop goes on.
    // Once: a printer whose link flaps at every question has its ticket held for a person meanwhile (its next link up asks again).
    if (!again && this.askAgain(t.terms, out)) return this.settle(t, true);
    return this.endOrHold(t, out);
  }

  /** The printer's link came up while it was asked, and it could not answer in time (timed out, or lost its link again): to ask again. */
  private askAgain(terms: Pick<TicketTerms, 'station' | 'validation'>, out: PrintOutcome): boolean {
    const noAnswer = out.outcome === 'unknown' && (out.reason === 'timeout' || out.reason === 'link-lost');
    return this.linkUpWhileAsked.delete(terms.station) && noAnswer && this.inPrint.get(terms.station)?.terms.validation === terms.validation;
  }

  /**
   * The printer's verdict journalled; refused by the journal (a full disk), the ticket stays in
   * print and the station is told it is unresolved, held for a person (the service page's held
   * tickets) or a restart's question to the printer: never "printing" for good.
   */
  private endOrHold(t: IssuedTicket, out: PrintOutcome): TicketOutcome {
    try {
      return this.end(t, out);
    } catch (err) {
      const { validation, station, amount } = t.terms;
      // Only the journal's refusal holds the ticket: a throw after its end was journalled is no such thing.
      if (this.deps.ledger.byTxId(ticketOutTxId(validation, 'end'))) throw err;
      this.unresolved(t.terms);
      this.deps.log.error({ err, station, validation }, "ticket: the journal refused the printer's verdict; the ticket stays in print, held for a person");
      return { kind: 'unresolved', validation, amount, reason: 'not-journalled' };
    }
  }

  /**
   * A station's printer connected (or came back): its ticket in print that nobody is asking about
   * (the start's question timed out before the printer answered, or the link went mid-ticket) is
   * asked about again, before the printer's layout is defined (the driver answers questions first:
   * the layout's CLEAR must not touch the evidence). Without it the ticket waited for a person.
   */
  printerBack(station: number): void {
    const t = this.inPrint.get(station);
    if (t && this.working.has(station)) this.linkUpWhileAsked.add(station);
    if (!t || this.working.has(station)) return;
    this.settle(t).catch((err: unknown) => this.deps.log.error({ err, station }, 'ticket: a ticket in print could not be asked about again'));
  }

  /** The tickets in print that no printer is working on now: held for a person. */
  held(): HeldTicket[] {
    return [...this.inPrint.values()]
      .filter((t) => !this.working.has(t.terms.station))
      .map((t) => ({ station: t.terms.station, last4: t.terms.validation.slice(-4), amount: t.terms.amount, since: t.terms.issuedAt }));
  }

  /**
   * A person settles the ticket held at a station (named by its last four digits, as the page
   * shows it): `void`, the ticket did not come out whole, the credit goes back to the station's
   * meter (GLI-11 v3.0, vouchers: a voucher that fails to print is rolled back, its credit
   * restored); `printed`, it came out whole and was handed to the player, now paper the floor owes.
   * Journalled (`ticket.void` / `ticket.printed` with `settledBy`) before it is answered; a ticket
   * the printer is still working on, another than the one named, or one ended already is refused.
   */
  settleByHand(
    station: number,
    last4: string,
    outcome: HandSettlement,
    settledBy: readonly string[],
    record?: (settled: { last4: string; amount: number }) => NewEntry,
  ): HandSettled {
    const t = this.inPrint.get(station);
    if (!t) return settleRefusal(serviceSaid('ticketNoneInPrint', { station }));
    const shown = t.terms.validation.slice(-4);
    if (shown !== last4) return settleRefusal(serviceSaid('ticketNotThatOne', { station, shown, asked: last4.slice(0, 4) }));
    if (this.working.has(station)) return settleRefusal(serviceSaid('ticketPrinterWorking', { station, shown }));
    const by = settledBy.map((n) => n.slice(0, 80)).slice(0, 2);
    if (by.length === 0) return settleRefusal(serviceSaid('ticketNoSettler'));
    // Service mode's record of who settled it goes in the end's transaction: both or neither.
    const also = record ? [record({ last4: shown, amount: t.terms.amount })] : [];
    const r = this.end(t, outcome === 'printed' ? { kind: 'printed' } : { kind: 'void', reason: 'settled by hand: not printed' }, by, also);
    if (r.kind !== (outcome === 'printed' ? 'printed' : 'voided')) return settleRefusal(serviceSaid('ticketEndedAlready', { shown }));
    return { ok: true, station, last4: shown, amount: t.terms.amount, outcome };
  }

  private journalIssue(terms: TicketTerms, attempt: PrintAttempt): void {
    this.deps.ledger.append({
      type: 'ticket.issue',
      payload: {
        ...terms,
        ...(this.deps.config.tickets.authority === 'sas' ? { authority: 'sas' as const } : {}),
        print: { template: attempt.template, before: attempt.before },
      },
      txId: ticketOutTxId(terms.validation, 'issue'),
    });
    this.inPrint.set(terms.station, { seq: 0, terms, print: { template: attempt.template, before: attempt.before } });
    this.last.set(terms.station, { state: 'printing', amount: terms.amount, validation: terms.validation, at: this.deps.now().getTime() });
    this.deps.log.info({ station: terms.station, amount: terms.amount, validation: terms.validation }, 'cash-out: ticket issued, printing');
    this.changed(terms.station);
    this.issueTold.set(
      terms.validation,
      this.tell('issue', () => this.deps.authority?.registerIssue(terms)),
    );
  }

  private end(t: IssuedTicket, out: PrintOutcome | PersonVerdict, settledBy?: readonly string[], also: readonly NewEntry[] = []): TicketOutcome {
    const { validation, station, amount } = t.terms;
    // Ended already (a person settled it while the printer was asked): the journal's end stands, never a second one.
    const ended = this.deps.ledger.byTxId(ticketOutTxId(validation, 'end'));
    if (ended) {
      if (this.inPrint.get(station)?.terms.validation === validation) this.inPrint.delete(station);
      if (!this.inPrint.has(station)) this.heldGone(station);
      const was = ended.type === 'ticket.printed';
      if (!('outcome' in out && out.outcome === 'unknown') && was !== ('kind' in out ? out.kind === 'printed' : out.outcome === 'printed'))
        this.disagreement(t, { printed: was, body: ended.body }, 'outcome' in out ? out : { outcome: out.kind === 'printed' ? 'printed' : 'not-printed' });
      return was ? { kind: 'printed', validation, amount } : { kind: 'voided', validation, amount, reason: 'ended already' };
    }
    if ('outcome' in out && out.outcome === 'unknown') {
      this.unresolved(t.terms);
      this.deps.log.warn({ station, validation, reason: out.reason }, 'ticket: the printer cannot say whether it printed; the station waits');
      return { kind: 'unresolved', validation, amount, reason: out.reason };
    }
    const printed = 'kind' in out ? out.kind === 'printed' : out.outcome === 'printed';
    const why = 'kind' in out ? (out.kind === 'void' ? out.reason : '') : out.outcome === 'not-printed' ? out.reason : '';
    const reason = 'kind' in out ? why : `not printed: ${why}`;
    const who = settledBy ? { settledBy: [...settledBy] } : {};
    this.deps.ledger.appendMany([
      printed
        ? { type: 'ticket.printed', payload: { validation, station, ...who }, txId: ticketOutTxId(validation, 'end') }
        : { type: 'ticket.void', payload: { validation, station, reason, ...who }, txId: ticketOutTxId(validation, 'end') },
      ...also,
    ]);
    this.inPrint.delete(station);
    this.heldGone(station);
    this.last.set(station, { state: printed ? 'printed' : 'voided', amount, validation, at: this.deps.now().getTime() });
    this.changed(station);
    const at = { validation, station };
    // After the issue's word, answered or not: a printed that overtook it was refused as an unknown ticket.
    const issued = this.issueTold.get(validation);
    this.issueTold.delete(validation);
    void (async () => {
      await issued;
      await this.tell(printed ? 'printed' : 'void', () => (printed ? this.deps.authority?.registerPrinted(at) : this.deps.authority?.registerVoid(at)));
    })();
    this.deps.log.info({ station, validation, amount, settledBy }, printed ? 'ticket printed' : 'ticket not printed: credit given back');
    return printed ? { kind: 'printed', validation, amount } : { kind: 'voided', validation, amount, reason: why };
  }

  /**
   * The printer's verdict came after a person's settlement and differs from it. The journal's end
   * stands (one end per ticket), so nothing moves by itself; but settled printed and never printed,
   * the player may have lost that credit, and settled void and printed, paper is out that will
   * never be paid. Journalled as a fault at the station (`ticket-late-verdict`, `tilt.raise`) that
   * a person works and clears; the detail names the ticket by its last four digits only.
   */
  private disagreement(
    t: IssuedTicket,
    ended: { printed: boolean; body: string },
    out: { outcome: 'printed' } | { outcome: 'not-printed'; reason?: string },
  ): void {
    const { validation, station, amount } = t.terms;
    const who = settledByOf(ended.body);
    const reason = 'reason' in out && out.reason ? { reason: out.reason } : {};
    const f = { last4: validation.slice(-4), amount, settled: ended.printed ? 'printed' : 'void', by: who, printer: out.outcome, ...reason } as const;
    const detail = ticketFaultDetail(f);
    this.deps.log.error(
      { station, validation, detail },
      'ticket: a late verdict differs from the settlement journalled; the journal stands, a fault is raised',
    );
    this.deps.faults.raise('ticket-late-verdict', { station, say: ticketFaultSaid(f, t.terms.currency) });
  }

  /**
   * The machine id and the next sequence: the journal's last ticket, else the configuration's or
   * the authority's id. Validated by the casino's system (`tickets.authority: sas`), always the id
   * its long poll 0x4C gave: a number under an id the upstream assigned would be known to both
   * systems, and both could pay it (docs/sas.md, "Tickets through SAS").
   */
  private async number(): Promise<{ ok: true; machineId: number; sequence: number } | { ok: false; reason: NoTicket }> {
    const sas = this.deps.config.tickets.authority === 'sas';
    let machineId = sas ? undefined : await this.ids.forCashOut();
    if (sas && this.deps.authority) {
      const r = await this.deps.authority.machineId();
      if (r.ok) machineId = r.machineId;
    }
    if (machineId === undefined) return { ok: false, reason: 'no-machine-id' };
    const sequence = this.reserveSequence();
    if (sequence === null) return { ok: false, reason: 'numbers-used-up' };
    return { ok: true, machineId, sequence };
  }

  /** The id the next ticket not validated by SAS is numbered under, as far as the table knows now (service mode's Tickets page). */
  numberingId(): number | null {
    return this.ids.now();
  }

  /**
   * SAS system validation: the casino's system gives the number (exception 57, long polls
   * 0x57/0x58; host/devices/sas-system-validation.ts journals the wait and its end). A denial, no
   * answer in time, or no link is no ticket: the caller's handpay.
   */
  private async systemNumber(
    station: number,
    amount: number,
  ): Promise<
    | { ok: true; sequence: number; system: { validation: ValidationNumber; systemId: number; requestId: string } }
    | { ok: false; reason: NoTicket; requestId?: string }
  > {
    const system = this.deps.system;
    if (!system) return { ok: false, reason: 'no-machine-id' };
    // The wait is set as `ask` returns: the screen is told then (it shows the wait), and again at its end.
    const asking = system.ask(station, amount);
    this.changed(station);
    const n = await asking;
    this.changed(station);
    if (n.kind !== 'number') {
      this.deps.log.warn({ station, amount, outcome: n.kind }, 'cash-out: the casino system gave no validation number; a handpay instead');
      return { ok: false, reason: 'no-system-number', ...(n.kind === 'unavailable' ? {} : { requestId: n.requestId }) };
    }
    const sequence = this.reserveSequence();
    if (sequence === null) return { ok: false, reason: 'numbers-used-up', requestId: n.requestId };
    return { ok: true, sequence, system: { validation: n.validation, systemId: n.systemId, requestId: n.requestId } };
  }

  /** The next sequence, reserved now, journalled or not: two stations cashing out at once never share one (a number skipped is harmless). */
  private reserveSequence(): number | null {
    const sequence = Math.max(this.nextSequence ?? 1, (lastTicketIssued(this.deps.ledger)?.terms.sequence ?? 0) + 1);
    if (sequence > SEQUENCE_MAX) return null;
    this.nextSequence = sequence + 1;
    return sequence;
  }

  private async tell(what: string, call: () => Promise<unknown> | undefined): Promise<void> {
    try {
      await call();
    } catch (err) {
      this.deps.log.warn({ err, what }, 'ticket: the validation authority was not told now (the synced journal will tell it)');
    }
  }
}
