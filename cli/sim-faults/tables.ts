/** The games and rule profiles a seed picks from: all three games, both blackjack jurisdictions. */
export const TABLES = [
  { game: 'blackjack', profile: 'macau-2009' },
  { game: 'blackjack', profile: 'portugal-2001' },
  { game: 'baccarat', profile: 'macau-commission' },
  { game: 'war', profile: 'macau' },
] as const;
