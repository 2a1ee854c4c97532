/**
 * Blackjack rule profiles as data. Every option is declared once with its type and, per profile,
 * its default value and the article of the text it comes from, so the same table validates
 * overrides (the schema), prints `--print-rules` and feeds docs/rules/blackjack.md.
 *
 * The engine layer may not import packages (lint layering), so the schema is this declarative
 * table plus a small validator instead of zod; the CLI reports the same messages.
 */

/** The profiles a text governs: every option's value is held to what its article allows. */
export const REGULATED_PROFILE_IDS = ['macau-2009', 'macau-2004', 'portugal-2001'] as const;
export type RegulatedProfileId = (typeof REGULATED_PROFILE_IDS)[number];
/**
 * `generic`: no text, every option free, for analysis (`sim`, `round`: reproducing published
 * figures of standard rule sets). It starts from Macau 2009's values, its lines cite no article,
 * and the table host refuses to play it.
 */
export const GENERIC_PROFILE = 'generic';
export const PROFILE_IDS = [...REGULATED_PROFILE_IDS, GENERIC_PROFILE] as const;
export type ProfileId = (typeof PROFILE_IDS)[number];

type EnumSpec<V extends string> = { readonly kind: 'enum'; readonly values: readonly V[] };
type IntSpec = { readonly kind: 'int'; readonly min: number; readonly max: number };
type BoolSpec = { readonly kind: 'bool' };
type StringSpec = { readonly kind: 'string' };
type Spec = EnumSpec<string> | IntSpec | BoolSpec | StringSpec;

/** A profile's default: the value, the article it comes from, and (optionally) the values the text allows. */
type Default<T> = readonly [value: T, article: string, allowed?: readonly T[]];

interface OptionDef<T> {
  readonly spec: Spec;
  readonly about: string;
  readonly profiles: Readonly<Record<RegulatedProfileId, Default<T>>>;
}

const e = <V extends string>(...values: V[]): EnumSpec<V> => ({ kind: 'enum', values });
const int = (min: number, max: number): IntSpec => ({ kind: 'int', min, max });
const bool: BoolSpec = { kind: 'bool' };
const str: StringSpec = { kind: 'string' };

/** Article prefixes used in references: `macau-2009 art.10 n.5`, `portugal-2001 rule 33`. */
function m9(a: string): string {
  return `macau-2009 ${a}`;
}
function m4(a: string): string {
  return `macau-2004 ${a}`;
}
function pt(a: string): string {
  return `portugal-2001 ${a}`;
}

