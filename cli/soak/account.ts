import { entriesOfTypes, verifyLedger, type EntryBody, type Ledger, type Payload } from '../../ledger/index.js';

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
}

/**
 * Credits in = credits on meters + cashed out + net house result + wagers still in play, each
 * side summed from the journal's own entries, and the meters read from the ledger's balances.
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
  // Winning-streak stakes held open past their round (round.settle `held`), until a carried line settles them.
  let held = 0;
  for (const r of entriesOfTypes(ledger, ['bill.credit', 'credit.cancel', 'bet.place', 'round.settle', 'round.void'])) {
    const p = (JSON.parse(r.body) as EntryBody).payload;
    switch (r.type) {
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
        won += s.lines.reduce((a, l) => a + l.stake + l.net, 0);
        held += (s.held ?? []).reduce((a, h) => a + h.amount, 0) - s.lines.reduce((a, l) => a + (l.carried ? l.stake : 0), 0);
        betsByRound.delete(s.roundId);
        break;
      }
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
  const conserved = creditsIn === creditsOnMeters + creditsOut + houseNet + inPlay;
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
  };
}
