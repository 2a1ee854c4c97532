import { Emitter } from '../../hardware/clock.js';
import type { EscrowDecision, EscrowedTicket } from '../../hardware/billacceptor/types.js';
import type { NewEntry } from '../../ledger/index.js';
import { ticketInTxId, ticketStackedTxId } from '../../ledger/ticket-postings.js';
import {
  acceptorMovedOnSince,
  lastTicketInEnd,
  ownTicket,
  ticketInEnded,
  ticketInEscrow,
  ticketInOpen,
  ticketsInOpen,
  type OpenTicketIn,
  type TicketInEscrow,
} from '../../ledger/ticket-queries.js';
import { AnyTicketNumber, RequestId, TicketNumber, type TICKET_RETURNS } from '../../terms/ticket-terms.js';
import type { ValidationNumber } from '../../terms/validation-number.js';

type TicketReturn = (typeof TICKET_RETURNS)[number];
// The ledger's reasons and the screens' are one list: a reason one adds is a compile error here until the other has it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameReasons: Same<TicketReturn, TicketReturnReason> = true;
void _sameReasons;
import type { TicketReturnReason } from '../../protocol/index.js';
import { inEnglish, serviceSaid, type Said } from '../config/refusal-words.js';
import { clearRemovedClosings } from './ticket-in-removed.js';
import { creditRoom, passesCreditLimit } from './credit-rule/credit-limit.js';

export type { HeldTicketIn, TicketInDeps, TicketInFaults, TicketInSettled, TicketInSettlement, TicketInState } from './ticket-in-types.js';
import type { TicketInDeps, HeldTicketIn, TicketInSettled, TicketInSettlement, TicketInState } from './ticket-in-types.js';

/**
 * Ticket in at a station's acceptor (issue 47 item 3, docs/tito.md). The ticket waits in escrow
 * while the validation authority is asked: `ticket.redeem.request` is journalled before the
 * question, `ticket.redeem.approved` before the acceptor is told to stack, and the station is
 * credited only by `ticket.redeem.stacked`, at the acceptor's credit point, once per ticket at
 * this table. Anything else returns the ticket (`ticket.redeem.returned`, the reason told to the
 * player), and the authority is told so it never stays pending. An acceptor that leaves an
 * approved ticket without either (a protocol broken after STACK, a jam) leaves it to a person, who
 * says whether it is in the cashbox (`held`, `settleByHand`).
 */
export class TicketIn {
  private readonly last = new Map<number, TicketInState>();
  private readonly changes = new Emitter<number>();
  /**
   * Approved attempts an acceptor still has (STACK sent, or handed to the driver at a start): its
   * word ends them. An approved attempt with no end that is not here is held for a person.
   */
  private readonly working = new Set<string>();
  /**
   * Attempts an acceptor left without an end (this run): never handed to a driver again. Each is
   * forgotten when its end is journalled (`credited`, `returned`, the only ways one ends): an ended
   * attempt is never read as open again, so nothing asks of it, and the set holds at most the
   * attempts still open (those held for a person) rather than one per ticket left since the start.
   */
  private readonly left = new Set<string>();
  /**
   * Stations whose ticket in is closed: the journal refused the end of an attempt there that was
   * never approved (a full disk), so the station takes no ticket until that end is journalled
   * (`reopenIfOwedNone`): each new ticket there goes back unasked, and nothing is held pending.
   */
  private readonly closed = new Set<number>();
  /**
   * The cancels sent this run for attempts whose end the journal refused: true once the authority
   * took one. Sent once a run (a start sends it once more), not at each new ticket while the
   * journal refuses; at the end's journalling again only if none was taken.
   */
  private readonly cancelled = new Map<string, boolean>();
  /** Unsubscribes the retry of the owed ends at the journal's next commit; set while a station is closed. */
  private stopRetrying: (() => void) | null = null;
  /** Ending attempts already (a start, a new ticket, a retry): a commit meanwhile does not retry the owed ends within it. */
  private ending = false;

  constructor(private readonly deps: TicketInDeps) {}

  /** A station's ticket state changed: its screen must be told. */
  onChange(listener: (station: number) => void): () => void {
    return this.changes.on(listener);
  }

