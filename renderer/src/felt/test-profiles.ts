// The table profiles the felt tests lay out (every game, with and without side bets): one list,
// so a new layout case is added once for the layout and the highlight-ring tests alike.
export const FELT_TEST_PROFILES = [
  { game: 'blackjack', bets: ['main', 'anyPair', 'sevens', 'over13', 'under13'] },
  { game: 'blackjack', bets: ['main'] },
  { game: 'baccarat', bets: ['banker', 'player', 'tie', 'playerPair', 'bankerPair'] },
  // «6 Sortudo» offered (Art. 13 n.1 4)(3)): a third box under the main ones.
  { game: 'baccarat', bets: ['banker', 'player', 'tie', 'playerPair', 'bankerPair', 'lucky6'] },
  { game: 'war', bets: ['main', 'tie'] },
] as const;
