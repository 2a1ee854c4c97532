import type { Logger } from 'pino';
import type { CommandBody, CashoutState, RefusalReason, TiltNotice } from '../../protocol/index.js';
import type { Outcome } from '../../engine/table/game.js';
import type { TiltManager } from '../tilts/tilt-manager.js';
import type { Handpays } from './handpays.js';
import type { NoTicket, OwedHandpay, TicketOut } from './ticket-out.js';
import type { TicketIn } from '../devices/ticket-in.js';
import type { CreditLimitNotes } from '../devices/credit-rule/credit-limit.js';
import type { AftNotices } from './aft-notices.js';
import { validationTxId } from '../../terms/system-validation-terms.js';
import { ref } from '../../engine/blackjack/refs.js';

/** Which approved tickets in the host holds for a person (the acceptor left them without an end), told per station as that changes. */
export interface HeldTicketsIn {
  isHeld(requestId: string): boolean;
  onChange(listener: (station: number) => void): () => void;
}

/** What the screens need of the floor: refusals by faults and locks, the notices, the cash-out. */
export interface StationGate {
  /** The tickets in held for a person (their state in the player's recall), where tickets are taken in. */
  readonly heldIn?: HeldTicketsIn | null;
  /** Why a station's command is refused by a fault, a pending handpay or a ticket's hold (in print, or its cash-out under way), or null. */
  refuse(station: number, command: CommandBody['name']): { reason: string; refusal: RefusalReason } | null;
  notices(station: number | null): TiltNotice[];
  cashout(station: number): CashoutState;
  /**
   * `via`: the player's choice; absent, a ticket where the station's printer can print one, else a
   * handpay. `endsStreak`: the player confirmed cashing out with a winning-streak stake held.
   */
  cashOut(station: number, via?: 'ticket' | 'handpay', endsStreak?: boolean): Outcome;
  /**
   * Credit leaving the station unconfirmed while it holds an open winning-streak stake here
   * (`streak-held`), or null: asked by every way the player's credit leaves (a cash-out, a move to
   * another table, leaving one) after that way's own refusals, and by AFT out (never confirmed).
   */
  streakRefusal(station: number, endsStreak: boolean): Extract<Outcome, { ok: false }> | null;
  onChange(listener: () => void): () => void;
}

/**
 * The faults and the handpays seen from a station. A pending handpay locks the station's bets
 * (it may still decide for a round in play, so the player is never forced onto a default); a
 * disabled station takes no bet and no cash-out; a halted table takes nothing.
 */
export class StationGates implements StationGate {
  constructor(
    private readonly tilts: TiltManager,
    private readonly handpays: Handpays,
    private readonly onHandpayChange: (listener: () => void) => () => void,
    private readonly tickets: TicketOut | null = null,
    private readonly ticketsIn: Pick<TicketIn, 'lastAt' | 'onChange' | 'isHeld'> | null = null,
    /** What the station's open winning-streak stakes hold in the ledger (its held-bets account). */
    private readonly streakHeld: (station: number) => number = () => 0,
    /** The notes each station's acceptor returned at its credit limit: its screen says why. */
    private readonly limitNotes: Pick<CreditLimitNotes, 'lastAt' | 'onChange'> | null = null,
    /** The transfers in each station refused from the casino system (AFT): its screen says why, no other's. */
    private readonly aftNotices: Pick<AftNotices, 'lastAt' | 'onChange'> | null = null,
    /** Where a cash-out that failed after its command was answered is said (a journal that refused its write). */
    private readonly log: Pick<Logger, 'error'> | null = null,
  ) {}

  get heldIn(): HeldTicketsIn | null {
    return this.ticketsIn;
  }

