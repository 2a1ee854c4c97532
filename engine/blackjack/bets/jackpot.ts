import { familyBet } from './entry.js';

/**
 * Portugal's progressive jackpot chip (rules 38–50): one chip a player, beside a main bet
 * (rule 45), decided by the player's first cards (rules 42, 46) against the authority's program
 * (engine/blackjack/jackpot/, settle/jackpot.ts). Its pay table is the program's (the jackpot
 * panel), not the help's. Returned when the round is void.
 */
export const jackpot = familyBet({
  id: 'jackpot',
  kind: 'additional',
  onVoid: 'returned',
  family: 'jackpot',
  offered: (r) => r.jackpot,
  payLines: () => [],
});
