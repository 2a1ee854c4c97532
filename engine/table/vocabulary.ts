/**
 * The table's words, as closed lists: the bets a station may place, the names settlement lines
 * carry, the decisions a seat may be asked for, why a table holds and why a command is refused.
 * The games speak them, and the screen protocol validates against them (protocol/ builds its
 * schemas from these lists, the one import the protocol makes of the engine), so a bet or an
 * action the engine does not know can never cross the screen boundary.
 */

/** The spots a station can put chips on at its own seat, over every game. */
export const BET_IDS = [
  // blackjack: the main bet and the additional bets of Macau 2009 Art. 13 / Portugal's jackpot
  'main',
  'anyPair',
  'perfectPairs',
  'sevens',
  'over13',
  'under13',
  'jackpot',
  // the winning streak of Macau 2009 Art. 13 5): one spot per level (2–5 rounds won in a row)
  'streak2',
  'streak3',
  'streak4',
  'streak5',
  // baccarat
  'banker',
  'player',
  'tie',
  'playerPair',
  'bankerPair',
  // «6 Sortudo» (Despacho 55/2004 Art. 13 n.1 4)(3), added by 56/2018), where the table offers it
  'lucky6',
] as const;
export type BetId = (typeof BET_IDS)[number];

/**
 * Where a station's chips go: one of its own seat's spots, behind another station's seat (Macau
 * 2009 Art. 20, Portugal rules 15–16), or an additional bet on another seat's hand (Art. 13:
 * «qualquer par» "de uma ou mais mãos de qualquer jogador"). Typed, never a string to parse.
 */
export type Spot = { readonly bet: BetId } | { readonly bet: 'behind'; readonly seat: number } | { readonly bet: BetId; readonly seat: number };

export function isBehind(spot: Spot): spot is { readonly bet: 'behind'; readonly seat: number } {
  return spot.bet === 'behind';
}

/** An additional bet on another seat's hand (not a bet behind: its own bet id, with the seat). */
export function isOnSeat(spot: Spot): spot is { readonly bet: BetId; readonly seat: number } {
  return spot.bet !== 'behind' && 'seat' in spot;
}

/** A spot on the station's own seat (or, for a remote station, its own spots on the stadium box). */
export function isOwn(spot: Spot): spot is { readonly bet: BetId } {
  return spot.bet !== 'behind' && !('seat' in spot);
}

/** The seat a spot on another seat names (behind it, or a bet on its hand); undefined for the station's own. */
export function spotSeat(spot: Spot): number | undefined {
  return 'seat' in spot ? spot.seat : undefined;
}

export function sameSpot(a: Spot, b: Spot): boolean {
  return a.bet === b.bet && spotSeat(a) === spotSeat(b);
}

/** The winning-streak spots (Art. 13 5)): the levels of one additional bet, placed together (5)(2) iv)). */
export const STREAK_BETS: readonly BetId[] = ['streak2', 'streak3', 'streak4', 'streak5'];

/** What a settlement or a journalled bet line is for: the spots, plus what a round adds while it runs. */
export const LINE_BETS = [...BET_IDS, 'behind', 'insurance', 'double', 'split', 'bonus678'] as const;
export type LineBet = (typeof LINE_BETS)[number];

/**
 * What a seat may be asked to decide, worded under `action.<action>` (and the offers, asked as a
 * question first, under `desk.offer.<action>`).
 */