  lastAt(station: number): TicketInState | null {
    return this.last.get(station) ?? null;
  }

  /**
   * The ticket a kill left in the station's escrow, for the acceptor's power-up report (stackSent:
   * it was approved); the driver has it from then on. Only the station's newest attempt, and only
   * while the journal shows the acceptor never left it (a note taken, a protocol broken, a jam
   * since): the next report of a unit that left it (a note in its stacker, say) would be read as
   * that ticket's.
   */
  pendingFor(station: number): (EscrowedTicket & { stackSent: boolean }) | null {
    const p = this.stillInAcceptor(station);
    if (!p) return null;
    // No longer held for a person: the station's lists read it again (being stacked).
    if (p.approved && !this.working.has(p.requestId)) {
      this.working.add(p.requestId);
      this.changes.emit(station);
    }
    return { validationNumber: p.validation, escrowId: p.requestId, stackSent: p.approved !== null };
  }

  /**
   * The ticket journalled stacked last at the station, while its acceptor has taken nothing since
   * (no attempt after it, no note escrowed, no protocol broken, no jam): a host stopped between that
   * entry and the acceptor's ACK leaves the unit repeating its credit report to the next driver,
   * which acknowledges it and tells nothing (the driver's `lastTicket`).
   */
  lastStackedFor(station: number): EscrowedTicket | null {
    const ledger = this.deps.ledger;
    const end = lastTicketInEnd(ledger, station);
    if (end?.kind !== 'stacked' || ticketsInOpen(ledger, station).length > 0) return null;
    const entry = ledger.byTxId(ticketStackedTxId(end.validation));
    if (!entry || acceptorMovedOnSince(ledger, station, entry.seq)) return null;
    return { validationNumber: end.validation, escrowId: end.requestId };
  }

  /**
   * At a start, before the acceptors open: every attempt with no end that no acceptor can be asked
   * about (not its station's newest, one its acceptor left since, or any at a station no longer
   * configured). One never approved
   * is ended here, returned `acceptor-fault`: its approval was not journalled, so STACK never went
   * and no money moved. An approved one is held for a person (`held`). Never throws: an end the
   * journal refuses (a full disk at boot) closes its station's ticket in instead (`endRefused`).
   */
  recover(): void {
    this.endingNow(() => {
      // A station the configuration no longer has has no acceptor to report its newest attempt:
      // left like any other, not kept open for a return that may never come (docs/tito.md).
      const configured = new Set(this.deps.config.stations.map((s) => s.station));
      for (const p of ticketsInOpen(this.deps.ledger)) {
        const gone = !configured.has(p.station);
        if (!gone && p.requestId === this.stillInAcceptor(p.station)?.requestId) continue;
        try {
          this.leave(p, gone ? 'restart: its station no longer in the configuration' : 'restart: behind a newer attempt, or left by the acceptor since');
        } catch {
          // A journal that refuses writes at the start (a full disk): `endRefused` closed the station,
          // cancelled the attempt and raised the alarm; the end is journalled at the next commit.
        }
      }
    });
    // A station closed when the host stopped is open at this start unless an end refused just now
    // closed it again: its fault, restored from the journal, goes.
    for (const { station } of this.deps.config.stations) if (!this.closed.has(station)) this.faultGone(station);
    this.fault(() => clearRemovedClosings(this.deps.faults, this.deps.config, (station) => this.closed.has(station)));
  }

  /**
   * The acceptor left a ticket it was told about without saying it stacked or returned: it broke
   * its protocol over it (in dispute until idle: it never reports the ticket stacked after that),
   * or jammed with it. Ended here if it was never approved; held for a person if it was.
   */
  acceptorLeft(station: number, ticket: EscrowedTicket, why: string): void {
    const requestId = RequestId.safeParse(ticket.escrowId);
    const p = requestId.success ? ticketInOpen(this.deps.ledger, requestId.data) : null;
    if (p?.station === station) this.leave(p, why);
  }

