import type { CommandBody } from '../../../protocol/index.js';
import { StreakConfirm, type StreakView } from '../station/cashout-offer.js';

/** The two ways a player's credit leaves a table from the screen of several tables (credit-moves.ts). */
export type MoveCommand = Extract<CommandBody, { name: 'move-credit' | 'leave-table' }>;

/** What a press of Move or Leave does: send the command, or first say what stays behind. */
export type MovePress = { kind: 'send'; command: MoveCommand } | { kind: 'confirm'; via: MoveCommand['name']; amount: number };

/** The views the station has of its home table and of the focus table (null: not heard from). */
export type MoveViews = { home: StreakView | null; focus: StreakView | null };

/**
 * Credit leaving a table that holds the station's open winning-streak stake (Macau 2009 Art. 13
 * 5)): asked first, as the cash-out is (StreakConfirm). A move takes home's credit, so home's
 * stake is the one asked about; leaving sends the focus table's credit home, so the focus table's.
 * The host refuses either unacknowledged (`streak-held`) whatever this shows.
 */
export class MoveConfirm {
  private readonly confirm: StreakConfirm<MoveCommand['name']>;

  constructor(windowMs?: number) {
    this.confirm = new StreakConfirm(windowMs);
  }

  press(command: MoveCommand, views: MoveViews, now: number): MovePress {
    const r = this.confirm.press(command.name, holder(command.name, views), now);
    if (r.kind === 'confirm') return r;
    return { kind: 'send', command: r.endsStreak ? { ...command, endsStreak: true } : command };
  }

  /** The button waiting for its confirming press now, or null. */
  armed(views: MoveViews, now: number): MoveCommand['name'] | null {
    return this.confirm.armedFor((via) => holder(via, views), now);
  }

  /** When the confirming press is no longer taken (−Infinity: none awaited). */
  get endsAt(): number {
    return this.confirm.endsAt;
  }
}

/** The table whose credit leaves, and so whose held stake is the question. */
function holder(via: MoveCommand['name'], views: MoveViews): StreakView | null {
  return via === 'move-credit' ? views.home : views.focus;
}
