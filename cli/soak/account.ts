import { entriesOfTypes, verifyLedger, type EntryBody, type Ledger } from '../../ledger/index.js';
import { closeJackpot, foldJackpot, newJackpotFold, type JackpotAccount } from './account/jackpot.js';
import { foldMoney, inPlayOf, newMoneyFold } from './account/money.js';
import { newShoeWatch, watchShoes } from './account/shoes.js';
import { ticketAccountFor, type TicketAccount } from './ticket-account.js';

export type { JackpotAccount } from './account/jackpot.js';

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

/** The entries the account reads: the money's, the jackpot's, the shoes' and the holds'. */
const JOURNAL_TYPES = [
  'bill.credit',
  'credit.cancel',
  'bet.place',
  'round.settle',
  'round.void',
  'held.return',
  'jackpot.settle',
  'handpay.request',
  'shoe.change',
  'misread',
  'power.reset',
] as const;

/**
 * Credits in (notes, tickets redeemed here) = credits on meters + cashed out (by handpay, by
 * tickets printed) + tickets still in print + net house result + wagers still in play, each side
 * summed from the journal's own entries, and the meters read from the ledger's balances. A ticket
 * voided is no cash-out: its credit went back to a meter. Every ticket must have ended at most
 * once (never printed and given back) and be credited here at most once (ticket-account.ts).
 */
export function accountFor(ledger: Ledger): SoakAccount {
  const money = newMoneyFold();
  const jackpot = newJackpotFold();
  const shoes = newShoeWatch();
  for (const r of entriesOfTypes(ledger, JOURNAL_TYPES)) {
    const p = (JSON.parse(r.body) as EntryBody).payload;
    watchShoes(shoes, r.type, p);
    foldMoney(money, r.type, p);
    foldJackpot(jackpot, r.type, p);
  }
  const { rounds, voided, creditsIn, creditsOut, wagered, won } = money;
  const inPlay = inPlayOf(money);
  const creditsOnMeters = Object.values(ledger.stationCredits()).reduce((a, b) => a + b, 0);
  const houseNet = wagered - won - money.voidReturned - inPlay;
  const tickets = ticketAccountFor(ledger);
  const conserved =
    creditsIn + tickets.redeemed.amount === creditsOnMeters + creditsOut + tickets.printed.amount + tickets.inPrint.amount + houseNet + inPlay &&
    tickets.problems.length === 0;
  const jp = closeJackpot(jackpot, ledger);
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