  refuse(station: number, command: CommandBody['name']): { reason: string; refusal: RefusalReason } | null {
    if (command === 'set-language' || command === 'clear-bets') return null;
    if (command === 'decide') return this.tilts.refusal(station, 'decision');
    if (command === 'place-bet') {
      const locked = this.handpays.pendingAt(station);
      if (locked) return { reason: `station ${station} is locked until handpay ${locked.requestTxId} is paid`, refusal: 'station-locked' };
      const held = this.tickets?.holdAt(station);
      if (held) return { reason: held, refusal: 'station-locked' };
      return this.tilts.refusal(station, 'bet');
    }
    if (command === 'move-credit' || command === 'leave-table') {
      // Credit leaving for another table: not while a ticket or the casino system's number holds it.
      const held = this.tickets?.holdAt(station);
      if (held) return { reason: held, refusal: 'station-locked' };
    }
    return this.tilts.refusal(station, 'cash-out');
  }

  notices(station: number | null): TiltNotice[] {
    return this.tilts.notices(station);
  }

  cashout(station: number): CashoutState {
    const ticket = this.tickets?.lastAt(station);
    const ticketIn = this.ticketsIn?.lastAt(station);
    const { pending } = this.handpays.state(station);
    // Why no ticket, for the handpay this station's cash-out fell back to (and only that one).
    const fell = this.fellBack.get(station);
    // `null`: the handpay being journalled now (its screens are told before its request id is known here).
    const why = pending && fell && (fell.requestTxId === pending.requestTxId || fell.requestTxId === null) ? { why: fell.why } : {};
    const wait = this.tickets?.system?.waitingAt(station);
    const systemWait = wait ? { systemWait: { amount: wait.amount, at: wait.at } } : {};
    const prints = this.tickets?.hasPrinter(station) ? { printsTickets: true as const } : {};
    const noteAt = this.limitNotes?.lastAt(station);
    const noteIn = noteAt != null ? { noteIn: { state: 'returned' as const, reason: 'credit-limit' as const, at: noteAt } } : {};
    const aftIn = this.aftNotices?.lastAt(station);
    return {
      pending: pending ? { ...pending, ...why } : null,
      ...prints,
      ...(ticket ? { ticket } : {}),
      ...(ticketIn ? { ticketIn } : {}),
      ...noteIn,
      ...(aftIn ? { aftIn } : {}),
      ...systemWait,
    };
  }

  /** Each station's last cash-out that became a handpay for want of a ticket: its request and why. */
  private readonly fellBack = new Map<number, { requestTxId: string | null; why: Exclude<NoTicket, 'no-printer'> }>();

  /**
   * `asked`: the casino system was asked first; its handpay goes under the request's id (the restart
   * rule finds it) and is the amount the request held, as the restart rule's is: the id names what the
   * casino system was told, and a note taken since stays on the station to be cashed out on its own.
   */
  private handpayFor(station: number, why: NoTicket, asked?: Pick<OwedHandpay, 'requestId' | 'held'>): Outcome {
    // Set before the handpay is journalled: journalling it tells the station's screen at once.
    if (why === 'no-printer') this.fellBack.delete(station);
    else this.fellBack.set(station, { requestTxId: null, why });
    let r: Outcome;
    try {
      r = asked ? this.handpays.cashOut(station, validationTxId(asked.requestId, 'handpay'), asked.held) : this.handpays.cashOut(station);
    } catch (err) {
      this.fellBack.delete(station);
      throw err;
    }
    const requestTxId = this.handpays.state(station).pending?.requestTxId;
    if (r.ok && requestTxId && why !== 'no-printer') this.fellBack.set(station, { requestTxId, why });
    else this.fellBack.delete(station);
    return r;
  }

