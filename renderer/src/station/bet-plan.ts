import { amountOn, BetId, onSpot, type CommandBody, type Spot, type Stake } from '../../../protocol/index.js';

/**
 * Repeat and undo, built from the host's own `place-bet` and `clear-bets`: the host stays the
 * only judge of every chip (limits, credit), so a repeat over the credit is refused there with
 * its reason, never trimmed here.
 */
export interface Chip {
  spot: Spot;
  amount: number;
}

/** What the host says is on this station's spots (or in play). */
export type Bets = readonly Stake[];

/** The spot a stake is on, when it is on one (a double or an insurance is in play, on no spot). */
function spotOf(s: Stake): Spot | null {
  if (s.bet === 'behind') return s.seat !== undefined ? { bet: 'behind', seat: s.seat } : null;
  const own = BetId.safeParse(s.bet);
  if (!own.success) return null;
  // An additional bet on another seat's hand carries the seat.
  return s.seat !== undefined ? { bet: own.data, seat: s.seat } : { bet: own.data };
}

/** The chips on each spot, once per spot, in the order the spots were first bet. */
function bySpot(stakes: readonly Chip[]): Chip[] {
  const out: Chip[] = [];
  for (const c of stakes) {
    const had = out.find((o) => onSpot(o.spot, c.spot));
    if (had) had.amount += c.amount;
    else out.push({ spot: c.spot, amount: c.amount });
  }
  return out;
}

/** The host's stakes that are on spots, as chips. */
function chipsOf(bets: Bets): Chip[] {
  return bets.flatMap((s) => {
    const spot = spotOf(s);
    return spot ? [{ spot, amount: s.amount }] : [];
  });
}

function same(a: readonly Chip[], b: readonly Chip[]): boolean {
  const x = bySpot(a);
  const y = bySpot(b);
  return x.length === y.length && x.every((c) => y.some((d) => onSpot(d.spot, c.spot) && d.amount === c.amount));
}

const onThe = (chips: readonly Chip[], spot: Spot) => chips.filter((c) => onSpot(c.spot, spot)).reduce((a, c) => a + c.amount, 0);

export class BetPlan {
  /** Chips placed this round, in order, as this station saw them accepted. */
  private chips: Chip[] = [];
  /** What was on the spots when the last betting window closed, for repeat. */
  private last: Chip[] = [];
  private wasOpen = false;

  /** Follows each snapshot's betting panel; when it disagrees with the host, the host wins. */
  sync(open: boolean, bets: Bets): void {
    const host = chipsOf(bets);
    if (this.wasOpen && !open && host.length) this.last = bySpot(host);
    this.wasOpen = open;
    if (!open) {
      this.chips = [];
      return;
    }
    if (same(this.chips, host)) return;
    // Spots that grew are the chips the host just accepted; anything else means the host and
    // this screen disagree (a reconnect, a clear): start again from the host's spots.
    const mine = bySpot(this.chips);
    const grew = mine.every((m) => amountOn(bets, m.spot) >= m.amount);
    if (grew) {
      for (const h of bySpot(host)) {
        const more = h.amount - onThe(mine, h.spot);
        if (more > 0) this.chips.push({ spot: h.spot, amount: more });
      }
    } else this.chips = bySpot(host);
  }

  canUndo(): boolean {
    return this.chips.length > 0;
  }

  canRepeat(current: Bets): boolean {
    return this.last.length > 0 && current.length === 0;
  }

  /** Commands that take the last chip back: clear, then put the others down again. */
  undo(): CommandBody[] {
    const keep = this.chips.slice(0, -1);
    // What the spots will hold once the commands are through (sync is paused meanwhile).
    this.chips = keep;
    return [{ name: 'clear-bets' }, ...bySpot(keep).map((c): CommandBody => ({ name: 'place-bet', spot: c.spot, amount: c.amount }))];
  }

  /** Commands that put last round's bets down again. */
  repeat(): CommandBody[] {
    return this.last.map((c): CommandBody => ({ name: 'place-bet', spot: c.spot, amount: c.amount }));
  }

  lastBets(): readonly Chip[] {
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
