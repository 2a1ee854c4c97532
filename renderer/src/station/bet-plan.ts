import type { CommandBody } from '../../../protocol/index.js';

/**
 * Repeat and undo, built from the host's own `place-bet` and `clear-bets`: the host stays the
 * only judge of every chip (limits, credit), so a repeat over the credit is refused there with
 * its reason, never trimmed here.
 */
export interface Chip {
  bet: string;
  amount: number;
}

export type Bets = Readonly<Record<string, number>>;

function sum(chips: readonly Chip[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of chips) out[c.bet] = (out[c.bet] ?? 0) + c.amount;
  return out;
}

function same(a: Bets, b: Bets): boolean {
  const ka = Object.keys(a).filter((k) => (a[k] ?? 0) > 0);
  const kb = Object.keys(b).filter((k) => (b[k] ?? 0) > 0);
  return ka.length === kb.length && ka.every((k) => a[k] === b[k]);
}

export class BetPlan {
  /** Chips placed this round, in order, as this station saw them accepted. */
  private chips: Chip[] = [];
  /** What was on the spots when the last betting window closed, for repeat. */
  private last: Bets = {};
  private wasOpen = false;

  /** Follows each snapshot's betting panel; when it disagrees with the host, the host wins. */
  sync(open: boolean, bets: Bets): void {
    if (this.wasOpen && !open && Object.keys(bets).length) this.last = { ...bets };
    this.wasOpen = open;
    if (!open) {
      this.chips = [];
      return;
    }
    const mine = sum(this.chips);
    if (same(mine, bets)) return;
    // Spots that grew are the chips the host just accepted; anything else means the host and
    // this screen disagree (a reconnect, a clear): start again from the host's spots.
    const grew = Object.keys(mine).every((k) => (bets[k] ?? 0) >= (mine[k] ?? 0));
    if (grew) {
      for (const [bet, amount] of Object.entries(bets)) if (amount > (mine[bet] ?? 0)) this.chips.push({ bet, amount: amount - (mine[bet] ?? 0) });
    } else this.chips = Object.entries(bets).map(([bet, amount]) => ({ bet, amount }));
  }

  canUndo(): boolean {
    return this.chips.length > 0;
  }

  canRepeat(current: Bets): boolean {
    return Object.keys(this.last).length > 0 && Object.keys(current).length === 0;
  }

  /** Commands that take the last chip back: clear, then put the others down again. */
  undo(): CommandBody[] {
    const keep = this.chips.slice(0, -1);
    // What the spots will hold once the commands are through (sync is paused meanwhile).
    this.chips = keep;
    return [{ name: 'clear-bets' }, ...Object.entries(sum(keep)).map(([bet, amount]): CommandBody => ({ name: 'place-bet', bet, amount }))];
  }

  /** Commands that put last round's bets down again. */
  repeat(): CommandBody[] {
    return Object.entries(this.last).map(([bet, amount]): CommandBody => ({ name: 'place-bet', bet, amount }));
  }

  lastBets(): Bets {
    return this.last;
  }
}

/**
 * Sends a sequence of commands one at a time: each is made against the view's current version,
 * so the next waits for the snapshot that answers the previous. A refusal drops the rest (the
 * refusal message says why).
 */
export class CommandQueue {
  private pending: CommandBody[] = [];
  private waiting = false;

  constructor(private readonly send: (c: CommandBody) => void) {}

  run(commands: readonly CommandBody[]): void {
    this.pending = [...commands];
    this.waiting = false;
    this.next();
  }

  /** A new snapshot arrived: the previous command was applied. */
  snapshot(): void {
    if (!this.waiting) return;
    this.waiting = false;
    this.next();
  }

  refused(): void {
    this.pending = [];
    this.waiting = false;
  }

  busy(): boolean {
    return this.waiting || this.pending.length > 0;
  }

  private next(): void {
    const c = this.pending.shift();
    if (!c) return;
    this.waiting = true;
    this.send(c);
  }
}