  cashOut(station: number, via?: 'ticket' | 'handpay', endsStreak = false): Outcome {
    const tickets = this.tickets;
    // The handpay a system-validated cash-out owes (the journal refused it): pressed again, it is journalled now, under the request's id.
    const owed = tickets?.owedAt(station);
    if (owed) {
      const r = this.handpayFor(station, owed.why, owed);
      if (r.ok) tickets?.owe(station, null);
      return r;
    }
    if (via === 'handpay' || !tickets) {
      const held = tickets?.holdAt(station);
      if (held) return { ok: false, reason: held, refusal: 'cash-out-pending' };
      const unconfirmed = this.handpays.refusal(station) ?? this.streakRefusal(station, endsStreak);
      if (unconfirmed) return unconfirmed;
      this.fellBack.delete(station);
      return this.handpays.cashOut(station);
    }
    const refused = this.handpays.refusal(station);
    if (refused) return refused;
    const held = tickets.holdAt(station);
    if (held) return { ok: false, reason: held, refusal: 'cash-out-pending' };
    const unconfirmed = this.streakRefusal(station, endsStreak);
    if (unconfirmed) return unconfirmed;
    // No ticket can be printed now (no printer, over the ticket limit, the printer at fault): an attendant pays.
    const why = tickets.whyNot(station, tickets.creditOf(station));
    if (why !== null) return this.handpayFor(station, why);
    // A clock the upstream's time contradicts would date the ticket and its expiry wrong: refused, the credit stays (docs/tito.md).
    const clock = tickets.clockRefusal();
    if (clock) return { ok: false, reason: clock, refusal: 'table-clock' };
    // The print runs on; the station is locked until it ends, and its screen is told each step.
    // Its command was answered already: what fails from here is logged, never thrown (a plain-Node host exits on an unhandled rejection).
    void tickets
      .cashOut(station)
      .then((out) => {
        if (out.kind === 'no-ticket' && this.handpays.refusal(station) === null) this.fallBack(tickets, station, out);
      })
      .catch((err: unknown) => this.log?.error({ err, station }, 'cash-out: failed after it was answered'));
    return { ok: true };
  }

  /**
   * A ticket cash-out that printed nothing becomes a handpay. One the journal refuses leaves the
   * station as a restart would find it: a cash-out that asked the casino system is owed its handpay
   * by the restart rule (docs/sas.md), so the station is held for it and the next press journals it;
   * one that did not left nothing in the journal, the credit on the meter as it was, free to cash
   * out again. Either way the screen is told (it no longer waits for the system).
   */
  private fallBack(tickets: TicketOut, station: number, out: { reason: NoTicket; requestId?: string; held?: number }): void {
    const { reason: why, requestId, held } = out;
    // A request always names its amount; one without is the table's own cash-out, which owes nothing.
    const asked = requestId !== undefined && held !== undefined ? { requestId, held } : undefined;
    try {
      this.handpayFor(station, why, asked);
    } catch (err) {
      this.log?.error({ err, station, requestId }, 'cash-out: the journal refused the handpay a ticket fell back to');
      tickets.owe(station, asked ? { ...asked, why } : null);
    }
  }

  /**
   * A cash-out (or a move of the credit to another table) the player has not confirmed while the
   * station holds an open winning-streak stake: refused, so that nobody loses the stake by leaving
   * untold (the screen asks first, but a station is an untrusted peer and the host decides). Asked
   * only once every other refusal has passed: a cash-out that could not go ahead anyway says why, not this.
   */
  streakRefusal(station: number, endsStreak: boolean): Extract<Outcome, { ok: false }> | null {
    const amount = this.streakHeld(station);
    if (endsStreak || amount <= 0) return null;
    return {
      ok: false,
      reason:
        `station ${station} holds ${amount} on open winning-streak bets: they are not cashed out, and a round dealt without ` +
        `this station's bet loses them (${ref('macau-2009', 'streakAbsent')}); the player must confirm (endsStreak)`,
      refusal: 'streak-held',
    };
  }

  onChange(listener: () => void): () => void {
    const offTilts = this.tilts.onChange(listener);
    const offHandpays = this.onHandpayChange(listener);
    const offTickets = this.ticketsIn?.onChange(() => listener()) ?? (() => {});
    const offNotes = this.limitNotes?.onChange(() => listener()) ?? (() => {});
    const offAft = this.aftNotices?.onChange(() => listener()) ?? (() => {});
    return () => {
      offTilts();
      offHandpays();
      offTickets();
      offNotes();
      offAft();
    };
  }
}