  /** The approved attempts with no end that no acceptor has: held for a person, oldest first. */
  /** Whether the attempt `requestId` is approved, has no end and no acceptor has it: held for a person (as `held` lists). */
  isHeld(requestId: string): boolean {
    return !this.working.has(requestId) && ticketInOpen(this.deps.ledger, requestId)?.approved != null;
  }

  held(): HeldTicketIn[] {
    return ticketsInOpen(this.deps.ledger).flatMap((p) =>
      p.approved && !this.working.has(p.requestId)
        ? [{ station: p.station, seq: p.seq, last4: p.validation.slice(-4), amount: p.approved.amount, since: p.approved.at }]
        : [],
    );
  }

  /** A ticket in escrow: journalled, asked, and answered STACK only on the authority's approval. */
  async escrow(station: number, ticket: EscrowedTicket): Promise<EscrowDecision> {
    const requestId = RequestId.safeParse(ticket.escrowId);
    // Validated by the casino's system (`tickets.authority: sas`), a number it gave (SAS system validation) is its to decide too.
    const validation = (this.deps.config.tickets.authority === 'sas' ? AnyTicketNumber : TicketNumber).safeParse(ticket.validationNumber);
    if (!requestId.success || !validation.success) {
      // A barcode of 18 digits that no scheme of ours makes: unknown, without asking anyone.
      this.deps.log.warn({ station, barcode: ticket.validationNumber }, 'ticket in: not a validation number of this floor');
      this.show(station, { state: 'returned', validation: ticket.validationNumber, reason: 'unknown', at: Date.now() });
      return 'return';
    }
    const at: Attempt = { requestId: requestId.data, validation: validation.data, station, ...this.validatedBy() };
    const again = this.askedBefore(at);
    if (again) return again;
    // A station already at its credit limit takes no ticket: the authority is not asked, so the ticket is never held pending.
    if (creditRoom(this.deps.ledger, station, this.deps.config.creditLimit) === 0) {
      this.show(station, { state: 'returned', validation: at.validation, reason: 'credit-limit', at: Date.now() });
      return 'return';
    }
    // A new barcode at the station: its acceptor has left every attempt before it there.
    if (!this.leftBefore(at)) {
      // An end the journal still refuses: the station is closed, the ticket goes back unasked (nothing journalled, nothing pending).
      this.show(station, { state: 'returned', validation: at.validation, reason: 'acceptor-fault', at: Date.now() });
      return 'return';
    }
    this.deps.ledger.append({ type: 'ticket.redeem.request', payload: at, txId: ticketInTxId(at.requestId, 'request') });
    this.show(station, { state: 'checking', validation: at.validation, at: Date.now() });
    const authority = this.deps.authority;
    const answer = authority
      ? await authority.redeem({ ...at, currency: this.deps.config.currency, limit: this.deps.config.tickets.limit })
      : ({ kind: 'refused', requestId: at.requestId, reason: 'offline' } as const);
    // Ended while the authority was asked (the acceptor left it), or its end refused by the journal meanwhile (`endRefused`):
    // an approval now moves nothing (the cancel went with the end, or with its refusal).
    if (ticketInEnded(this.deps.ledger, at.requestId) !== undefined || this.left.has(at.requestId)) return 'return';
    if (answer.kind === 'approved' && answer.currency === this.deps.config.currency) {
      // A ticket this table has credited is paid, whatever the authority says (a lie, a register from
      // an older copy): the journal takes one credit per ticket here, so STACK would take the paper
      // into the cashbox with no credit to follow. Back as paid; the approval cancelled.
      if (this.deps.ledger.byTxId(ticketStackedTxId(at.validation))) {
        this.deps.log.warn({ station, validation: at.validation }, 'ticket in: approved, yet this table credited it already: not believed, returned');
        this.returned(station, at, 'already-paid');
        return 'return';
      }
      // A ticket this table issued is known to its journal: voided here (its credit given back), still in
      // print (its printer may yet say not printed) or for another amount, the approval is not believed, and is cancelled.
      const own = ownTicket(this.deps.ledger, at.validation);
      if (own && (own.end !== 'printed' || own.amount !== answer.amount)) {
        this.deps.log.warn({ station, validation: at.validation, own, approved: answer.amount }, 'ticket in: approved against this table’s journal: returned');
        this.returned(station, at, own.end === 'void' ? 'voided' : own.end === null ? 'unknown' : 'offline');
        return 'return';
      }
      // Its amount known only now: one the station's credit cannot hold goes back, the redemption cancelled (the ticket stays valid).
      if (passesCreditLimit(this.deps.ledger, station, answer.amount, this.deps.config.creditLimit)) {
        this.returned(station, at, 'credit-limit');
        return 'return';
      }
      // Before the entry: a page built when it lands must not list it as held.
      this.working.add(at.requestId);
      try {
        this.deps.ledger.append({
          type: 'ticket.redeem.approved',
          payload: { ...at, amount: answer.amount, currency: answer.currency },
          txId: ticketInTxId(at.requestId, 'approved'),
        });
      } catch (err) {
        this.approvalRefused(station, at);
        throw err;
      }
      return 'stack';
    }
    this.returned(station, at, answer.kind === 'refused' ? answer.reason : 'other-currency');
    return 'return';
  }

