import { isRegulated, type ProfileId, type RegulatedProfileId } from '../../../engine/blackjack/rules.js';

const HOUSE_DEALER_BUST = 'house reading, no article: the dealer over 21 loses';

/**
 * The article that decides each kind of settlement, per profile: [macau-2009, macau-2004,
 * portugal-2001]. A settlement line's `rule` is `<profile> <article>`, e.g. `macau-2009 art.10 n.5`;
 * null where the profile's text has no such bet (the guard keeps it off, so no line is made
 * under it; were one made, it would name the profile and cite no article).
 */
const REFS = {
  // 30 November (a review of the citations): the dealer's draw named per text (Portugal: rule 19).
  dealerDraws: ['art.6 1)', 'art.6 1)', 'rule 19'],
  bust: ['art.7 n.2', 'art.7 n.2', 'rule 22'],
  win: ['art.9', 'art.9', 'rule 23'],
  lose: ['art.9', 'art.9', 'rule 23'],
  // 1 December (a third review of the citations, copied on purpose): no Macau article says a hand
  // still in play wins against a dealer over 21 (Art. 9's «mais pontos» does not), so the line is
  // the house's reading, citing none; Portugal rules 1 b) and 23 say it.
  dealerBust: [HOUSE_DEALER_BUST, HOUSE_DEALER_BUST, 'rules 1 b), 23'],
  // A 21 of more than two cards against a dealer over 21 (a review, 4 December): Art. 10 n.4 pays it
  // 1:1 «se a banca não tiver «Black Jack» ou 21 pontos», which a dealer over 21 has not.
  win21DealerBust: ['art.10 n.4', 'art.10 n.4', 'rules 1 b), 23'],
  push: ['art.11 n.1 2)', 'art.11 2)', 'rule 24'],
  blackjackPush: ['art.11 n.1 1)', 'art.11 1)', 'rule 21'],
  blackjack: ['art.10 n.2', 'art.10 n.2', 'rule 21'],
  blackjackVs21: ['art.10 n.5', 'art.10 n.5', 'rules 20-21'],
  win21: ['art.10 n.4', 'art.10 n.4', 'rule 23'],
  // 1 December (a second review of the citations): two cards of 21 on a split hand, won, cite
  // Art. 10 n.6 (second sentence) and Portugal rule 20 beside the 1:1 of Art. 9 / rule 23.
  split21: ['art.9, art.10 n.6', 'art.9, art.10 n.6', 'rules 20, 23'],
  split21DealerBust: [`art.10 n.6; ${HOUSE_DEALER_BUST}`, `art.10 n.6; ${HOUSE_DEALER_BUST}`, 'rules 1 b), 20, 23'],
  dealerBlackjackBeats21: ['art.10 n.6', 'art.10 n.6', 'rule 20'],
  dealerBlackjack: ['art.12 n.2', 'art.12 n.2', 'rule 23'],
  dealerBlackjackAtPeek: ['art.5 n.2 3)(4)', null, null],
  splitOriginalOnly: ['art.16 n.6', 'art.10 n.7', 'rule 23'],
  doubleOriginalOnly: ['art.17 n.3', 'art.10 n.7', 'rule 23'],
  // A double of Art. 17 n.1 3) (two cards of 11): n.3 protects only modalities 1) and 2), so the
  // limited loss is the offer of Art. 10 n.7 alone.
  doubleOnElevenOriginalOnly: ['art.10 n.7', 'art.10 n.7', 'rule 23'],
  evenMoney: ['art.10 n.3', 'art.10 n.3', 'rule 34'],
  insuranceWin: ['art.12 n.2', 'art.12 n.2', 'rule 33'],
  insuranceWinAtPeek: ['art.12 n.2 (2 to 1), at the peek: art.5 n.2 3)(3)-(4)', null, null],
  insuranceLose: ['art.12 n.3', 'art.12 n.3', 'rule 33'],
  surrender: ['art.18 n.1', 'art.18 n.1', 'rule 36'],
  fiveCard: ['art.19 n.1', 'art.19 n.1', null],
  special678: ['art.15', 'art.15', 'rule 35'],
  anyPair: ['art.13 1)(1), art.14 n.1', 'art.13 1)(1), art.14 n.1', null],
  anyPairSplit: ['art.13 1)(2), art.14 n.1', 'art.13 1)(2), art.14 n.1', null],
  sevens: ['art.13 2), art.14 n.2', 'art.13 2), art.14 n.2', null],
  overUnder: ['art.13 3), art.14 n.3', 'art.13 3), art.14 n.3', null],
  perfectPairs: ['art.13 4), art.14 n.4', null, null],
  streakWin: ['art.13 5)(2) i), art.14 n.5', null, null],
  // 1 December: a round won by a majority of split hands cites Art. 16 n.7 1) too.
  streakSplitWin: ['art.13 5)(2) i), art.14 n.5, art.16 n.7 1)', null, null],
  streakSplitWinByReading: ['art.14 n.5; house reading, no article: more split hands won than lost', null, null],
  streakLose: ['art.13 5)(2) ii)', null, null],
  streakSurrender: ['art.18 n.3', null, null],
  streakSplitLose: ['art.16 n.7 3)', null, null],
  // A seat with open streak bets that does not bet: the obligation of 5)(2) vi) broken (our reading).
  // 30 November (a review of the citations): the loss said as our reading on the line.
  streakAbsent: ['art.13 5)(2) vi), our reading: the text names no consequence', null, null],
  // The chip is collected whatever happens (rules 41, 48) and decided by the first cards alone (rule 46).
  jackpot: [null, null, 'rules 46, 48'],
  // An award: the cards rule 42 counts hold an approved combination (rule 43), paid smallest first (rule 50 a)).
  jackpotAward: [null, null, 'rules 42-43, 50 a)'],
  // The top award of a level held by more than one player: split between them (rule 50 b)).
  jackpotShared: [null, null, 'rules 42-43, 50 b)'],
} as const satisfies Record<string, readonly [string | null, string | null, string | null]>;

export type RefKey = keyof typeof REFS;

const COLUMN: Record<RegulatedProfileId, 0 | 1 | 2> = { 'macau-2009': 0, 'macau-2004': 1, 'portugal-2001': 2 };

export function ref(profile: ProfileId, key: RefKey): string {
  // The generic profile plays by no text: its lines name the profile and cite no article.
  if (!isRegulated(profile)) return profile;
  const article = REFS[key][COLUMN[profile]];
  return article === null ? profile : `${profile} ${article}`;
}

/**
 * What decides a bet behind that stayed out of its hand's split or double: Portugal rule 28 (it
 * rides on the first of the two hands) and rule 30 (it stays at the original bet). Macau Art. 20
 * (2009 and 2004) says nothing of splits or doubles for bets behind; we read it by analogy with
 * the Portuguese rules (docs/table-host.md). Appended to the line's own article, e.g.
 * `macau-2009 art.9; art.20 silent, as portugal-2001 rule 30`.
 */
export function stayedOutRef(profile: ProfileId, split: boolean, double: boolean): string {
  if (!isRegulated(profile)) return '';
  const rules = [split ? '28' : '', double ? '30' : ''].filter(Boolean);
  if (rules.length === 0) return '';
  const pt = `${rules.length > 1 ? 'rules' : 'rule'} ${rules.join(', ')}`;
  return profile === 'portugal-2001' ? pt : `art.20 silent, as portugal-2001 ${pt}`;
}
