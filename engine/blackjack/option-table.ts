/**
 * Blackjack's rule options as data: every option declared once with its type and, per profile,
 * its default, the article of the text it comes from and its class (engine/table/rule-options.ts).
 * The guard, the resolved rules and their descriptions are rules.ts.
 */
import type { FieldCatalogue, FieldSpec } from '../table/field-options.js';
import type { OptionRule } from '../table/rule-options.js';

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

export type EnumSpec<V extends string> = { readonly kind: 'enum'; readonly values: readonly V[] };
export type IntSpec = { readonly kind: 'int'; readonly min: number; readonly max: number };
export type BoolSpec = { readonly kind: 'bool' };
export type StringSpec = { readonly kind: 'string' };
/** An option's type: the one spec of every game's options (engine/table/field-options.ts). */
export type Spec = FieldSpec;

/**
 * What a profile's text says of an option (engine/table/rule-options.ts): its default, the article,
 * its class, the other values it takes and what each is, the bounds of a number, and whether a
 * value other than the default needs the regulator's authorisation reference (the article that
 * requires it; null for a reading awaiting the regulator).
 */
export type ProfileRule<T> = OptionRule<T>;

export interface OptionDef<T> {
  readonly spec: Spec;
  readonly about: string;
  readonly rules: Readonly<Record<RegulatedProfileId, ProfileRule<T>>>;
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

/** Macau 2009 Art. 21 n.1: the casino's choice of the options of Arts. 1–6, 13, 14, 16, 17, 20, 10 n.7 and 12 n.1 needs DICJ prior authorisation. */
const AUTH9 = m9('art.21 n.1');

/** The text fixes the value; `null` article: the text has no such thing, and the option stays off. */
function fixed<T>(value: T, article: string | null): ProfileRule<T> {
  return { value, article, class: 'fixed' };
}
/** One of the alternatives the text lists (`auth`: the article requiring the authorisation reference, if any). */
function choice<T>(value: T, article: string, others: readonly T[], auth: string | null): ProfileRule<T> {
  return {
    value,
    article,
    class: 'choice',
    alternatives: others.map((v) => ({ value: v, kind: 'choice' })),
    ...(auth ? { authorisation: { article: auth } } : {}),
  };
}
/** A number the text lets the casino choose within bounds. */
function chooseIn(value: number, article: string, min: number, max: number, auth: string | null): ProfileRule<number> {
  return { value, article, class: 'choice', range: { min, max }, ...(auth ? { authorisation: { article: auth } } : {}) };
}
/** A value the casino sets (no authorisation), within bounds where the text gives them. */
function operator<T>(value: T, article: string | null, range?: { min: number; max: number }): ProfileRule<T> {
  return { value, article, class: 'operator', ...(range ? { range } : {}) };
}
/** The text's value, which the casino may waive with authorisation (Macau 2009 Art. 21 n.2); readings of it await the regulator. */
function waivable<T>(value: T, article: string, waived: readonly T[], auth: string, readings: readonly T[] = []): ProfileRule<T> {
  return {
    value,
    article,
    class: 'waivable',
    alternatives: [...waived.map((v) => ({ value: v, kind: 'waiver' as const })), ...readings.map((v) => ({ value: v, kind: 'interpretation' as const }))],
    authorisation: { article: auth },
  };
}
/** A text silent or ambiguous: the literal reading is the default, the others await the regulator's view. */
function reading<T>(value: T, article: string | null, others: readonly T[]): ProfileRule<T> {
  return { value, article, class: 'interpretation', alternatives: others.map((v) => ({ value: v, kind: 'interpretation' })), authorisation: { article: null } };
}

export const OPTIONS = {
  decks: {
    spec: int(1, 8),
    about: 'number of 52-card decks in the shoe',
    rules: {
      'macau-2009': chooseIn(6, m9('art.1 2)'), 1, 8, AUTH9),
      'macau-2004': chooseIn(6, m4('art.1 2)'), 1, 8, null),
      'portugal-2001': choice(6, pt('rule 3'), [4], null),
    },
  } as OptionDef<number>,
  shuffler: {
    spec: e('manual', 'automatic', 'continuous'),
    about: 'manual shuffle with cut card; automatic shuffler-dealer (one shoe); continuous shuffler (cards back after each round)',
    rules: {
      // Macau's automatic shuffler-dealer takes the cards back after every round (Art. 2 n.2 4)): continuous.
      'macau-2009': choice('manual', m9('art.1 3)-4), art.2 n.1, n.2 4)'), ['continuous'], AUTH9),
      'macau-2004': choice('manual', m4('art.1 3)-4), art.2 n.1, n.2 4)'), ['continuous'], null),
      'portugal-2001': choice('manual', pt('rules 8-11, 51-61'), ['automatic', 'continuous'], null),
    },
  } as OptionDef<string>,
  cutCardFromEnd: {
    spec: int(1, 416),
    about: 'cards behind the cut card (second white card / carta-aviso)',
    rules: {
      'macau-2009': operator(60, m9('art.2 n.1 1): among the last 30 cards or more'), { min: 30, max: 416 }),
      'macau-2004': operator(60, m4('art.2 n.1 1): among the last 30 cards or more'), { min: 30, max: 416 }),
      'portugal-2001': fixed(50, pt('rule 9: as near as possible to the 50th card from the end')),
    },
  } as OptionDef<number>,
  cutCardMiddleWithOnePlayer: {
    spec: bool,
    about: 'with a single player at the table the cut card goes in the middle of the shoe',
    rules: {
      'macau-2009': fixed(false, null),
      'macau-2004': fixed(false, null),
      'portugal-2001': fixed(true, pt('rule 9')),
    },
  } as OptionDef<boolean>,
  burnAtShoeStart: {
    spec: e('decks', 'one', 'none'),
    about: 'cards burnt before the first round of a shoe: as many as decks, one, or none',
    rules: {
      'macau-2009': choice('decks', m9('art.4 n.1 1)-2)'), ['one'], AUTH9),
      'macau-2004': choice('decks', m4('art.4 n.1 1)-2)'), ['one'], null),
      'portugal-2001': fixed('one', pt('rule 10')),
    },
  } as OptionDef<string>,
  burnEachRound: {
    spec: bool,
    about: 'one card burnt at the start of each following round (shoe or shuffler)',
    rules: {
      'macau-2009': choice(false, m9('art.4 n.2'), [true], AUTH9),
      'macau-2004': choice(false, m4('art.4 n.2'), [true], null),
      'portugal-2001': fixed(false, pt('rule 10 (start of shoe only)')),
    },
  } as OptionDef<boolean>,
  burnBeforeDealerSecond: {
    spec: bool,
    about: "one card burnt before the dealer's second (face-up) card; only together with burnEachRound",
    rules: {
      'macau-2009': choice(false, m9('art.4 n.2'), [true], AUTH9),
      'macau-2004': choice(false, m4('art.4 n.2'), [true], null),
      'portugal-2001': fixed(false, pt('rule 10')),
    },
  } as OptionDef<boolean>,
  dealProcedure: {
    spec: e('macau-1', 'macau-2', 'macau-3', 'portugal-17'),
    about: 'dealing procedure: Macau Art. 5 n.2 procedures 1 (players face down), 2 (face up), 3 (hole card); Portugal rule 17',
    rules: {
      'macau-2009': choice('macau-1', m9('art.5 n.2'), ['macau-2', 'macau-3'], AUTH9),
      'macau-2004': choice('macau-1', m4('art.5 n.2'), ['macau-2'], null),
      'portugal-2001': fixed('portugal-17', pt('rule 17')),
    },
  } as OptionDef<string>,
  holeCard: {
    spec: e('none', 'peek', 'no-peek'),
    about:
      "none: dealer's second card after the players; peek: hole card checked for Black Jack on A/ten up; no-peek: hole card dealt face down and turned after the players (Portugal rule 17, Macau metal box)",
    rules: {
      'macau-2009': choice('none', m9('art.5 n.2 1)-3)'), ['no-peek', 'peek'], AUTH9),
      'macau-2004': choice('none', m4('art.5 n.2 1)-2)'), ['no-peek'], null),
      'portugal-2001': fixed('no-peek', pt('rule 17')),
    },
  } as OptionDef<string>,
  exposedFirstCardValid: {
    spec: bool,
    about: 'a card that comes out face up is void, except (by this option) the first card of the game',
    rules: {
      'macau-2009': choice(false, m9('art.5 n.1 1)'), [true], AUTH9),
      'macau-2004': choice(false, m4('art.5 n.1 1)'), [true], null),
      'portugal-2001': fixed(false, pt('rule 17 (a turned dealer card goes to the discards)')),
    },
  } as OptionDef<boolean>,
  playerCardsFaceUp: {
    spec: bool,
    about: "players' first two cards dealt face up: procedure 1 deals them face down, procedure 2 face up, procedure 3 either (Art. 5 n.2 3)(5))",
    rules: {
      'macau-2009': choice(false, m9('art.5 n.2 1)-3)'), [true], AUTH9),
      'macau-2004': choice(false, m4('art.5 n.2 1)-2)'), [true], null),
      'portugal-2001': fixed(true, pt('rule 17')),
    },
  } as OptionDef<boolean>,
  dealerSoft17: {
    spec: e('stand', 'hit', 'hit-ace-six'),
    about: "dealer on soft 17: stand, hit every soft 17, or hit only the literal 2009 'Soft 17' (a hand holding a 6 and an ace, i.e. exactly A-6)",
    rules: {
      'macau-2009': reading('hit-ace-six', m9('art.6 1), 6)'), ['hit']),
      'macau-2004': fixed('stand', m4('art.6 1)')),
      'portugal-2001': fixed('stand', pt('rules 6 a), 19')),
    },
  } as OptionDef<string>,
  dealerDrawsWhenAllLost: {
    spec: bool,
    about: 'dealer still draws when every hand has busted, surrendered or been paid (only cards that decide a pending bet are drawn otherwise)',
    rules: {
      // Kept at the practical reading (rule 22's): the cards it would draw decide no bet. See docs/rules/blackjack.md.
      'macau-2009': reading(false, m9('art.6 1), art.7 n.1'), [true]),
      'macau-2004': reading(false, m4('art.6 1), art.7 n.1'), [true]),
      'portugal-2001': fixed(false, pt('rule 22')),
    },
  } as OptionDef<boolean>,
  dealerBlackjackTakes: {
    spec: e('original-only', 'doubles-original-only', 'all'),
    about: 'against a dealer Black Jack found after the players acted: doubles and splits lose only the original bet, only doubles do, or everything is lost',
    rules: {
      'macau-2009': fixed('original-only', m9('art.16 n.6, art.17 n.3')),
      // 2004 has only the bank's offer of Art. 10 n.7 ("pode oferecer"), for doubles: the casino's choice.
      'macau-2004': choice('doubles-original-only', m4('art.10 n.7'), ['all'], null),
      'portugal-2001': fixed('all', pt('rules 21-23 (no limitation in the text)')),
    },
  } as OptionDef<string>,
  elevenDoubleOriginalOnly: {
    spec: bool,
    about:
      "with doubles on 11 only (doubleOn=eleven, Macau 2009 Art. 17 n.1 3)), a double loses only the original bet to a dealer Black Jack: the house's offer of Art. 10 n.7, not Art. 17 n.3 (which covers modalities 1) and 2) only)",
    rules: {
      // «a banca pode oferecer»: the house's option, listed in Art. 21 n.1 («n.º 7 do artigo 10.º»); off unless authorised.
      'macau-2009': choice(false, m9('art.10 n.7'), [true], AUTH9),
      // 2004 has no Art. 17 n.3: every double's limited loss is its Art. 10 n.7 offer, chosen once by dealerBlackjackTakes.
      'macau-2004': fixed(true, m4('art.10 n.7 (every double alike: dealerBlackjackTakes)')),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  blackjackPays: {
    spec: e('3:2'),
    about: 'Black Jack pays one and a half times the bet',
    rules: {
      'macau-2009': fixed('3:2', m9('art.10 n.2')),
      'macau-2004': fixed('3:2', m4('art.10 n.2')),
      'portugal-2001': fixed('3:2', pt('rule 21')),
    },
  } as OptionDef<string>,
  evenMoney: {
    spec: e('none', 'vs-ace', 'vs-ace-or-ten'),
    about: 'a player with Black Jack may take 1:1 at once when the dealer shows an ace (or a ten-value card)',
    rules: {
      // The player's right, fixed by the text (Macau 2009 Art. 21 n.2 lets only Arts. 15 and 18 be waived).
      'macau-2009': fixed('vs-ace-or-ten', m9('art.10 n.3')),
      'macau-2004': fixed('vs-ace-or-ten', m4('art.10 n.3')),
      'portugal-2001': fixed('vs-ace', pt('rule 34')),
    },
  } as OptionDef<string>,
  insuranceMax: {
    spec: e('half', 'full'),
    about: 'largest insurance bet: half the main bet or the full main bet; pays 2:1',
    rules: {
      // "cabendo à banca decidir aceitar o valor da aposta": the bank decides how much it takes, up to the full bet.
      'macau-2009': choice('full', m9('art.12 n.1'), ['half'], AUTH9),
      'macau-2004': choice('full', m4('art.12 n.1'), ['half'], null),
      'portugal-2001': fixed('half', pt('rule 33')),
    },
  } as OptionDef<string>,
  insuranceMin: {
    spec: e('any', 'half'),
    about: 'smallest insurance bet: any amount, or half the main bet (Macau: "de metade até ao valor total")',
    rules: {
      'macau-2009': fixed('half', m9('art.12 n.1')),
      'macau-2004': fixed('half', m4('art.12 n.1')),
      'portugal-2001': fixed('any', pt('rule 33')),
    },
  } as OptionDef<string>,
  doubleOn: {
    spec: e('any-two', 'nine-to-eleven', 'ten-eleven', 'eleven'),
    about: 'first two cards a player may double on',
    rules: {
      'macau-2009': choice('any-two', m9('art.17 n.1 1)-3)'), ['eleven'], AUTH9),
      'macau-2004': choice('any-two', m4('art.17 1)-2)'), ['eleven'], null),
      'portugal-2001': fixed('nine-to-eleven', pt('rule 29')),
    },
  } as OptionDef<string>,
  doubleAfterSplit: {
    spec: bool,
    about: 'double on the first two cards of a split hand (never on split aces unless doubleSplitAces)',
    rules: {
      'macau-2009': choice(true, m9('art.17 n.1 2)'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.17 1)'), [false], null),
      'portugal-2001': fixed(true, pt('rule 31')),
    },
  } as OptionDef<boolean>,
  doubleSplitAces: {
    spec: bool,
    about: 'double allowed on split aces (Macau Art. 17 n.1 2) excludes them)',
    rules: {
      'macau-2009': fixed(false, m9('art.17 n.1 2), art.16 n.3')),
      'macau-2004': fixed(false, m4('art.16 n.3')),
      'portugal-2001': fixed(false, pt('rule 26 (one card to each split ace)')),
    },
  } as OptionDef<boolean>,
  softDoubleAceLocked: {
    spec: bool,
    about: 'an ace doubled as 1 (A-8 as 9, A-9 as 10) stays 1 until the end; without it such hands may not double on 9-11 rules',
    rules: {
      'macau-2009': fixed(false, m9("art.8 (ace 1 or 11 at the player's choice)")),
      'macau-2004': fixed(false, m4('art.8')),
      'portugal-2001': fixed(true, pt('rule 32')),
    },
  } as OptionDef<boolean>,
  maxHands: {
    spec: int(1, 99),
    about: 'most hands a seat may hold by splitting (1 = no split)',
    rules: {
      // "até quatro ou mais mãos": four or more, the casino's choice; five with procedure 3.
      'macau-2009': chooseIn(4, m9('art.16 n.1; art.5 n.2 3)(7): five hands with procedure 3'), 4, 99, AUTH9),
      'macau-2004': chooseIn(4, m4('art.16 n.1'), 4, 99, null),
      'portugal-2001': fixed(99, pt('rules 26-27 (no limit in the text)')),
    },
  } as OptionDef<number>,
  resplit: {
    spec: bool,
    about: 'a split hand that receives a card of the same value may be split again',
    rules: {
      'macau-2009': choice(true, m9('art.16 n.5'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.16 n.5'), [false], null),
      'portugal-2001': fixed(true, pt('rule 27')),
    },
  } as OptionDef<boolean>,
  resplitAfterDecline: {
    spec: bool,
    about: 'a player who declined to split a pair formed after a split may still split a later one',
    rules: {
      'macau-2009': fixed(false, m9('art.16 n.5 ("a não ser que, anteriormente, tenha já decidido não separar")')),
      'macau-2004': fixed(false, m4('art.16 n.5')),
      'portugal-2001': fixed(true, pt('rule 27 (no such limit)')),
    },
  } as OptionDef<boolean>,
  resplitAces: {
    spec: bool,
    about: 'split aces that receive an ace may be split again',
    rules: {
      'macau-2009': choice(true, m9('art.16 n.3'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.16 n.3'), [false], null),
      'portugal-2001': fixed(true, pt('rule 27')),
    },
  } as OptionDef<boolean>,
  splitPairsBy: {
    spec: e('rank', 'value'),
    about: 'what makes a splittable pair: same value (J-Q, Art. 16 n.5 "carta de valor igual") or same rank (J-J only, as Art. 13 1)(1) defines a pair)',
    rules: {
      'macau-2009': reading('value', m9('art.16 n.1, n.5 ("carta de valor igual")'), ['rank']),
      'macau-2004': reading('value', m4('art.16 n.1, n.5'), ['rank']),
      'portugal-2001': fixed('value', pt('rule 26 ("tenham o mesmo valor")')),
    },
  } as OptionDef<string>,
  surrender: {
    spec: e('none', 'not-vs-ace', 'late'),
    about: "surrender half the bet: never, or not against an ace; 'late' (against an ace too) is for analysis only",
    rules: {
      // Never against an ace (Art. 18 n.1, rule 36); Macau 2009 may waive surrender altogether (Art. 21 n.2).
      'macau-2009': waivable('not-vs-ace', m9('art.18 n.1'), ['none'], m9('art.21 n.2')),
      'macau-2004': fixed('not-vs-ace', m4('art.18 n.1')),
      'portugal-2001': fixed('not-vs-ace', pt('rule 36')),
    },
  } as OptionDef<string>,
  surrenderMoment: {
    spec: e('before-additional-cards', 'hand-first-decision'),
    about:
      "when surrender may be decided: before the dealer deals any additional card at the table (the texts' words), or as each hand's own first decision whatever the hands before it drew",
    rules: {
      'macau-2009': reading('before-additional-cards', m9('art.18 n.2'), ['hand-first-decision']),
      'macau-2004': reading('before-additional-cards', m4('art.18 n.2'), ['hand-first-decision']),
      'portugal-2001': reading('before-additional-cards', pt('rule 36 (and the 2001 preamble)'), ['hand-first-decision']),
    },
  } as OptionDef<string>,
  fiveCardHalfPay: {
    spec: bool,
    about: 'a hand of five cards totalling 21 or less may take half its bet, unless the dealer shows an ace',
    rules: {
      'macau-2009': fixed(true, m9('art.19')),
      'macau-2004': fixed(true, m4('art.19')),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  bonus678: {
    spec: e('none', 'replaces-main', 'in-addition'),
    about: 'special prize 3x the bet for 6-7-8 suited or 7-7-7 as a three-card hand: paid at once instead of the main result, or on top of it',
    rules: {
      // 'in-addition' is a reading of Art. 15 awaiting the regulator (docs/rules/blackjack.md); only 2009 may waive the prize (Art. 21 n.2).
      'macau-2009': waivable('replaces-main', m9('art.15'), ['none'], m9('art.21 n.2'), ['in-addition']),
      'macau-2004': reading('replaces-main', m4('art.15'), ['in-addition']),
      'portugal-2001': fixed('in-addition', pt('rule 35: "sem prejuízo do prémio"')),
    },
  } as OptionDef<string>,
  minStandTotal: {
    spec: int(0, 21),
    about: 'lowest total a player may stand on (0 = any)',
    rules: {
      'macau-2009': fixed(0, m9('art.6 2)')),
      'macau-2004': fixed(0, m4('art.6 2)')),
      'portugal-2001': fixed(12, pt('rule 18: may stand only above 11')),
    },
  } as OptionDef<number>,
  minBet: {
    spec: int(0, 1_000_000_000),
    about: 'table minimum in minor units, checked by the scripted round (0 = not checked; the live table checks its configured limits)',
    rules: {
      'macau-2009': operator(0, null),
      'macau-2004': operator(0, null),
      'portugal-2001': operator(0, pt('rule 14')),
    },
  } as OptionDef<number>,
  betInMultiplesOfMinimum: {
    spec: bool,
    about: 'every bet equal to the minimum or a multiple of it',
    rules: {
      'macau-2009': operator(false, null),
      'macau-2004': operator(false, null),
      'portugal-2001': fixed(true, pt('rule 14')),
    },
  } as OptionDef<boolean>,
  maxBetMultiple: {
    spec: int(0, 100_000),
    about: 'largest main bet as a multiple of the minimum (0 = no limit from the rules)',
    rules: {
      'macau-2009': operator(0, null),
      'macau-2004': operator(0, null),
      'portugal-2001': operator(30, pt('rule 37'), { min: 1, max: 30 }),
    },
  } as OptionDef<number>,
  seats: {
    spec: int(1, 7),
    about: 'betting spots at the table',
    rules: {
      'macau-2009': operator(7, m9('art.1 1), art.3 n.1 (six or more)'), { min: 6, max: 7 }),
      'macau-2004': operator(7, m4('art.1 1), art.3 n.1 (six or more)'), { min: 6, max: 7 }),
      'portugal-2001': choice(7, pt('rule 2 (six or seven)'), [6], null),
    },
  } as OptionDef<number>,
  betBehind: {
    spec: e('seated', 'seated-or-nearest', 'highest-bet', 'seated-else-highest'),
    about: 'who decides for a seat with several bets (Macau Art. 20 n.1 alternatives 1)-3); Portugal rules 15-16)',
    rules: {
      'macau-2009': choice('seated', m9('art.20 n.1 1)-3)'), ['seated-or-nearest', 'highest-bet'], AUTH9),
      'macau-2004': choice('seated', m4('art.20 n.1 1)-3)'), ['seated-or-nearest', 'highest-bet'], null),
      'portugal-2001': fixed('seated-else-highest', pt('rules 15-16')),
    },
  } as OptionDef<string>,
  maxBettorsPerSeat: {
    spec: int(1, 10),
    about: 'most bettors on one seat',
    rules: {
      // Only 2) names a number; a table on it is held to three by rules.ts's consistency check.
      'macau-2009': operator(3, m9('art.20 n.1 (alternative 2) alone names a number: at most three)'), { min: 1, max: 10 }),
      'macau-2004': operator(3, m4('art.20 n.1 (alternative 2) alone names a number: at most three)'), { min: 1, max: 10 }),
      'portugal-2001': operator(10, pt('rule 15 (no number: a seat is limited by the table maximum)'), { min: 1, max: 10 }),
    },
  } as OptionDef<number>,
  behindFollows: {
    spec: e('always', 'bettor-chooses'),
    about: 'back bets on a split or double: always follow the deciding player, or each bettor chooses (if not, a split back bet rides on the first hand)',
    rules: {
      'macau-2009': fixed('always', m9('art.20 n.1 1)-3) (one player decides the play for the seat)')),
      'macau-2004': fixed('always', m4('art.20 n.1 1)-3) (one player decides the play for the seat)')),
      'portugal-2001': fixed('bettor-chooses', pt('rules 15, 28, 30')),
    },
  } as OptionDef<string>,
  behindShortOfCredit: {
    spec: e('stays-out', 'decision-refused'),
    about:
      "a bettor behind who cannot cover its share of the seat's double or split: its bet stays out of it (settled as Portugal rules 28, 30), or the seat's decision is refused",
    rules: {
      // Art. 20 makes the decision the seated player's; it is silent on a bet behind that cannot follow it.
      'macau-2009': reading('stays-out', m9('art.20 n.1 (silent; as portugal-2001 rules 28, 30)'), ['decision-refused']),
      'macau-2004': reading('stays-out', m4('art.20 n.1 (silent; as portugal-2001 rules 28, 30)'), ['decision-refused']),
      'portugal-2001': fixed('stays-out', pt('rules 28, 30')),
    },
  } as OptionDef<string>,
  oneSideBetPerPlayer: {
    spec: bool,
    about: 'a player may place only one of the additional bets of Art. 13 per seat and round ("uma das seguintes apostas")',
    rules: {
      'macau-2009': reading(true, m9('art.13 ("uma das seguintes apostas")'), [false]),
      'macau-2004': reading(true, m4('art.13 ("uma das seguintes apostas")'), [false]),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  anyPair: {
    spec: bool,
    about: 'any pair side bet, 11:1, including pairs formed after splits',
    rules: {
      'macau-2009': choice(true, m9('art.13 1), art.14 n.1'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.13 1), art.14 n.1'), [false], null),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  sevens: {
    spec: bool,
    about: 'sevens side bet 50/150/500/5000',
    rules: {
      'macau-2009': choice(true, m9('art.13 2), art.14 n.2'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.13 2), art.14 n.2'), [false], null),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  overUnder13: {
    spec: bool,
    about: 'over/under 13 side bet, 1:1 (13 loses both)',
    rules: {
      'macau-2009': choice(true, m9('art.13 3), art.14 n.3'), [false], AUTH9),
      'macau-2004': choice(true, m4('art.13 3), art.14 n.3'), [false], null),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  overUnderAceValue: {
    spec: int(1, 11),
    about: 'value of an ace in the over/under 13 total (text silent; 1 is the usual table reading)',
    rules: {
      'macau-2009': reading(1, m9('art.13 3)'), [11]),
      'macau-2004': reading(1, m4('art.13 3)'), [11]),
      'portugal-2001': fixed(1, null),
    },
  } as OptionDef<number>,
  perfectPairs: {
    spec: bool,
    about: 'perfect pairs side bet 5/12/25 (needs DICJ authorisation)',
    rules: {
      'macau-2009': choice(false, m9('art.13 4), art.14 n.4'), [true], m9('art.21 n.3')),
      'macau-2004': fixed(false, null),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  winningStreak: {
    spec: bool,
    about: 'winning streak bets 2/3/4/5 paying 3/8/18/38 (needs DICJ authorisation)',
    rules: {
      'macau-2009': choice(false, m9('art.13 5), art.14 n.5'), [true], m9('art.21 n.3')),
      'macau-2004': fixed(false, null),
      'portugal-2001': fixed(false, null),
    },
  } as OptionDef<boolean>,
  jackpot: {
    spec: bool,
    about: 'progressive jackpot side bet on the first 2-4 cards of each hand',
    rules: {
      'macau-2009': fixed(false, null),
      'macau-2004': fixed(false, null),
      'portugal-2001': choice(false, pt('rules 38-39'), [true], pt('rules 38, 40')),
    },
  } as OptionDef<boolean>,
  jackpotCards: {
    spec: int(2, 4),
    about: 'cards of each hand (split hands included) the jackpot looks at',
    rules: {
      'macau-2009': fixed(4, null),
      'macau-2004': fixed(4, null),
      'portugal-2001': choice(4, pt('rules 42, 46'), [2, 3], pt('rules 40, 43')),
    },
  } as OptionDef<number>,
  jackpotSplitCards: {
    spec: e('player-cards', 'each-hand'),
    about: "which cards the jackpot counts after a split: the player's first cards in dealing order, split pairs included (rule 42), or each split hand's own",
    rules: {
      'macau-2009': fixed('player-cards', null),
      'macau-2004': fixed('player-cards', null),
      // Rule 42: «as primeiras duas, três ou quatro cartas originariamente distribuídas ao jogador,
      // incluindo as correspondentes a pares divididos» — the player's cards, not each hand's.
      'portugal-2001': reading('player-cards', pt('rule 42'), ['each-hand']),
    },
  } as OptionDef<'player-cards' | 'each-hand'>,
  authorisation: {
    spec: str,
    about: "reference of the regulator's prior authorisation of the options chosen (or of its view on a reading)",
    rules: {
      'macau-2009': operator('', m9('art.21')),
      'macau-2004': operator('', null),
      'portugal-2001': operator('', pt('rules 38, 40')),
    },
  } as OptionDef<string>,
} as const;

export type OptionKey = keyof typeof OPTIONS;
export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[];

/** The option table as every game's options are read (engine/table/field-options.ts): each key a field of the resolved rules. */
export const BLACKJACK_OPTIONS: FieldCatalogue = OPTIONS;

/**
 * A profile's data as the field options read it: each option's default under its text, the
 * analysis profile starting from Macau 2009's (none of its limits: every option operator-set).
 */
export function profileDefaults(profile: ProfileId): Readonly<Record<OptionKey, unknown>> {
  const from: RegulatedProfileId = profile === GENERIC_PROFILE ? 'macau-2009' : profile;
  return Object.fromEntries(OPTION_KEYS.map((k) => [k, (OPTIONS[k] as OptionDef<unknown>).rules[from].value])) as Record<OptionKey, unknown>;
}
