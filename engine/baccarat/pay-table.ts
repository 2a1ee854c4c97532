import { payLine, type PayLine } from '../table/pay-line.js';
import { BACCARAT_CATALOGUE, type BaccaratBet } from './bets.js';
import type { BaccaratProfile } from './profiles.js';

/**
 * The help's pay table of a baccarat profile, with the rule each line is settled by: the player's
 * bet, the banker's, the tie, then the additional bets in the catalogue's order, then the tie's
 * stand-off of the two main bets (a rule of the game, no one bet's).
 */
export function baccaratPayTable(p: BaccaratProfile): PayLine[] {
  const entry = (id: BaccaratBet) => BACCARAT_CATALOGUE.filter((b) => b.id === id && b.offered(p)).flatMap((b) => b.payLines(p));
  const additional = BACCARAT_CATALOGUE.filter((b) => b.kind === 'additional' && b.offered(p)).flatMap((b) => b.payLines(p));
  return [...entry('player'), ...entry('banker'), ...entry('tie'), ...additional, payLine('tieStandsOff', { kind: 'returned', part: 'all' }, p.tiePushRule)];
}