  /**
   * The journal refused the approval: STACK never goes (the throw returns the ticket), so nothing
   * can credit it here, yet the authority holds the ticket pending for this attempt. It ends as a
   * start over this journal ends it (`acceptor-fault`, the authority told to cancel): at once if the
   * journal takes the end, else cancelled anyway and its end owed (`endRefused`).
   */
  private approvalRefused(station: number, at: Attempt): void {
    this.working.delete(at.requestId);
    try {
      this.returned(station, at, 'acceptor-fault');
    } catch {
      // Cancelled and left by `endRefused`; the escrow rethrows the approval's refusal.
    }
  }

  /**
   * Ends the station's attempts before `at` (its acceptor left them for it): false when the
   * journal refused an end that closes the station (never approved; `endRefused`).
   */
  private leftBefore(at: Attempt): boolean {
    return this.endingNow(() => {
      for (const p of ticketsInOpen(this.deps.ledger, at.station))
        if (p.requestId !== at.requestId) {
          try {
            this.leave(p, 'a newer ticket in the acceptor');
          } catch (err) {
            if (!this.closed.has(at.station)) throw err;
            return false;
          }
        }
      this.reopenIfOwedNone(at.station); // ended meanwhile by another's retry, say
      return true;
    });
  }

  /**
   * The same escrow asked about again: the ID-003 driver does so when its link was lost between
   * the host's answer and STACK and the unit still holds the ticket after the reconnect. Its
   * attempt is answered from the journal, never asked of the authority twice (the guard refuses a
   * request asked again, `offline`, and the approved ticket would go back): approved and open,
   * STACK on that approval (the authority holds the ticket pending for this attempt); ended, it
   * goes back with the reason it was given. An attempt journalled and not yet answered (its
   * question still out) is asked again as before, and the guard refuses it.
   */
  private askedBefore(at: Attempt): EscrowDecision | null {
    const ledger = this.deps.ledger;
    if (!ledger.byTxId(ticketInTxId(at.requestId, 'request'))) return null;
    const ended = ticketInEnded(ledger, at.requestId);
    if (ended !== undefined) {
      this.show(at.station, { state: 'returned', validation: at.validation, reason: ended?.reason ?? 'offline', at: Date.now() });
      return 'return';
    }
    const open = ticketInEscrow(ledger, at.station);
    if (open?.requestId !== at.requestId || open.validation !== at.validation || !open.approved) return null;
    this.deps.log.info({ station: at.station, validation: at.validation }, 'ticket in: asked again after its approval: stacked on it');
    return 'stack';
  }

  /** The acceptor stacked the ticket it was told to: the station is credited, once, and the authority told. */
  async stacked(station: number, ticket: EscrowedTicket): Promise<void> {
    const pending = ticketInEscrow(this.deps.ledger, station);
    if (!pending || pending.requestId !== ticket.escrowId || !pending.approved) {
      // Stacked without an approval journalled for it: never credited (the ACK is withheld; a fault follows at the acceptor).
      throw new Error(`ticket ${ticket.validationNumber} stacked at station ${station} without an approval journalled for it`);
    }
    const at = attemptOf(pending);
    this.credited(station, at, pending.approved);
    await this.confirmed(at);
  }