export const DECISION_ACTIONS = [
  'hit',
  'stand',
  'double',
  'split',
  'surrender',
  'insurance',
  'decline-insurance',
  'even-money',
  'decline-even-money',
  'take-five-card-half',
  'continue',
  'war',
  // A bettor behind asked whether to follow the seat's double or split (Portugal rules 28, 30).
  'follow-double',
  'follow-split',
  'decline-follow',
] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** Why the table is on hold, worded for everyone under `hold.<reason>`. */
export const HOLD_REASONS = ['inventory', 'out-of-turn', 'extra-card', 'unreadable', 'wrong-deck', 'ledger', 'default-refused', 'dealing-error'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** Why the table refused a station's command, worded for the player under `refusals.<reason>`. */
export const REFUSAL_REASONS = [
  'betting-closed',
  'bets-stopped',
  'unknown-bet',
  'under-min',
  'over-max',
  'over-credit',
  'no-decision',
  'illegal-action',
  'no-round',
  'not-a-station',
  'station-locked',
  'station-disabled',
  'table-halted',
  'cash-out-empty',
  'cash-out-pending',
  // A cash-out to a ticket on a host clock the upstream's time contradicts (docs/tito.md, "The table's clock"): the credit stays.
  'table-clock',
  'behind-not-allowed',
  'bets-paused',
  'bets-in-play',
  'behind-seat-empty',
  'not-a-multiple',
  'over-round-max',
  'one-additional-bet',
  // A remote station at a game where it only bets behind a seat (blackjack: Macau Art. 20, Portugal rules 15-16).
  'behind-only',
  // The seat already has as many bettors as the table allows (Macau Art. 20 n.1 2) where the house plays
  // that alternative; otherwise the house's maxBettorsPerSeat, as Portugal rule 15 names no number).
  'behind-seat-full',
  // An additional bet whose station has no initial bet on its seat (blackjack: Macau 2009 Art. 13,
  // "para além da aposta inicial"): it stays credit at the close of betting.
  'needs-initial-bet',
  // A winning-streak bet while the seat's earlier ones are still open (Macau 2009 Art. 13 5)(2) v)).
  'streak-open',
  // An additional bet on another seat's hand the text does not let a station place there.
  'not-on-other-seat',
  // A station's credit moved between the tables it follows (issue 34, protocol/transfer-requests.ts):
  // `move-credit` at a table that is not the station's home, `leave-table` at its home, a table
  // that is not a peer of this one.
  'not-home-table',
  'not-away-table',
  'unknown-table',
  // A cash-out while the station holds an open winning-streak stake (Macau 2009 Art. 13 5)), not
  // confirmed by the player: the stake stays held and a round dealt without this station's bet
  // loses it (5)(2) vi), our reading). The command's `endsStreak` says the player was told.
  'streak-held',
  // A credit move while the station already has as many under way as a station may
  // (host/transfers/sender.ts, MAX_OPEN_PER_STATION): they arrive or come back first.
  'transfers-open',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/**
 * The dealing errors a text orders corrected rather than the round cancelled (Macau 2009 Art. 5
 * n.1 1)–2) and Art. 6 1); Portugal rules 17–19; «Desafio ao Casino» Art. 6), worded under
 * `service.correction.<kind>`:
 * - `exposed-card`: the last card came out face up where the procedure deals it face down: it is
 *   void, goes to the discards, and the same card is dealt again;
 * - `undue-card`: a card drawn when none was due (the dealer's draw after standing, a card while a
 *   player decides, already seen): void, to the discards; the round goes on as before;
 * - `misdrawn-card`: a card drawn against what the player asked, not yet seen: it goes to the next
 *   player who asks for a card, else to the dealer's next draw, else to the discards;
 * - `wrong-hand`: the dealer laid a card at another hand than the one the shoe's order gives it:
 *   the card is moved to the hand the table shows (the table's record is already the rectified one);
 * - `exposed-card-stands`: a card come out face up that the text keeps valid, the bets standing and
 *   the round going on (baccarat Art. 4): the hold is lifted, the card stays where it was dealt.
 */
export const CORRECTIONS = ['exposed-card', 'undue-card', 'misdrawn-card', 'wrong-hand', 'exposed-card-stands'] as const;
export type Correction = (typeof CORRECTIONS)[number];

/**
 * Why a void was the last resort: no correction the text orders could put the round right. Worded
 * under `service.uncorrectable.<reason>`; journalled on the `round.void`.
 */
export const UNCORRECTABLE = ['cards-after-error', 'decision-after-error', 'card-unidentified', 'no-correction-in-text', 'device-fault'] as const;
export type Uncorrectable = (typeof UNCORRECTABLE)[number];

/** What a rule option is, read from its text (engine/table/rule-options.ts), worded under `service.optionClass.<class>`. */
export const OPTION_CLASSES = ['fixed', 'choice', 'waivable', 'operator', 'interpretation'] as const;
export type OptionClass = (typeof OPTION_CLASSES)[number];

export function isCorrection(s: string): s is Correction {
  return (CORRECTIONS as readonly string[]).includes(s);
}

export function isUncorrectable(s: string): s is Uncorrectable {
  return (UNCORRECTABLE as readonly string[]).includes(s);
}

/** Why a rule option's value is refused, worded under `service.ruleRefusal.<reason>` with the article as a parameter. */
export const RULE_REFUSALS = [
  'unknown-option',
  'bad-type',
  'fixed',
  'not-offered',
  'out-of-range',
  'needs-authorisation',
  'inconsistent',
  'analysis-only',
] as const;
export type RuleRefusalReason = (typeof RULE_REFUSALS)[number];

/**
 * Why a progressive jackpot's program cannot be played (Portugal 2001 rules 38–50), worded under
 * `service.ruleRefusal.jackpot-<code>`: the option or the program missing, a field of it not of its
 * kind, a level twice, one starting or reset below 10,000 chips, the shares not the whole
 * increment, an award from no level, one paid short, a combination with two awards.
 */
export const JACKPOT_PROGRAM_PROBLEMS = [
  'needs-option',
  'needs-program',
  'program-field',
  'level-twice',
  'start-below',
  'reset-below',
  'shares',
  'award-no-level',
  'award-short',
  'award-twice',
] as const;
export type JackpotProgramProblemCode = (typeof JACKPOT_PROGRAM_PROBLEMS)[number];

/** One problem of a jackpot program: its code, its figures (amounts in minor units, a level, a combination, a field) and its article. */
export interface JackpotProgramProblem {
  readonly why: JackpotProgramProblemCode;
  readonly values: Readonly<Record<string, string | number>>;
  readonly article: string | null;
}

export const GAME_KINDS = ['blackjack', 'baccarat', 'war'] as const;

/**
 * Remote stations (a stadium): machines on the casino LAN with no seat at the table, numbered
 * after this base (101, 102 …), at most MAX_REMOTE_STATIONS of them: two thousand, for a table
 * whose screens are held by edges (issue 55); one host on its own listener was measured to carry a
 * thousand (docs/stadium.md). Seated stations keep 1–7.
 */
export const REMOTE_STATION_BASE = 100;
export const MAX_REMOTE_STATIONS = 2000;
/** The highest station number any table has: the last remote station. */
export const MAX_STATION = REMOTE_STATION_BASE + MAX_REMOTE_STATIONS;

/** The numbers of a table's `count` remote stations: 101, 102, … */
export function remoteStationNumbers(count: number): number[] {
  return Array.from({ length: count }, (_, i) => REMOTE_STATION_BASE + 1 + i);
}

/**
 * The stadium box: where the remote stations of a game whose remote stations bet on their own
 * spots (baccarat) play. It is no seat of the felt: bet and settlement lines of a remote station's
 * own bets carry it as their seat, with the station that pays them.
 */
export const STADIUM_SEAT = 0;
export type GameKind = (typeof GAME_KINDS)[number];

/** A prize the screens celebrate: an additional bet, the Art. 15 special prize, five cards at half pay. */
export const PRIZES = ['side-bet', 'special-prize', 'five-card'] as const;
export type Prize = (typeof PRIZES)[number];

/** What a pay-table line pays on (`help.item.<item>` in every language), for every game and profile. */
export const PAY_ITEMS = [
  // baccarat
  'player',
  'bankerCommission',
  'banker',
  'bankerSix',
  'tie',
  'playerPair',
  'bankerPair',
  'tieStandsOff',
  'lucky6Two',
  'lucky6Three',
  // blackjack and war
  'win',
  'blackjack',
  'insurance',
  'fiveCard',
  'surrender',
  'special678',
  'special678Extra',
  'anyPair',
  'sevensTwo',
  'sevensTwoSuited',
  'sevensThree',
  'sevensThreeSuited',
  'over13',
  'under13',
  'perfectPairMixed',
  'perfectPairColoured',
  'perfectPairPerfect',
  'streak2',
  'streak3',
  'streak4',
  'streak5',
  'tieBet',
  'warHigher',
  'warTie',
  'warSurrender',
] as const;
export type PayItem = (typeof PAY_ITEMS)[number];

/**
 * The catalogue keys a game may name an action or a bet by, where it words it its own way
 * (war's surrender returns half the bet; war's tie bet is not baccarat's tie). A closed list, so
 * the screens' typecheck holds every one of them against the catalogues.
 */
export const OWN_WORDS = ['action.warSurrender', 'help.item.tieBet'] as const;
export type OwnWord = (typeof OWN_WORDS)[number];

/** Where a card went, as journalled and shown: a seat's hand, the dealer, baccarat's sides, a burn. */
export const CARD_DESTINATIONS = ['seat', 'dealer', 'banker', 'player', 'burn'] as const;
export type CardDestination = (typeof CARD_DESTINATIONS)[number];

const LINE_BET_SET: ReadonlySet<string> = new Set(LINE_BETS);

/** A settlement line's bet name as the table knows it; a name outside the vocabulary is a bug of a game. */
export function lineBet(bet: string): LineBet {
  for (const b of LINE_BETS) if (b === bet) return b;
  throw new RangeError(`"${bet}" is not a bet the table knows (${[...LINE_BET_SET].join(', ')})`);
}

/**
 * The winning combinations a progressive jackpot program may name (Portugal rule 43 leaves them
 * to the concessionaire and the inspectorate): the screens word each (`jackpot.combination.<id>`).
 */
export const JACKPOT_COMBINATIONS = [
  'four-aces-suited',
  'four-aces',
  'three-sevens-suited',
  'suited-678',
  'three-sevens',
  'suited-blackjack',
  'blackjack',
  'suited-pair',
] as const;
export type JackpotCombination = (typeof JACKPOT_COMBINATIONS)[number];
