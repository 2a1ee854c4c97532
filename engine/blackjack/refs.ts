import { articleOf, type Articles } from './bets/citation.js';
import { isRegulated, type BlackjackRules, type ProfileId } from './rules.js';

/** What a Macau line says of a hand still in play against a dealer over 21: no article says it wins. */
const HOUSE_DEALER_BUST = 'house reading, no article: the dealer over 21 loses';

/**
 * The article that decides each kind of settlement of the main bet, the insurance, the streak
 * and the jackpot, per profile: [macau-2009, macau-2004, portugal-2001] (bets/citation.ts). A
 * settlement line's `rule` is `<profile> <article>`, e.g. `macau-2009 art.10 n.5`; null where the
 * profile's text has no such bet. The bets of the first cards cite their own (engine/blackjack/bets/).
 */
const REFS = {
  bust: ['art.7 n.2', 'art.7 n.2', 'rule 22'],
  win: ['art.9', 'art.9', 'rule 23'],
  lose: ['art.9', 'art.9', 'rule 23'],
  // The dealer over 21, a hand still in play (a review, 1 December): no Macau article says it wins.
  // Art. 9 pays «mais pontos que a banca», which a dealer's 25 has; Art. 7 n.2 names the dealer over
  // 21 only to say a player who busts loses «ainda que o mesmo suceda à banca». So the line cites no
  // article. Portugal does say it: rule 1 b) makes the aim 21 «ou a que, sendo inferior, dela mais se
  // aproxime» for both parties, and rule 23 pays the total «mais próximo de 21 que o da banca».
  dealerBust: [HOUSE_DEALER_BUST, HOUSE_DEALER_BUST, 'rules 1 b), 23'],
  // A 21 of more than two cards against a dealer over 21 (a review, 4 December): Art. 10 n.4 pays it
  // 1:1 «se a banca não tiver «Black Jack» ou 21 pontos», which a dealer over 21 has not.
  win21DealerBust: ['art.10 n.4', 'art.10 n.4', 'rules 1 b), 23'],
  push: ['art.11 n.1 2)', 'art.11 2)', 'rule 24'],
  blackjackPush: ['art.11 n.1 1)', 'art.11 1)', 'rule 21'],
  blackjack: ['art.10 n.2', 'art.10 n.2', 'rule 21'],
  blackjackVs21: ['art.10 n.5', 'art.10 n.5', 'rules 20-21'],
  win21: ['art.10 n.4', 'art.10 n.4', 'rule 23'],
  // Two cards of 21 on a split hand, won (against the dealer's total or bust): paid 1:1 by the
  // general rule, and not Black Jack by Art. 10 n.6, second sentence («O total de 21 pontos nas
  // apostas desdobradas não é considerado «Black Jack»»); Portugal rule 20 («Não se considera
  // blackjack, mas sim o total de 21, se aquela combinação resultar do desdobramento de um par»).
  split21: ['art.9, art.10 n.6', 'art.9, art.10 n.6', 'rules 20, 23'],
  // The same hand against a dealer over 21: still not Black Jack (Art. 10 n.6, rule 20); the win
  // itself is the house's reading in Macau (dealerBust), rules 1 b) and 23 in Portugal.
  split21DealerBust: [`art.10 n.6; ${HOUSE_DEALER_BUST}`, `art.10 n.6; ${HOUSE_DEALER_BUST}`, 'rules 1 b), 20, 23'],
  dealerBlackjackBeats21: ['art.10 n.6', 'art.10 n.6', 'rule 20'],
  dealerBlackjack: ['art.12 n.2', 'art.12 n.2', 'rule 23'],
  // Found at the peek of procedure 3 (only Macau 2009 has it), before any player acted: Art. 12 n.2 is
  // the dealer's Black Jack found after the players' cards; this one takes the bets «de imediato».
  dealerBlackjackAtPeek: ['art.5 n.2 3)(4)', null, null],
  // Portugal: none. Its rules take the whole stake against a dealer Black Jack (rule 23, «perdendo a
  // aposta»), so `dealerBlackjackTakes` is fixed at `all` there and these lines are never made.
  splitOriginalOnly: ['art.16 n.6', 'art.10 n.7', null],
  // 2009: Art. 17 n.3 itself limits a double of its n.1 1)-2); 2004: only the bank's offer of Art. 10 n.7.
  doubleOriginalOnly: ['art.17 n.3', 'art.10 n.7', null],
  // A double of Art. 17 n.1 3) (two cards of 11): n.3 protects only modalities 1) and 2), so the
  // limited loss is the house's offer of Art. 10 n.7 (`elevenDoubleOriginalOnly`), when it makes it.
  doubleOnElevenOriginalOnly: ['art.10 n.7', 'art.10 n.7', null],
  evenMoney: ['art.10 n.3', 'art.10 n.3', 'rule 34'],
  insuranceWin: ['art.12 n.2', 'art.12 n.2', 'rule 33'],
  // The dealer's Black Jack found at the peek of procedure 3 (Macau 2009 only): the 2 to 1 is Art. 12
  // n.2's, whose moment is after the players' cards; here the peek's, Art. 5 n.2 3)(3)-(4).
  insuranceWinAtPeek: ['art.12 n.2 (2 to 1), at the peek: art.5 n.2 3)(3)-(4)', null, null],
  insuranceLose: ['art.12 n.3', 'art.12 n.3', 'rule 33'],
  surrender: ['art.18 n.1', 'art.18 n.1', 'rule 36'],
  fiveCard: ['art.19 n.1', 'art.19 n.1', null],
  special678: ['art.15', 'art.15', 'rule 35'],
  streakWin: ['art.13 5)(2) i), art.14 n.5', null, null],
  // The round won by a majority of the seat's split hands: Art. 16 n.7 1) makes it a win.
  streakSplitWin: ['art.13 5)(2) i), art.14 n.5, art.16 n.7 1)', null, null],
  // More split hands won than lost, but no majority of them (a push among them: one won of two):
  // n.7 1) needs «a maioria das mãos separadas», 2) as many won as lost, 3) more lost than won. None
  // fits, so the round counted won is our reading and the line cites no paragraph of n.7 (nor
  // Art. 13 5)(2) i), to keep within the journal's 128 characters; Art. 14 n.5 is the prize's).
  streakSplitWinByReading: ['art.14 n.5; house reading, no article: more split hands won than lost', null, null],
  streakLose: ['art.13 5)(2) ii)', null, null],
  streakSurrender: ['art.18 n.3', null, null],
  streakSplitLose: ['art.16 n.7 3)', null, null],
  // A seat with open streak bets that does not bet: the obligation of 5)(2) vi) broken. The text
  // names no consequence, so the line says the loss is our reading, not the article's (a review).
  streakAbsent: ['art.13 5)(2) vi), our reading: the text names no consequence', null, null],
  // A seat whose station a fault kept from betting (engine/table: `keptOut`): no player's choice and
  // no article's case, so the line cites none and says the return of the stake is the house's reading.
  streakKeptOut: ['house reading, no article: a fault kept the station from betting', null, null],
  // A seat given to another station (or to none) by a change of the configuration, its streak open:
  // the player whose credit paid the stake no longer plays that seat, and made no choice; no article
  // has the case, so the stake goes back to that credit and the return cites none.
  streakSeatChanged: ['house reading, no article: the seat was given to another station', null, null],
  // The chip is collected whatever happens (rules 41, 48) and decided by the first cards alone (rule 46).
  jackpot: [null, null, 'rules 46, 48'],
  // An award: the cards rule 42 counts hold an approved combination (rule 43), the round's only one.
  jackpotHit: [null, null, 'rules 42-43'],
  // An award when the round has more than one winning combination: paid smallest first (rule 50 a)).
  jackpotAward: [null, null, 'rules 42-43, 50 a)'],
  // A fixed award its level could not pay whole, paid what the level held: rule 50 a) orders the
  // awards, and no rule says what such an award gets (docs/rules/blackjack.md), so the line says
  // the amount is the house's reading. Reached only with several awards in one round.
  jackpotAwardShort: [null, null, 'rules 42-43, 50 a); house reading, no article: short, level empty'],
  // The top award of a level held by more than one player: split between them (rule 50 b)).
  jackpotShared: [null, null, 'rules 42-43, 50 b)'],
} as const satisfies Record<string, Articles>;