  /**
   * The station credited by `ticket.redeem.stacked`. `byHand`: a person settled it (`settledBy`
   * journalled), and the station's screen says so only if that ticket is the one it shows.
   */
  private credited(
    station: number,
    at: Attempt,
    approved: { amount: number; currency: string },
    byHand?: { settledBy: string[] },
    also: readonly NewEntry[] = [],
  ): void {
    this.deps.ledger.appendMany([
      {
        type: 'ticket.redeem.stacked',
        payload: { ...at, amount: approved.amount, currency: approved.currency, ...byHand },
        txId: ticketStackedTxId(at.validation),
      },
      ...also,
    ]);
    this.working.delete(at.requestId);
    this.left.delete(at.requestId);
    this.showEnd(station, { state: 'credited', validation: at.validation, amount: approved.amount, at: Date.now() }, !byHand);
    this.deps.log.info({ station, validation: at.validation, amount: approved.amount, ...byHand }, 'ticket in: stacked and credited');
  }

  /** The authority told of a credit journalled. */
  private async confirmed(at: Attempt): Promise<void> {
    const ack = await this.deps.authority?.confirm(at.requestId, at);
    if (ack && !ack.ok)
      this.deps.log.warn(
        { station: at.station, validation: at.validation, detail: ack.detail },
        'ticket in: the authority was not told now (the synced journal tells it)',
      );
  }

  /** The acceptor gave back a ticket the host was asked about (after an approval: it did not stack). */
  deviceReturned(station: number, ticket: EscrowedTicket, reason: 'host' | 'escrow-timeout' | 'power-up' | 'device'): void {
    if (reason === 'host') return; // the host's own return: journalled when it answered, or its refusal handled there (endRefused)
    const pending = ticketInEscrow(this.deps.ledger, station);
    if (!pending || pending.requestId !== ticket.escrowId) return;
    this.returned(station, attemptOf(pending), reason === 'device' ? 'acceptor-returned' : 'acceptor-fault');
  }

  /**
   * The attempt ended returned, then the authority told. `decided`: not on the acceptor's word but
   * the host's (the acceptor left it) or a person's (`settledBy` journalled); the station's screen
   * then says it only if that ticket is the one it shows.
   */
  private returned(station: number, at: Attempt, reason: TicketReturn, decided?: { settledBy?: string[] }, also: readonly NewEntry[] = []): void {
    try {
      this.deps.ledger.appendMany([
        { type: 'ticket.redeem.returned', payload: { ...at, reason, ...decided }, txId: ticketInTxId(at.requestId, 'end') },
        ...also,
      ]);
    } catch (err) {
      this.endRefused(at, reason);
      throw err;
    }
    this.working.delete(at.requestId);
    this.left.delete(at.requestId);
    this.showEnd(station, { state: 'returned', validation: at.validation, reason, at: Date.now() }, !decided);
    this.deps.log.info({ station, validation: at.validation, reason, ...decided }, 'ticket in: returned');
    // Its cancel went when its end was refused and the authority took it: not sent again (the synced end says it too).
    const taken = this.cancelled.get(at.requestId) === true;
    this.cancelled.delete(at.requestId);
    if (!taken) void this.deps.authority?.cancel(at.requestId, reason === 'credit-limit' ? { ...at, why: reason } : at);
    this.reopenIfOwedNone(station);
  }

