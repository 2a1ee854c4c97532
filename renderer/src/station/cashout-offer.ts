import type { CommandBody, StationState } from '../../../protocol/index.js';

/** How a player cashes out: a ticket (the default where the station prints them) or a handpay by an attendant. */
export type CashoutVia = 'ticket' | 'handpay';

/**
 * Whether the station's screen offers the player the choice (docs/tito.md, "The player's choice"):
 * only where the station has a ticket printer. Without one every cash-out is a handpay anyway, and
 * the one Cash-out button says so by what follows.
 */
export function offersHandpay(state: Pick<StationState, 'cashout'>): boolean {
  return state.cashout?.printsTickets === true;
}

/**
 * The command a cash-out button sends. The ticket is the plain cash-out: the host prints a ticket
 * where it can and falls back to a handpay, saying why, where it cannot. A handpay is asked for by name.
 * `endsStreak`: the player confirmed cashing out with a winning-streak stake held (`CashoutConfirm`).
 */
export function cashoutCommand(via: CashoutVia, endsStreak = false): CommandBody {
  const confirmed = endsStreak ? { endsStreak: true as const } : {};
  return via === 'handpay' ? { name: 'cash-out', via: 'handpay', ...confirmed } : { name: 'cash-out', ...confirmed };
}

/** The part of a station's view a cash-out's confirmation reads: its own seat's streak marker. */
export type StreakView = { betting: Pick<StationState['betting'], 'streak'> };

/**
 * What the station's open winning-streak bets hold (Macau 2009 Art. 13 5)), as its view shows
 * them: the amounts a cash-out leaves in play, and a round dealt without this station's bet loses.
 */
export function streakHeld(state: StreakView): number {
  return state.betting.streak?.open.reduce((a, o) => a + o.amount, 0) ?? 0;
}

/** How long the player has to press again to confirm (the warning is said for as long). */
export const STREAK_CONFIRM_MS = 10_000;

/** What a press of a cash-out button does: send the command, or first say what the player would lose. */
export type CashoutPress = { kind: 'send'; command: CommandBody } | { kind: 'confirm'; via: CashoutVia; amount: number };

/** What a press that may first have to ask does: go ahead (acknowledged or not), or ask with the amount held. */
export type StreakPress<K extends string> = { kind: 'send'; endsStreak: boolean } | { kind: 'confirm'; via: K; amount: number };

/**
 * Credit leaving the station's table with a winning-streak stake held is confirmed by a second
 * press of the same button (`K` names it), within `STREAK_CONFIRM_MS` and for the same amount
 * held: the first says the amount and that a round dealt without this station's bet loses it
 * (Art. 13 5)(2) vi), the engine's reading). Only the confirmed press is sent acknowledged
 * (`endsStreak`); the host refuses the unacknowledged one anyway. Used by the cash-out and by the
 * moves between tables (renderer/src/several/move-confirm.ts).
 */
export class StreakConfirm<K extends string> {
  private armed: { via: K; amount: number; until: number } | null = null;

  constructor(private readonly windowMs = STREAK_CONFIRM_MS) {}

  /** `state`: the view of the table the credit leaves (null: not known, nothing held as far as the screen can tell). */
  press(via: K, state: StreakView | null, now: number): StreakPress<K> {
    const amount = state ? streakHeld(state) : 0;
    const a = this.armed;
    this.armed = null;
    if (amount <= 0) return { kind: 'send', endsStreak: false };
    if (a && a.via === via && a.amount === amount && now < a.until) return { kind: 'send', endsStreak: true };
    this.armed = { via, amount, until: now + this.windowMs };
    return { kind: 'confirm', via, amount };
  }

  /** The button waiting for its confirming press now, or null (the window over, or another amount held in `stateOf` its table). */
  armedFor(stateOf: (via: K) => StreakView | null, now: number): K | null {
    const a = this.armed;
    const state = a ? stateOf(a.via) : null;
    if (a && (now >= a.until || (state ? streakHeld(state) : 0) !== a.amount)) this.armed = null;
    return this.armed?.via ?? null;
  }

  /** When the confirming press is no longer taken (−Infinity: none awaited). */
  get endsAt(): number {
    return this.armed?.until ?? -Infinity;
  }
}

/** The station's cash-out buttons: a ticket or a handpay, each confirmed on its own (`StreakConfirm`). */
export class CashoutConfirm {
  private readonly confirm: StreakConfirm<CashoutVia>;

  constructor(windowMs = STREAK_CONFIRM_MS) {
    this.confirm = new StreakConfirm(windowMs);
  }

  press(via: CashoutVia, state: StreakView, now: number): CashoutPress {
    const r = this.confirm.press(via, state, now);
    return r.kind === 'send' ? { kind: 'send', command: cashoutCommand(via, r.endsStreak) } : r;
  }

  /** The button waiting for its confirming press now, or null (the window over, or nothing held any more). */
  armedFor(state: StreakView, now: number): CashoutVia | null {
    return this.confirm.armedFor(() => state, now);
  }

  /** When the confirming press is no longer taken (−Infinity: none awaited). */
  get endsAt(): number {
    return this.confirm.endsAt;
  }
}