export type RefKey = keyof typeof REFS;

/** Every kind of line (a test holds each citation to the journal's length). */
export const REF_KEYS = Object.keys(REFS) as RefKey[];

export function ref(profile: ProfileId, key: RefKey): string {
  // The generic profile plays by no text: its lines name the profile and cite no article.
  return articleOf(profile, REFS[key]);
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

/**
 * What sets the amount an insurance may take, which a refused amount names (no settlement line
 * quotes it): from half to the whole bet in Macau (Art. 12 n.1), up to half in Portugal (rule 33).
 */
export function insuranceAmountRef(profile: ProfileId): string {
  return articleOf(profile, ['art.12 n.1', 'art.12 n.1', 'rule 33']);
}

/**
 * What fixes the most bettors on one seat, which a refusal names. Macau Art. 20 n.1 2) does («Podem
 * apostar no mesmo lugar no máximo três jogadores», the director may reduce it), in the alternative
 * the house plays when `betBehind` is `seated-or-nearest`; its alternatives 1) and 3) name no
 * number, nor does Portugal rule 15 (a seat's bets are limited by the table maximum only: «não
 * atinja ainda o máximo aprovado para essa banca»). There the cap is the house's option alone.
 */
export function behindCapRef(r: Pick<BlackjackRules, 'profile' | 'betBehind' | 'maxBettorsPerSeat'>): string {
  const house = `the house's maxBettorsPerSeat=${r.maxBettorsPerSeat}`;
  if (!isRegulated(r.profile)) return house;
  if (r.profile === 'portugal-2001') return `${house}; portugal-2001 rule 15 limits a seat only by the table maximum`;
  if (r.betBehind === 'seated-or-nearest') return `${r.profile} art.20 n.1 2)`;
  const alternative = r.betBehind === 'seated' ? ' 1)' : r.betBehind === 'highest-bet' ? ' 3)' : '';
  return `${house}; ${r.profile} art.20 n.1${alternative} sets no number`;
}
