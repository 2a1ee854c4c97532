// The "plain six-deck game" that published blackjack simulators measure (six decks, dealer stands on
// soft 17, double after split, the dealer peeks, no surrender, no side bets), as options over the
// generic profile. The simulator's bench measures it and its pinned test fixes its totals; one
// definition keeps the two on the same game.
export const PLAIN_SIX_DECK = {
  dealProcedure: 'macau-3',
  holeCard: 'peek',
  dealerSoft17: 'stand',
  surrender: 'none',
  fiveCardHalfPay: false,
  bonus678: 'none',
  anyPair: false,
  sevens: false,
  overUnder13: false,
} as const;