  /**
   * The journal refused an attempt's end: the attempt stays open in it, and is now what a start
   * over that journal makes of it. Never handed to a driver again this run (`left`). With no
   * approval journalled, STACK never went and nothing can credit it here: the authority is told
   * to cancel (once a run), so the player's ticket is good at another table at once, and the
   * station's ticket in is closed until its end is journalled (`close`: at the journal's next
   * commit, or the station's next ticket; a start hands it to the driver, which may only return
   * it). With an approval journalled, only a person may end it (a cancel now, then a person finding
   * it stacked, would pay it twice): held for one now.
   */
  private endRefused(at: Attempt, reason: TicketReturn): void {
    this.working.delete(at.requestId);
    this.left.add(at.requestId);
    this.changes.emit(at.station);
    if (this.deps.ledger.byTxId(ticketInTxId(at.requestId, 'approved'))) {
      this.deps.log.error({ station: at.station, validation: at.validation, reason }, 'ticket in: its end refused by the journal: held for a person');
      return;
    }
    this.close(at.station, at.validation);
    if (this.cancelled.has(at.requestId)) return; // sent this run already: once a run, not once a ticket
    this.cancelled.set(at.requestId, false);
    const cancel = this.deps.authority?.cancel(at.requestId, reason === 'credit-limit' ? { ...at, why: reason } : at);
    void cancel?.then(
      (ack) => {
        if (ack.ok && this.cancelled.has(at.requestId)) this.cancelled.set(at.requestId, true);
      },
      () => undefined,
    );
  }

  /**
   * The station's ticket in closed, its end owed: an error with an alarm for the technician (once
   * a closing), and the owed ends tried again at the journal's next commit (whoever's: a note, a
   * bet, a fault), as well as at the station's next ticket.
   */
  private close(station: number, validation: string): void {
    if (this.closed.has(station)) {
      this.deps.log.warn({ station, validation }, 'ticket in: an end refused again by the journal: the station stays closed to tickets');
      return;
    }
    this.closed.add(station);
    this.deps.log.error(
      { alarm: 'ticket-in-closed', station, validation },
      'ticket in closed at this station: the journal refuses the end of an attempt never approved (the authority told to cancel); no ticket is taken there until the journal takes it (a full disk? free it)',
    );
    this.stopRetrying ??= this.deps.ledger.onAppended(() => this.retryOwed());
    this.fault(() => this.deps.faults?.raise('ticket-in-closed', { station }));
  }

  /** The journal took a write: the ends owed at closed stations are tried again. */
  private retryOwed(): void {
    if (this.ending) return;
    this.endingNow(() => {
      for (const station of [...this.closed])
        for (const p of this.owedAt(station)) {
          try {
            this.returned(p.station, attemptOf(p), 'acceptor-fault', {});
          } catch {
            // Refused again: the station stays closed (`endRefused`), tried at the next commit.
          }
        }
      for (const station of [...this.closed]) this.reopenIfOwedNone(station);
    });
  }

  /** Attempts at the station never approved whose end the journal refused (this run): owed. */
  private owedAt(station: number): OpenTicketIn[] {
    return ticketsInOpen(this.deps.ledger, station).filter((p) => !p.approved && this.left.has(p.requestId));
  }

  private reopenIfOwedNone(station: number): void {
    if (!this.closed.has(station) || this.owedAt(station).length > 0) return;
    this.closed.delete(station);
    this.deps.log.warn({ station }, 'ticket in open again at this station: the journal took the owed end');
    if (this.closed.size === 0) {
      this.stopRetrying?.();
      this.stopRetrying = null;
    }
    // Inside the journal's commit listeners (`retryOwed`) the fault's own raise may be
    // mid-journalling: the tilt manager makes such a clear wait for it (`raising`), never a second raise.
    this.faultGone(station);
  }

  /** The station's closing fault goes, unless the station closed again meanwhile. */
  private faultGone(station: number): void {
    if (!this.closed.has(station)) this.fault(() => this.deps.faults?.conditionGone('ticket-in-closed', station));
  }

  /** A fault's raise or clear never ends what it reports on (a test's sink may throw; the TiltManager does not). */
  private fault(act: () => void): void {
    try {
      act();
    } catch (err) {
      this.deps.log.error({ err }, 'ticket in: its closing fault could not be raised or cleared');
    }
  }

  private endingNow<T>(fn: () => T): T {
    const outer = this.ending;
    this.ending = true;
    try {
      return fn();
    } finally {
      this.ending = outer;
    }
  }

