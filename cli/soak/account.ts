import { account, entriesOfTypes, verifyLedger, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';
import { ticketAccountFor, type TicketAccount } from './ticket-account.js';

/** The money of a soak, from the journal's payloads (not the balance projections, so that it checks them). */
export interface SoakAccount {
  rounds: number;
  voided: number;
  creditsIn: number;
  creditsOut: number;
  creditsOnMeters: number;
  wagered: number;
  /** Credits the settlements put back on the meters (stakes returned plus winnings). */
  won: number;
  /** Wagers of rounds still open when the soak stopped (in play, on neither side). */
  inPlay: number;
  /** The house's net result: what the players lost, net of what they won. */
  houseNet: number;
  conserved: boolean;
  ledgerVerified: boolean;
  problems: string[];
  /** The progressive jackpot (Portugal rules 38–50), from the journal: all zero on a table without one. */
  jackpot: JackpotAccount;
  /**
   * Shoes finished and replaced in play, each followed by a round closed on the new shoe: a new
   * shoe loaded after the shoe reported its cut card, or after a round closed with no start of the
   * host between them (blackjack's engine ends a shoe by its own count too, with no cut card
   * journalled). A restart's fresh simulated shoe (a `power.reset` before it) is no such change.
   */
  shoeChanges: number;
  /** Times the table went on hold (a `misread` left pending, not a read during a hold already on). */
  holds: number;
  /** Cash-out tickets printed, voided, in print and redeemed here (issue 47): part of the money check. */
  tickets: TicketAccount;
}

export interface JackpotAccount {
  /** Jackpot chips settled (the settlements' `jackpot` lines with a stake). */
  chips: number;
  /** Awards on the settlements' lines (stake + net of a winning jackpot line), and those of `jackpot.settle`. */
  awardsOnLines: number;
  awardsFromPools: number;
  /** Of the awards, paid by an attendant (a handpay request each). */
  handpaid: number;
  handpayRequests: number;
  hits: number;
  /** Each level: the house's funding, the chips' increment, the awards and the seeds summed; the pool they leave; the ledger's balance. */
  levels: Record<string, { contributions: number; awards: number; seeded: number; pool: number; ledgerPool: number }>;
  /** Every settled round with jackpot chips has one `jackpot.settle`, none another; each pool is what its movements leave; awards agree. */
  conserved: boolean;
  problems: string[];
}

/**
 * Credits in (notes, tickets redeemed here) = credits on meters + cashed out (by handpay, by
 * tickets printed) + tickets still in print + net house result + wagers still in play, each side
 * summed from the journal's own entries, and the meters read from the ledger's balances. A ticket
 * voided is no cash-out: its credit went back to a meter. Every ticket must have ended at most
 * once (never printed and given back) and be credited here at most once (ticket-account.ts).
 */
export function accountFor(ledger: Ledger): SoakAccount {
  let rounds = 0;
  let voided = 0;
  let creditsIn = 0;
  let creditsOut = 0;
  let wagered = 0;
  let won = 0;
  let voidReturned = 0;
  const betsByRound = new Map<string, number>();
  const jp: JackpotAccount = {
    chips: 0,
    awardsOnLines: 0,
    awardsFromPools: 0,
    handpaid: 0,
    handpayRequests: 0,
    hits: 0,
    levels: {},
    conserved: true,
    problems: [],
  };
  const jackpotRounds = new Set<string>();
  const jackpotSettled = new Map<string, number>();
  // Winning-streak stakes held open past their round (round.settle `held`), until a carried line settles them.
  let held = 0;
  // Since the last shoe loaded: the cut card out, a round closed (and no start after it); and
  // whether that load was a change still waiting for a round on the new shoe.
  const shoes = { changes: 0, cut: false, played: false, loaded: false, holds: 0 };
  const types = [
    'bill.credit',
    'credit.cancel',
    'bet.place',
    'round.settle',
    'round.void',
    'jackpot.settle',
    'handpay.request',
    'shoe.change',
    'misread',
    'power.reset',
  ] as const;
  for (const r of entriesOfTypes(ledger, [...types])) {
    const p = (JSON.parse(r.body) as EntryBody).payload;
    if (r.type === 'round.settle' || r.type === 'round.void') {
      if (shoes.loaded) shoes.changes++;
      shoes.loaded = false;
      shoes.played = true;
    }
    switch (r.type) {
      case 'power.reset':
        shoes.played = false; // the next load is the restarted host's fresh shoe, unless the cut card came first
        break;
      case 'shoe.change': {
        const event = (p as Payload<'shoe.change'>).event;
        if (event === 'cut-card') shoes.cut = true;
        if (event === 'loaded') {
          shoes.loaded = shoes.loaded || shoes.cut || shoes.played;
          shoes.cut = false;
          shoes.played = false;
        }
        break;
      }
      case 'misread': {
        const m = p as Payload<'misread'>;
        if (m.resolution === 'pending' && m.duringHold !== true) shoes.holds++;
        break;
      }
      case 'bill.credit':
        creditsIn += (p as Payload<'bill.credit'>).denomination;
        break;
      case 'credit.cancel':
        creditsOut += (p as Payload<'credit.cancel'>).amount;
        break;
      case 'bet.place': {
        const b = p as Payload<'bet.place'>;
        const total = b.bets.reduce((a, l) => a + l.amount, 0);
        wagered += total;
        betsByRound.set(b.roundId, (betsByRound.get(b.roundId) ?? 0) + total);
        break;
      }
      case 'round.settle': {
        const s = p as Payload<'round.settle'>;
        rounds++;
        // What an attendant pays of a line never reaches the meter.
        won += s.lines.reduce((a, l) => a + l.stake + l.net - (l.handpay ?? 0), 0);
        held += (s.held ?? []).reduce((a, h) => a + h.amount, 0) - s.lines.reduce((a, l) => a + (l.carried ? l.stake : 0), 0);
        betsByRound.delete(s.roundId);
        for (const l of s.lines) {
          if (l.bet !== 'jackpot') continue;
          if (l.stake > 0) jp.chips++;
          jackpotRounds.add(s.roundId);
          if (l.net > 0) jp.awardsOnLines += l.stake + l.net;
          jp.handpaid += l.handpay ?? 0;
        }
        break;
      }
      case 'jackpot.settle': {
        const j = p as Payload<'jackpot.settle'>;
        jackpotSettled.set(j.roundId, (jackpotSettled.get(j.roundId) ?? 0) + 1);
        for (const l of j.levels) {
          const lv = (jp.levels[l.level] ??= { contributions: 0, awards: 0, seeded: 0, pool: 0, ledgerPool: 0 });
          lv.contributions += l.contribution;
          lv.awards += l.award;
          lv.seeded += l.funded + l.seed;
          lv.pool += l.funded + l.contribution - l.award + l.seed;
          jp.awardsFromPools += l.award;
          jp.hits += l.hits;
        }
        break;
      }
      case 'handpay.request':
        if ((p as Payload<'handpay.request'>).reason === 'jackpot') jp.handpayRequests += (p as Payload<'handpay.request'>).amount;
        break;
      case 'round.void': {
        const v = p as Payload<'round.void'>;
        rounds++;
        voided++;
        voidReturned += betsByRound.get(v.roundId) ?? 0;
        betsByRound.delete(v.roundId);
        break;
      }
    }
  }
  const inPlay = [...betsByRound.values()].reduce((a, b) => a + b, held);
  const creditsOnMeters = Object.values(ledger.stationCredits()).reduce((a, b) => a + b, 0);
  const houseNet = wagered - won - voidReturned - inPlay;
  const tickets = ticketAccountFor(ledger);
  const conserved =
    creditsIn + tickets.redeemed.amount === creditsOnMeters + creditsOut + tickets.printed.amount + tickets.inPrint.amount + houseNet + inPlay &&
    tickets.problems.length === 0;
  for (const [level, lv] of Object.entries(jp.levels)) {
    lv.ledgerPool = -ledger.balance(account.jackpotPool(level));
    if (lv.ledgerPool !== lv.pool) jp.problems.push(`level ${level}: the journal's movements leave ${lv.pool}, the ledger holds ${lv.ledgerPool}`);
  }
  for (const id of jackpotRounds)
    if (jackpotSettled.get(id) !== 1) jp.problems.push(`round ${id}: ${jackpotSettled.get(id) ?? 0} jackpot settlements, not one`);
  for (const [id, n] of jackpotSettled)
    if (!jackpotRounds.has(id) || n !== 1) jp.problems.push(`round ${id}: a jackpot settlement without its chips, or twice`);
  if (jp.awardsOnLines !== jp.awardsFromPools) jp.problems.push(`awards: ${jp.awardsOnLines} on the lines, ${jp.awardsFromPools} from the pools`);
  if (jp.handpaid !== jp.handpayRequests) jp.problems.push(`handpaid awards ${jp.handpaid}, handpay requests ${jp.handpayRequests}`);
  jp.conserved = jp.problems.length === 0;
  const verified = verifyLedger(ledger);
  return {
    rounds,
    voided,
    creditsIn,
    creditsOut,
    creditsOnMeters,
    wagered,
    won,
    inPlay,
    houseNet,
    conserved,
    ledgerVerified: verified.ok,
    problems: verified.problems,
    jackpot: jp,
    shoeChanges: shoes.changes,
    holds: shoes.holds,
    tickets,
  };
}
