// The credits of a soak, summed from the journal's payloads (not the balance projections, so
// that the account checks them): in, out, wagered, won, returned by voids, still in play.
import type { EntryType, Payload } from '../../../ledger/index.js';

export interface MoneyFold {
  rounds: number;
  voided: number;
  creditsIn: number;
  creditsOut: number;
  wagered: number;
  won: number;
  /** Stakes a void returned. */
  voidReturned: number;
  /** Winning-streak stakes held open past their round (round.settle `held`), until a carried line settles them. */
  held: number;
  /** Each open round's wagers (a round leaves it when it settles or is voided). */
  readonly betsByRound: Map<string, number>;
}

export function newMoneyFold(): MoneyFold {
  return { rounds: 0, voided: 0, creditsIn: 0, creditsOut: 0, wagered: 0, won: 0, voidReturned: 0, held: 0, betsByRound: new Map() };
}

/** One journal entry's credits. */
export function foldMoney(m: MoneyFold, type: EntryType, p: Record<string, unknown>): void {
  switch (type) {
    case 'bill.credit':
      m.creditsIn += (p as Payload<'bill.credit'>).denomination;
      break;
    case 'credit.cancel':
      m.creditsOut += (p as Payload<'credit.cancel'>).amount;
      break;
    case 'bet.place': {
      const b = p as Payload<'bet.place'>;
      const total = b.bets.reduce((a, l) => a + l.amount, 0);
      m.wagered += total;
      m.betsByRound.set(b.roundId, (m.betsByRound.get(b.roundId) ?? 0) + total);
      break;
    }
    case 'round.settle': {
      const s = p as Payload<'round.settle'>;
      m.rounds++;
      // What an attendant pays of a line never reaches the meter.
      m.won += s.lines.reduce((a, l) => a + l.stake + l.net - (l.handpay ?? 0), 0);
      m.held += (s.held ?? []).reduce((a, h) => a + h.amount, 0) - s.lines.reduce((a, l) => a + (l.carried ? l.stake : 0), 0);
      m.betsByRound.delete(s.roundId);
      break;
    }
    case 'held.return': {
      // Held stakes given back outside a round (the table opened afresh): out of play, as a void's.
      const amount = (p as Payload<'held.return'>).amount;
      m.held -= amount;
      m.voidReturned += amount;
      break;
    }
    case 'round.void': {
      const v = p as Payload<'round.void'>;
      m.rounds++;
      m.voided++;
      m.voidReturned += m.betsByRound.get(v.roundId) ?? 0;
      m.betsByRound.delete(v.roundId);
      break;
    }
  }
}

/** Wagers of rounds still open, and stakes still held: in play, on neither side. */
export function inPlayOf(m: MoneyFold): number {
  return [...m.betsByRound.values()].reduce((a, b) => a + b, m.held);
}