  /**
   * A person settles a held ticket in (named by its attempt and the number's last four digits, as
   * the page shows it): `stacked`, found in the cashbox, the station credited; `returned`, not
   * there (back with the player, or still in the acceptor's path), `acceptor-fault`. Journalled
   * with `settledBy` before it is answered, the authority told after (confirm or cancel). One an
   * acceptor still has, another than the one named, or one ended already is refused. `record`
   * (service mode's record of who settled it) is journalled in the end's transaction: both or neither.
   */
  settleByHand(
    ticket: { station: number; seq: number; last4: string },
    outcome: TicketInSettlement,
    settledBy: readonly string[],
    record?: (settled: { station: number; last4: string; amount: number }) => NewEntry,
  ): TicketInSettled {
    const { station, last4 } = ticket;
    const p = ticketsInOpen(this.deps.ledger, station).find((a) => a.seq === ticket.seq);
    if (!p?.approved || this.working.has(p.requestId)) return refusal(serviceSaid('ticketInNoneHeld', { station }));
    const shown = p.validation.slice(-4);
    if (shown !== last4) return refusal(serviceSaid('ticketNotThatOne', { station, shown, asked: last4.slice(0, 4) }));
    const by = settledBy.map((n) => n.slice(0, 80)).slice(0, 2);
    if (by.length === 0) return refusal(serviceSaid('ticketNoSettler'));
    const at = attemptOf(p);
    const also = record ? [record({ station, last4: shown, amount: p.approved.amount })] : [];
    if (outcome === 'returned') this.returned(station, at, 'acceptor-fault', { settledBy: by }, also);
    else if (this.deps.ledger.byTxId(ticketStackedTxId(p.validation))) return refusal(serviceSaid('ticketInPaidHere', { shown }));
    else {
      this.credited(station, at, p.approved, { settledBy: by }, also);
      void this.confirmed(at);
    }
    return { ok: true, station, last4: shown, amount: p.approved.amount, outcome };
  }

  /** The station's newest attempt with no end, while its acceptor may still have it (see pendingFor). */
  private stillInAcceptor(station: number): OpenTicketIn | null {
    const open = ticketsInOpen(this.deps.ledger, station).at(-1);
    if (!open || this.left.has(open.requestId) || acceptorMovedOnSince(this.deps.ledger, station, open.seq)) return null;
    return open;
  }

  /**
   * The acceptor has left an attempt with no end: ended here if never approved (no STACK went), else
   * held for a person. One never approved is ended each time it is left: one whose end the journal
   * refused before (`endRefused`) is tried again, never skipped for the rest of the run.
   */
  private leave(p: OpenTicketIn, why: string): void {
    if (!p.approved) {
      this.returned(p.station, attemptOf(p), 'acceptor-fault', {});
      return;
    }
    if (this.left.has(p.requestId)) return;
    this.working.delete(p.requestId);
    this.left.add(p.requestId);
    this.deps.log.warn(
      { station: p.station, validation: p.validation, amount: p.approved.amount, why },
      'ticket in: approved and left by the acceptor without an end: held for a person (service mode, Tickets)',
    );
    this.changes.emit(p.station);
  }

  /** The label of an attempt the casino's system validates (the upstream ingests it and leaves it to that system). */
  private validatedBy(): { authority?: 'sas' } {
    return this.deps.config.tickets.authority === 'sas' ? { authority: 'sas' } : {};
  }

  private show(station: number, s: TicketInState): void {
    this.last.set(station, s);
    this.changes.emit(station);
  }

  /**
   * An attempt's end on the station's screen: the acceptor's own always (the player is at the slot);
   * one the host or a person decided only if that ticket is the one shown there (an older one
   * settled later is not the player's now). The screen looks again either way: the credit moved.
   */
  private showEnd(station: number, s: TicketInState, acceptorSaid: boolean): void {
    if (acceptorSaid || this.last.get(station)?.validation === s.validation) this.show(station, s);
    else this.changes.emit(station);
  }
}

function refusal(say: Said): Extract<TicketInSettled, { ok: false }> {
  return { ok: false, detail: inEnglish(say), say };
}

/** An attempt as journalled: its request's words, the label of the system asked included. */
type Attempt = { requestId: RequestId; validation: ValidationNumber; station: number; authority?: 'sas' };

function attemptOf(p: TicketInEscrow): Attempt {
  return { requestId: p.requestId, validation: p.validation, station: p.station, ...(p.authority ? { authority: p.authority } : {}) };
}