const OPTIONS = {
  decks: {
    spec: int(1, 8),
    about: 'number of 52-card decks in the shoe',
    profiles: {
      'macau-2009': [6, m9('art.1 n.2')],
      'macau-2004': [6, m4('art.1 n.2')],
      'portugal-2001': [6, pt('rule 3'), [4, 6]],
    },
  } as OptionDef<number>,
  shuffler: {
    spec: e('manual', 'automatic', 'continuous'),
    about: 'manual shuffle with cut card; automatic shuffler-dealer (one shoe); continuous shuffler (cards back after each round)',
    profiles: {
      'macau-2009': ['manual', m9('art.2 n.1, n.2')],
      'macau-2004': ['manual', m4('art.2 n.1, n.2')],
      'portugal-2001': ['manual', pt('rules 8-11, 51-61')],
    },
  } as OptionDef<string>,
  cutCardFromEnd: {
    spec: int(1, 416),
    about: 'cards behind the cut card (second white card / carta-aviso)',
    profiles: {
      'macau-2009': [60, m9('art.2 n.1 (1): at least the last 30 cards')],
      'macau-2004': [60, m4('art.2 n.1 (1): at least the last 30 cards')],
      'portugal-2001': [50, pt('rule 9: as near as possible to the 50th card from the end')],
    },
  } as OptionDef<number>,
  cutCardMiddleWithOnePlayer: {
    spec: bool,
    about: 'with a single player at the table the cut card goes in the middle of the shoe',
    profiles: {
      'macau-2009': [false, m9('art.2 (not in the text)')],
      'macau-2004': [false, m4('art.2 (not in the text)')],
      'portugal-2001': [true, pt('rule 9')],
    },
  } as OptionDef<boolean>,
  burnAtShoeStart: {
    spec: e('decks', 'one', 'none'),
    about: 'cards burnt before the first round of a shoe: as many as decks, one, or none',
    profiles: {
      'macau-2009': ['decks', m9('art.4 n.1'), ['decks', 'one']],
      'macau-2004': ['decks', m4('art.4 n.1'), ['decks', 'one']],
      'portugal-2001': ['one', pt('rule 10'), ['one']],
    },
  } as OptionDef<string>,
  burnEachRound: {
    spec: bool,
    about: 'one card burnt at the start of each following round (shoe or shuffler)',
    profiles: {
      'macau-2009': [false, m9('art.4 n.2')],
      'macau-2004': [false, m4('art.4 n.2')],
      'portugal-2001': [false, pt('rule 10 (start of shoe only)'), [false]],
    },
  } as OptionDef<boolean>,
  burnBeforeDealerSecond: {
    spec: bool,
    about: "one card burnt before the dealer's second (face-up) card; only together with burnEachRound",
    profiles: {
      'macau-2009': [false, m9('art.4 n.2')],
      'macau-2004': [false, m4('art.4 n.2')],
      'portugal-2001': [false, pt('rule 10'), [false]],
    },
  } as OptionDef<boolean>,
  dealProcedure: {
    spec: e('macau-1', 'macau-2', 'macau-3', 'portugal-17'),
    about: 'dealing procedure: Macau Art. 5 n.2 procedures 1 (players face down), 2 (face up), 3 (hole card); Portugal rule 17',
    profiles: {
      'macau-2009': ['macau-1', m9('art.5 n.2'), ['macau-1', 'macau-2', 'macau-3']],
      'macau-2004': ['macau-1', m4('art.5 n.2'), ['macau-1', 'macau-2']],
      'portugal-2001': ['portugal-17', pt('rule 17'), ['portugal-17']],
    },
  } as OptionDef<string>,
  holeCard: {
    spec: e('none', 'peek', 'no-peek'),
    about:
      "none: dealer's second card after the players; peek: hole card checked for Black Jack on A/ten up; no-peek: hole card dealt face down and turned after the players (Portugal rule 17, Macau metal box)",
    profiles: {
      'macau-2009': ['none', m9('art.5 n.2 (1)-(3)')],
      'macau-2004': ['none', m4('art.5 n.2 (1)-(2)'), ['none', 'no-peek']],
      'portugal-2001': ['no-peek', pt('rule 17'), ['no-peek']],
    },
  } as OptionDef<string>,
  exposedFirstCardValid: {
    spec: bool,
    about: 'a card that comes out face up is void, except (by this option) the first card of the game',
    profiles: {
      'macau-2009': [false, m9('art.5 n.1 (1)')],
      'macau-2004': [false, m4('art.5 n.1 (1)')],
      'portugal-2001': [false, pt('rule 17 (a turned dealer card goes to the discards)'), [false]],
    },
  } as OptionDef<boolean>,
  playerCardsFaceUp: {
    spec: bool,
    about: "players' cards dealt face up (display only; procedure 1 deals them face down)",
    profiles: {
      'macau-2009': [false, m9('art.5 n.2 (1), (2), (3)(5)')],
      'macau-2004': [false, m4('art.5 n.2 (1), (2)')],
      'portugal-2001': [true, pt('rule 17')],
    },
  } as OptionDef<boolean>,
  dealerSoft17: {
    spec: e('stand', 'hit', 'hit-ace-six'),
    about: "dealer on soft 17: stand, hit every soft 17, or hit only the literal 2009 'Soft 17' (a hand holding a 6 and an ace, i.e. exactly A-6)",
    profiles: {
      'macau-2009': ['hit-ace-six', m9('art.6 n.1, n.6')],
      'macau-2004': ['stand', m4('art.6 n.1')],
      'portugal-2001': ['stand', pt('rules 6 a), 19')],
    },
  } as OptionDef<string>,
  dealerDrawsWhenAllLost: {
    spec: bool,
    about: 'dealer still draws when every hand has busted, surrendered or been paid (only cards that decide a pending bet are drawn otherwise)',
    profiles: {
      'macau-2009': [false, m9('art.7 n.1 (interpretation, see docs)')],
      'macau-2004': [false, m4('art.7 n.1 (interpretation, see docs)')],
      'portugal-2001': [false, pt('rule 22')],
    },
  } as OptionDef<boolean>,
  dealerBlackjackTakes: {
    spec: e('original-only', 'doubles-original-only', 'all'),
    about: 'against a dealer Black Jack found after the players acted: doubles and splits lose only the original bet, only doubles do, or everything is lost',
    profiles: {
      'macau-2009': ['original-only', m9('art.10 n.7, art.16 n.6, art.17 n.3')],
      'macau-2004': ['doubles-original-only', m4('art.10 n.7')],
      'portugal-2001': ['all', pt('rules 21-23 (no limitation in the text)')],
    },
  } as OptionDef<string>,
  blackjackPays: {
    spec: e('3:2'),
    about: 'Black Jack pays one and a half times the bet',
    profiles: {
      'macau-2009': ['3:2', m9('art.10 n.2')],
      'macau-2004': ['3:2', m4('art.10 n.2')],
      'portugal-2001': ['3:2', pt('rule 21')],
    },
  } as OptionDef<string>,
  evenMoney: {
    spec: e('none', 'vs-ace', 'vs-ace-or-ten'),
    about: 'a player with Black Jack may take 1:1 at once when the dealer shows an ace (or a ten-value card)',
    profiles: {
      // The player's right, fixed by the text (Macau 2009 Art. 21 n.2 lets only Arts. 15 and 18 be waived).
      'macau-2009': ['vs-ace-or-ten', m9('art.10 n.3'), ['vs-ace-or-ten']],
      'macau-2004': ['vs-ace-or-ten', m4('art.10 n.3'), ['vs-ace-or-ten']],
      'portugal-2001': ['vs-ace', pt('rule 34'), ['vs-ace']],
    },
  } as OptionDef<string>,
  insuranceMax: {
    spec: e('half', 'full'),
    about: 'largest insurance bet: half the main bet or the full main bet; pays 2:1',
    profiles: {
      'macau-2009': ['full', m9('art.12 n.1')],
      'macau-2004': ['full', m4('art.12 n.1')],
      'portugal-2001': ['half', pt('rule 33'), ['half']],
    },
  } as OptionDef<string>,
  insuranceMin: {
    spec: e('any', 'half'),
    about: 'smallest insurance bet: any amount, or half the main bet (Macau: "de metade até ao valor total")',
    profiles: {
      'macau-2009': ['half', m9('art.12 n.1')],
      'macau-2004': ['half', m4('art.12 n.1')],
      'portugal-2001': ['any', pt('rule 33')],
    },
  } as OptionDef<string>,
  doubleOn: {
    spec: e('any-two', 'nine-to-eleven', 'ten-eleven', 'eleven'),
    about: 'first two cards a player may double on',
    profiles: {
      'macau-2009': ['any-two', m9('art.17 n.1 (1), (3)'), ['any-two', 'eleven']],
      'macau-2004': ['any-two', m4('art.17 (1), (2)'), ['any-two', 'eleven']],
      'portugal-2001': ['nine-to-eleven', pt('rule 29'), ['nine-to-eleven']],
    },
  } as OptionDef<string>,
  doubleAfterSplit: {
    spec: bool,
    about: 'double on the first two cards of a split hand (never on split aces unless doubleSplitAces)',
    profiles: {
      'macau-2009': [true, m9('art.17 n.1 (2)')],
      'macau-2004': [true, m4('art.17 (1)')],
      'portugal-2001': [true, pt('rule 31')],
    },
  } as OptionDef<boolean>,
  doubleSplitAces: {
    spec: bool,
    about: 'double allowed on split aces (Macau Art. 17 n.1 (2) excludes them)',
    profiles: {
      'macau-2009': [false, m9('art.17 n.1 (2), art.16 n.3'), [false]],
      'macau-2004': [false, m4('art.16 n.3'), [false]],
      'portugal-2001': [false, pt('rule 26 (one card to each split ace)'), [false]],
    },
  } as OptionDef<boolean>,
  softDoubleAceLocked: {
    spec: bool,
    about: 'an ace doubled as 1 (A-8 as 9, A-9 as 10) stays 1 until the end; without it such hands may not double on 9-11 rules',
    profiles: {
      'macau-2009': [false, m9("art.8 (ace 1 or 11 at the player's choice)")],
      'macau-2004': [false, m4('art.8')],
      'portugal-2001': [true, pt('rule 32')],
    },
  } as OptionDef<boolean>,
  maxHands: {
    spec: int(1, 99),
    about: 'most hands a seat may hold by splitting (1 = no split)',
    profiles: {
      'macau-2009': [4, m9('art.16 n.1; art.5 n.2 (3)(7): five hands with procedure 3')],
      'macau-2004': [4, m4('art.16 n.1')],
      'portugal-2001': [99, pt('rules 26-27 (no limit in the text)')],
    },
  } as OptionDef<number>,
  resplit: {
    spec: bool,
    about: 'a split hand that receives a card of the same value may be split again',
    profiles: {
      'macau-2009': [true, m9('art.16 n.5')],
      'macau-2004': [true, m4('art.16 n.5')],
      'portugal-2001': [true, pt('rule 27')],
    },
  } as OptionDef<boolean>,
  resplitAfterDecline: {
    spec: bool,
    about: 'a player who declined to split a pair formed after a split may still split a later one',
    profiles: {
      'macau-2009': [false, m9('art.16 n.5 ("a não ser que, anteriormente, tenha já decidido não separar")')],
      'macau-2004': [false, m4('art.16 n.5')],
      'portugal-2001': [true, pt('rule 27 (no such limit)')],
    },
  } as OptionDef<boolean>,
  resplitAces: {
    spec: bool,
    about: 'split aces that receive an ace may be split again',
    profiles: {
      'macau-2009': [true, m9('art.16 n.3')],
      'macau-2004': [true, m4('art.16 n.3')],
      'portugal-2001': [true, pt('rule 27')],
    },
  } as OptionDef<boolean>,
  splitPairsBy: {
    spec: e('rank', 'value'),
    about: 'what makes a splittable pair: same rank (J-J) or same value (J-Q)',
    profiles: {
      'macau-2009': ['value', m9('art.16 n.1, n.5 ("carta de valor igual")')],
      'macau-2004': ['value', m4('art.16 n.1, n.5')],
      'portugal-2001': ['value', pt('rule 26 ("tenham o mesmo valor")')],
    },
  } as OptionDef<string>,
  surrender: {
    spec: e('none', 'not-vs-ace', 'late'),
    about: "surrender half the bet as the hand's first decision: never, not against an ace, or against any up card",
    profiles: {
      // Never against an ace (Art. 18 n.1, rule 36); Macau 2009 may waive surrender altogether (Art. 21 n.2).
      'macau-2009': ['not-vs-ace', m9('art.18 n.1-2; may be waived, art.21 n.2'), ['not-vs-ace', 'none']],
      'macau-2004': ['not-vs-ace', m4('art.18 n.1-2'), ['not-vs-ace']],
      'portugal-2001': ['not-vs-ace', pt('rule 36'), ['not-vs-ace']],
    },
  } as OptionDef<string>,
  fiveCardHalfPay: {
    spec: bool,
    about: 'a hand of five cards totalling 21 or less may take half its bet, unless the dealer shows an ace',
    profiles: {
      'macau-2009': [true, m9('art.19'), [true]],
      'macau-2004': [true, m4('art.19'), [true]],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  bonus678: {
    spec: e('none', 'replaces-main', 'in-addition'),
    about: 'special prize 3x the bet for 6-7-8 suited or 7-7-7 as a three-card hand: paid at once instead of the main result, or on top of it',
    profiles: {
      // 'in-addition' is a reading of Art. 15 awaiting the regulator (docs/rules/blackjack.md); only 2009 may waive the prize (Art. 21 n.2).
      'macau-2009': ['replaces-main', m9('art.15; may be waived, art.21 n.2'), ['replaces-main', 'in-addition', 'none']],
      'macau-2004': ['replaces-main', m4('art.15'), ['replaces-main', 'in-addition']],
      'portugal-2001': ['in-addition', pt('rule 35: "sem prejuízo do prémio"'), ['in-addition']],
    },
  } as OptionDef<string>,
  minStandTotal: {
    spec: int(0, 21),
    about: 'lowest total a player may stand on (0 = any)',
    profiles: {
      'macau-2009': [0, m9('art.6 n.2')],
      'macau-2004': [0, m4('art.6 n.2')],
      'portugal-2001': [12, pt('rule 18: may stand only above 11')],
    },
  } as OptionDef<number>,
  minBet: {
    spec: int(0, 1_000_000_000),
    about: 'table minimum in minor units (0 = not checked by the engine)',
    profiles: {
      'macau-2009': [0, m9('art.5 n.2 (3)(8) (table limits)')],
      'macau-2004': [0, m4('(table limits)')],
      'portugal-2001': [0, pt('rule 14')],
    },
  } as OptionDef<number>,
  betInMultiplesOfMinimum: {
    spec: bool,
    about: 'every bet equal to the minimum or a multiple of it',
    profiles: {
      'macau-2009': [false, m9('(not in the text)')],
      'macau-2004': [false, m4('(not in the text)')],
      'portugal-2001': [true, pt('rule 14')],
    },
  } as OptionDef<boolean>,
  maxBetMultiple: {
    spec: int(0, 100_000),
    about: 'largest main bet as a multiple of the minimum (0 = no limit from the rules)',
    profiles: {
      'macau-2009': [0, m9('art.5 n.2 (3)(8)')],
      'macau-2004': [0, m4('(not in the text)')],
      'portugal-2001': [30, pt('rule 37')],
    },
  } as OptionDef<number>,
  seats: {
    spec: int(1, 7),
    about: 'betting spots at the table',
    profiles: {
      'macau-2009': [7, m9('art.3 n.1 (six or more)')],
      'macau-2004': [7, m4('art.3 n.1')],
      'portugal-2001': [7, pt('rule 2 (six or seven)'), [6, 7]],
    },
  } as OptionDef<number>,
  betBehind: {
    spec: e('seated', 'seated-or-nearest', 'highest-bet', 'seated-else-highest'),
    about: 'who decides for a seat with several bets (Macau Art. 20 n.1 alternatives 1-3; Portugal rules 15-16)',
    profiles: {
      'macau-2009': ['seated', m9('art.20 n.1 (1)'), ['seated', 'seated-or-nearest', 'highest-bet']],
      'macau-2004': ['seated', m4('art.20 n.1 (1)'), ['seated', 'seated-or-nearest', 'highest-bet']],
      'portugal-2001': ['seated-else-highest', pt('rules 15-16'), ['seated-else-highest']],
    },
  } as OptionDef<string>,
  maxBettorsPerSeat: {
    spec: int(1, 10),
    about: 'most bettors on one seat',
    profiles: {
      'macau-2009': [3, m9('art.20 n.1 (2)')],
      'macau-2004': [3, m4('art.20 n.1 (2)')],
      'portugal-2001': [10, pt('rule 15 (limited by the table maximum)')],
    },
  } as OptionDef<number>,
  behindFollows: {
    spec: e('always', 'bettor-chooses'),
    about: 'back bets on a split or double: always follow the deciding player, or each bettor chooses (if not, a split back bet rides on the first hand)',
    profiles: {
      'macau-2009': ['always', m9("art.20 (interpretation: the decision is the seat's)")],
      'macau-2004': ['always', m4('art.20 (interpretation)')],
      'portugal-2001': ['bettor-chooses', pt('rules 15, 28, 30'), ['bettor-chooses']],
    },
  } as OptionDef<string>,
  oneSideBetPerPlayer: {
    spec: bool,
    about: 'a player may place only one of the additional bets of Art. 13 per seat and round',
    profiles: {
      'macau-2009': [false, m9('art.13 ("uma das seguintes apostas"; read as a choice of bet type, see docs)')],
      'macau-2004': [false, m4('art.13')],
      'portugal-2001': [false, pt('(no such side bets)')],
    },
  } as OptionDef<boolean>,
  anyPair: {
    spec: bool,
    about: 'any pair side bet, 11:1, including pairs formed after splits',
    profiles: {
      'macau-2009': [true, m9('art.13 1), art.14 n.1')],
      'macau-2004': [true, m4('art.13 1), art.14 n.1')],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  sevens: {
    spec: bool,
    about: 'sevens side bet 50/150/500/5000',
    profiles: {
      'macau-2009': [true, m9('art.13 2), art.14 n.2')],
      'macau-2004': [true, m4('art.13 2), art.14 n.2')],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  overUnder13: {
    spec: bool,
    about: 'over/under 13 side bet, 1:1 (13 loses both)',
    profiles: {
      'macau-2009': [true, m9('art.13 3), art.14 n.3')],
      'macau-2004': [true, m4('art.13 3), art.14 n.3')],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  overUnderAceValue: {
    spec: int(1, 11),
    about: 'value of an ace in the over/under 13 total (text silent; 1 is the usual table reading)',
    profiles: {
      'macau-2009': [1, m9('art.13 3) (interpretation)'), [1, 11]],
      'macau-2004': [1, m4('art.13 3) (interpretation)'), [1, 11]],
      'portugal-2001': [1, pt('(not in the text)'), [1, 11]],
    },
  } as OptionDef<number>,
  perfectPairs: {
    spec: bool,
    about: 'perfect pairs side bet 5/12/25 (needs DICJ authorisation)',
    profiles: {
      'macau-2009': [false, m9('art.13 4), art.14 n.4, art.21 n.3')],
      'macau-2004': [false, m4('(not in the text)'), [false]],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  winningStreak: {
    spec: bool,
    about: 'winning streak bets 2/3/4/5 paying 3/8/18/38 (needs DICJ authorisation)',
    profiles: {
      'macau-2009': [false, m9('art.13 5), art.14 n.5, art.21 n.3')],
      'macau-2004': [false, m4('(not in the text)'), [false]],
      'portugal-2001': [false, pt('(not in the text)'), [false]],
    },
  } as OptionDef<boolean>,
  jackpot: {
    spec: bool,
    about: 'progressive jackpot side bet on the first 2-4 cards of each hand',
    profiles: {
      'macau-2009': [false, m9('(not in the text)'), [false]],
      'macau-2004': [false, m4('(not in the text)'), [false]],
      'portugal-2001': [false, pt('rules 38-39')],
    },
  } as OptionDef<boolean>,
  jackpotCards: {
    spec: int(2, 4),
    about: 'cards of each hand (split hands included) the jackpot looks at',
    profiles: {
      'macau-2009': [4, m9('(not in the text)')],
      'macau-2004': [4, m4('(not in the text)')],
      'portugal-2001': [4, pt('rules 42, 46')],
    },
  } as OptionDef<number>,
  authorisation: {
    spec: str,
    about: "reference of the regulator's prior authorisation of the options chosen",
    profiles: {
      'macau-2009': ['', m9('art.21')],
      'macau-2004': ['', m4('(none)')],
      'portugal-2001': ['', pt('rules 38, 40')],
    },
  } as OptionDef<string>,
} as const;

export type OptionKey = keyof typeof OPTIONS;
export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[];

export interface BlackjackRules {
  readonly profile: ProfileId;
  readonly decks: number;
  readonly shuffler: 'manual' | 'automatic' | 'continuous';
  readonly cutCardFromEnd: number;
  readonly cutCardMiddleWithOnePlayer: boolean;
  readonly burnAtShoeStart: 'decks' | 'one' | 'none';
  readonly burnEachRound: boolean;
  readonly burnBeforeDealerSecond: boolean;
  readonly dealProcedure: 'macau-1' | 'macau-2' | 'macau-3' | 'portugal-17';
  readonly holeCard: 'none' | 'peek' | 'no-peek';
  readonly exposedFirstCardValid: boolean;
  readonly playerCardsFaceUp: boolean;
  readonly dealerSoft17: 'stand' | 'hit' | 'hit-ace-six';
  readonly dealerDrawsWhenAllLost: boolean;
  readonly dealerBlackjackTakes: 'original-only' | 'doubles-original-only' | 'all';
  readonly blackjackPays: '3:2';
  readonly evenMoney: 'none' | 'vs-ace' | 'vs-ace-or-ten';
  readonly insuranceMax: 'half' | 'full';
  readonly insuranceMin: 'any' | 'half';
  readonly doubleOn: 'any-two' | 'nine-to-eleven' | 'ten-eleven' | 'eleven';
  readonly doubleAfterSplit: boolean;
  readonly doubleSplitAces: boolean;
  readonly softDoubleAceLocked: boolean;
  readonly maxHands: number;
  readonly resplit: boolean;
  readonly resplitAfterDecline: boolean;
  readonly resplitAces: boolean;
  readonly splitPairsBy: 'rank' | 'value';
  readonly surrender: 'none' | 'not-vs-ace' | 'late';
  readonly fiveCardHalfPay: boolean;
  readonly bonus678: 'none' | 'replaces-main' | 'in-addition';
  readonly minStandTotal: number;
  readonly minBet: number;
  readonly betInMultiplesOfMinimum: boolean;
  readonly maxBetMultiple: number;
  readonly seats: number;
  readonly betBehind: 'seated' | 'seated-or-nearest' | 'highest-bet' | 'seated-else-highest';
  readonly maxBettorsPerSeat: number;
  readonly behindFollows: 'always' | 'bettor-chooses';
  readonly oneSideBetPerPlayer: boolean;
  readonly anyPair: boolean;
  readonly sevens: boolean;
  readonly overUnder13: boolean;
  readonly overUnderAceValue: number;
  readonly perfectPairs: boolean;
  readonly winningStreak: boolean;
  readonly jackpot: boolean;
  readonly jackpotCards: number;
  readonly authorisation: string;
}

type RulesValues = Omit<BlackjackRules, 'profile'>;
// Compile-time check that the option table and the interface name the same keys.
type _SameKeys = [OptionKey] extends [keyof RulesValues] ? ([keyof RulesValues] extends [OptionKey] ? true : never) : never;
const _sameKeys: _SameKeys = true;
void _sameKeys;

export class RulesError extends Error {}

export function isProfileId(s: string): s is ProfileId {
  return (PROFILE_IDS as readonly string[]).includes(s);
}

export function isRegulated(profile: ProfileId): profile is RegulatedProfileId {
  return profile !== GENERIC_PROFILE;
}

/** Where the generic profile starts from: Macau 2009's values, none of its limits. */
const GENERIC_BASE: RegulatedProfileId = 'macau-2009';

function describeSpec(spec: Spec): string {
  switch (spec.kind) {
    case 'enum':
      return spec.values.join(' | ');
    case 'int':
      return `an integer ${spec.min}–${spec.max}`;
    case 'bool':
      return 'true | false';
    case 'string':
      return 'text';
  }
}

/** Parses a `--set key=value` text value into the option's type, or throws RulesError. */
export function parseOptionValue(key: string, text: string): unknown {
  const def = (OPTIONS as Record<string, OptionDef<unknown>>)[key];
  if (!def) throw new RulesError(`unknown rule option "${key}"; known: ${OPTION_KEYS.join(', ')}`);
  switch (def.spec.kind) {
    case 'int': {
      if (!/^-?\d+$/.test(text)) throw new RulesError(`${key} must be ${describeSpec(def.spec)}, got "${text}"`);
      return Number(text);
    }
    case 'bool':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw new RulesError(`${key} must be true | false, got "${text}"`);
    default:
      return text;
  }
}

function checkValue(key: OptionKey, value: unknown, profile: ProfileId): void {
  const def = OPTIONS[key] as OptionDef<unknown>;
  const spec = def.spec;
  const ok =
    spec.kind === 'enum'
      ? typeof value === 'string' && spec.values.includes(value)
      : spec.kind === 'int'
        ? typeof value === 'number' && Number.isInteger(value) && value >= spec.min && value <= spec.max
        : spec.kind === 'bool'
          ? typeof value === 'boolean'
          : typeof value === 'string';
  if (!ok) throw new RulesError(`${key} must be ${describeSpec(spec)}, got ${JSON.stringify(value)}`);
  if (!isRegulated(profile)) return;
  const allowed = def.profiles[profile][2];
  if (allowed && !allowed.includes(value)) {
    throw new RulesError(
      `${key}=${JSON.stringify(value)} is not allowed by ${def.profiles[profile][1]}; allowed: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  }
}

/** Profile defaults with validated overrides; cross-option consistency is checked too. */
export function resolveRules(profile: ProfileId, overrides: Readonly<Record<string, unknown>> = {}): BlackjackRules {
  if (!isProfileId(profile)) throw new RulesError(`unknown profile "${String(profile)}"; known: ${PROFILE_IDS.join(', ')}`);
  const out: Record<string, unknown> = { profile };
  const base = isRegulated(profile) ? profile : GENERIC_BASE;
  for (const key of OPTION_KEYS) out[key] = (OPTIONS[key] as OptionDef<unknown>).profiles[base][0];
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in OPTIONS)) throw new RulesError(`unknown rule option "${key}"; known: ${OPTION_KEYS.join(', ')}`);
    checkValue(key as OptionKey, value, profile);
    out[key] = value;
  }
  // Procedure 3 gives the player up to five hands (art.5 n.2 (3)(7)): the default follows it.
  if (isRegulated(profile) && out.dealProcedure === 'macau-3' && !('maxHands' in overrides)) out.maxHands = 5;
  const r = out as unknown as BlackjackRules;
  checkConsistency(r);
  return r;
}

function checkConsistency(r: BlackjackRules): void {
  if (isRegulated(r.profile) && r.dealProcedure === 'macau-3' && r.maxHands < 5) {
    throw new RulesError(`maxHands=${r.maxHands}: with procedure 3 the player may split up to four times, making five hands (${r.profile} art.5 n.2 (3)(7))`);
  }
  if (r.dealProcedure === 'macau-3' && r.holeCard !== 'peek') {
    throw new RulesError('dealProcedure=macau-3 (hole card) needs holeCard=peek (art.5 n.2 (3)(3))');
  }
  if ((r.dealProcedure === 'macau-1' || r.dealProcedure === 'macau-2') && r.holeCard === 'peek') {
    throw new RulesError('holeCard=peek is procedure 3: set dealProcedure=macau-3 (art.5 n.2 (3))');
  }
  if (r.dealProcedure === 'macau-2' && r.holeCard !== 'none') {
    throw new RulesError("dealProcedure=macau-2 deals the dealer's second card after the players (holeCard=none)");
  }
  if (r.burnBeforeDealerSecond && !r.burnEachRound) {
    throw new RulesError('burnBeforeDealerSecond needs burnEachRound (art.4 n.2: "uma carta no início de cada jogada seguinte e outra…")');
  }
  if (r.burnBeforeDealerSecond && r.holeCard !== 'none') {
    throw new RulesError("burnBeforeDealerSecond burns before the dealer's second face-up card: it needs holeCard=none");
  }
  if (r.cutCardFromEnd >= r.decks * 52) throw new RulesError(`cutCardFromEnd ${r.cutCardFromEnd} must be below the ${r.decks * 52} cards of the shoe`);
  if (r.profile !== 'portugal-2001' && r.cutCardFromEnd < 30) {
    throw new RulesError('cutCardFromEnd must leave at least the last 30 cards (art.2 n.1 (1))');
  }
}

/** Every option's value and the article it comes from, for `--print-rules` and the docs. */
export function describeRules(r: BlackjackRules): Record<OptionKey, { value: unknown; article: string; about: string }> {
  const out = {} as Record<OptionKey, { value: unknown; article: string; about: string }>;
  for (const key of OPTION_KEYS) {
    const def = OPTIONS[key] as OptionDef<unknown>;
    const value = r[key];
    if (!isRegulated(r.profile)) {
      out[key] = { value, article: `${GENERIC_PROFILE} (no text: free for analysis)`, about: def.about };
      continue;
    }
    const [dflt, article] = def.profiles[r.profile];
    out[key] = { value, article: value === dflt ? article : `${article} (override)`, about: def.about };
  }
  return out;
}

/** The spec of an option (for tools listing what can be set). */
export function optionSpec(key: OptionKey): { spec: Spec; about: string } {
  const def = OPTIONS[key] as OptionDef<unknown>;
  return { spec: def.spec, about: def.about };
}

/** Article prefix for settlement references of a profile: `macau-2009 art.10 n.5`. */
export function ruleRef(profile: ProfileId, macau: string, portugal: string): string {
  if (!isRegulated(profile)) return profile;
  return profile === 'portugal-2001' ? `portugal-2001 ${portugal}` : `${profile} ${macau}`;
}
