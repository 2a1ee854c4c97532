/**
 * Blackjack rule profiles as data. Every option is declared once with its type and, per profile,
 * its default, the article of the text it comes from and its class (fixed by the text, a choice
 * the text offers, waivable, operator-set, or a reading awaiting the regulator:
 * engine/table/rule-options.ts), in the field options every game's options go through
 * (engine/table/field-options.ts, issue 53), so the same table guards overrides (`checkRules`: `--set`, the
 * table's configuration file and service mode), prints `--print-rules`, marks the settlement
 * lines made under a non-default choice, and feeds docs/rules/blackjack.md.
 */
import { describeRuleRefusal, RuleOptionsError, type OptionClass, type OptionRule, type RuleOptionInfo, type RuleRefusal } from '../table/rule-options.js';
import {
  applyFieldOptions,
  checkFieldOptions,
  describeFieldSpec,
  fieldOptionInfos,
  fieldPlayedOptions,
  fieldRule,
  fieldTypeValues,
  type PlayedOptions,
} from '../table/field-options.js';

import {
  BLACKJACK_OPTIONS,
  GENERIC_PROFILE,
  OPTION_KEYS,
  OPTIONS,
  PROFILE_IDS,
  profileDefaults,
  type OptionDef,
  type OptionKey,
  type ProfileId,
  type RegulatedProfileId,
  type Spec,
} from './option-table.js';

export { GENERIC_PROFILE, OPTION_KEYS, PROFILE_IDS, REGULATED_PROFILE_IDS, type OptionKey, type ProfileId, type RegulatedProfileId } from './option-table.js';

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
  readonly elevenDoubleOriginalOnly: boolean;
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
  readonly surrenderMoment: 'before-additional-cards' | 'hand-first-decision';
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
  readonly behindShortOfCredit: 'stays-out' | 'decision-refused';
  readonly oneSideBetPerPlayer: boolean;
  readonly anyPair: boolean;
  readonly sevens: boolean;
  readonly overUnder13: boolean;
  readonly overUnderAceValue: number;
  readonly perfectPairs: boolean;
  readonly winningStreak: boolean;
  readonly jackpot: boolean;
  readonly jackpotCards: number;
  readonly jackpotSplitCards: 'player-cards' | 'each-hand';
  readonly authorisation: string;
  /**
   * The options set to a value other than the profile's default (an authorised choice, a waiver,
   * a reading awaiting the regulator, an operator's value), as `option=value`: the settlement
   * lines made under one of them name it (`choicesOf`).
   */
  readonly choices: Readonly<Partial<Record<OptionKey, string>>>;
}

type RulesValues = Omit<BlackjackRules, 'profile' | 'choices'>;
// Compile-time check that the option table and the interface name the same keys.
type _SameKeys = [OptionKey] extends [keyof RulesValues] ? ([keyof RulesValues] extends [OptionKey] ? true : never) : never;
const _sameKeys: _SameKeys = true;
void _sameKeys;

/** A refused profile or option: the message names the article; `refusals` the same, as data. */
export class RulesError extends RuleOptionsError {}

export function isProfileId(s: string): s is ProfileId {
  return (PROFILE_IDS as readonly string[]).includes(s);
}

export function isRegulated(profile: ProfileId): profile is RegulatedProfileId {
  return profile !== GENERIC_PROFILE;
}

/** A profile's data as the field options read it (each option's default), made once per profile. */
const BASES = new Map<ProfileId, Readonly<Record<OptionKey, unknown>>>();
function base(profile: ProfileId): Readonly<Record<OptionKey, unknown>> {
  let b = BASES.get(profile);
  if (!b) BASES.set(profile, (b = profileDefaults(profile)));
  return b;
}

function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(OPTIONS, key);
}

/** Parses a `--set key=value` text value into the option's type, or throws RulesError. */
export function parseOptionValue(key: string, text: string): unknown {
  if (!isOptionKey(key))
    throw new RulesError([{ reason: 'unknown-option', option: key, value: JSON.stringify(text), article: null, allowed: OPTION_KEYS.join(', ') }]);
  const spec = (OPTIONS[key] as OptionDef<unknown>).spec;
  const bad = (): never => {
    throw new RulesError([{ reason: 'bad-type', option: key, value: JSON.stringify(text), article: null, allowed: describeFieldSpec(spec), expected: spec }]);
  };
  switch (spec.kind) {
    case 'int':
      if (!/^-?\d+$/.test(text)) bad();
      return Number(text);
    case 'bool':
      if (text === 'true') return true;
      if (text === 'false') return false;
      return bad();
    default:
      return text;
  }
}

/** What the profile's text says of an option; the generic profile leaves every option free (operator-set, no article). */
function ruleOf(key: OptionKey, profile: ProfileId): OptionRule {
  return fieldRule(BLACKJACK_OPTIONS, key, profile, base(profile)) as OptionRule;
}

/** The guard of a profile's options: every refusal, each naming the article that decides it. */
export function checkRules(profile: string, overrides: Readonly<Record<string, unknown>> = {}): RuleRefusal[] {
  if (!isProfileId(profile))
    return [{ reason: 'unknown-option', option: 'profile', value: JSON.stringify(profile), article: null, allowed: PROFILE_IDS.join(', ') }];
  const out = checkFieldOptions(BLACKJACK_OPTIONS, profile, base(profile), overrides);
  if (out.length > 0) return out;
  return consistencyProblems(merged(profile, overrides));
}

/**
 * Whether a doubled hand loses only its original bet to a dealer Black Jack met after play: Macau
 * 2009 Art. 17 n.3 for the modalities 1) and 2) of its n.1 (doubles on any first two cards); for
 * modality 3) (on 11 only) n.3 does not apply, and the limit is the house's offer of Art. 10 n.7
 * (`elevenDoubleOriginalOnly`); Macau 2004 has only Art. 10 n.7, for every double
 * (`dealerBlackjackTakes`). The round, the simulator, the exact analysis and the strategy share it.
 */
export function doublesLoseOriginalOnly(r: Pick<BlackjackRules, 'dealerBlackjackTakes' | 'doubleOn' | 'elevenDoubleOriginalOnly'>): boolean {
  if (r.dealerBlackjackTakes === 'all') return false;
  return r.doubleOn !== 'eleven' || r.elevenDoubleOriginalOnly;
}

/** The profile's defaults with the overrides over them, and the values that follow the procedure chosen. */
function merged(profile: ProfileId, overrides: Readonly<Record<string, unknown>>): BlackjackRules {
  const { data, choices } = applyFieldOptions(base(profile), overrides);
  const out: Record<string, unknown> = { profile, ...data };
  if (Object.hasOwn(overrides, 'authorisation')) out.authorisation = overrides.authorisation;
  if (isRegulated(profile)) {
    // Procedure 3 gives the player five hands, no fewer and no more (Art. 5 n.2 3)(7)); procedure 2 deals the
    // players' cards face up, procedure 3 too unless its alternative 3)(5) is chosen.
    if (out.dealProcedure === 'macau-3' && !('maxHands' in overrides)) out.maxHands = 5;
    if ((out.dealProcedure === 'macau-2' || out.dealProcedure === 'macau-3') && !('playerCardsFaceUp' in overrides)) out.playerCardsFaceUp = true;
  }
  out.choices = choices;
  return out as unknown as BlackjackRules;
}

/** Profile defaults with guarded overrides; throws RulesError naming the article of each refusal. */
export function resolveRules(profile: ProfileId, overrides: Readonly<Record<string, unknown>> = {}): BlackjackRules {
  const refused = checkRules(profile, overrides);
  if (refused.length > 0) throw new RulesError(refused);
  return merged(profile, overrides);
}

function consistencyProblems(r: BlackjackRules): RuleRefusal[] {
  const out: RuleRefusal[] = [];
  const no = (option: OptionKey, article: string | null, why: string) =>
    out.push({ reason: 'inconsistent', option, value: JSON.stringify(r[option]), article, allowed: why });
  const regulated = isRegulated(r.profile);
  const art = (a: string) => (regulated ? `${r.profile} ${a}` : null);
  // «O jogador pode, no âmbito deste procedimento («hole card»), separar os pares até quatro vezes,
  // fazendo cinco mãos»: the player's permission (no fewer) and its bound (no more) under procedure 3.
  if (regulated && r.dealProcedure === 'macau-3' && r.maxHands !== 5)
    no('maxHands', art('art.5 n.2 3)(7)'), 'with procedure 3 the player may split up to four times, making five hands: maxHands=5');
  if (r.dealProcedure === 'macau-3' && r.holeCard !== 'peek') no('holeCard', art('art.5 n.2 3)(3)'), 'dealProcedure=macau-3 (hole card) needs holeCard=peek');
  if ((r.dealProcedure === 'macau-1' || r.dealProcedure === 'macau-2') && r.holeCard === 'peek')
    no('holeCard', art('art.5 n.2 3)'), 'holeCard=peek is procedure 3: set dealProcedure=macau-3');
  if (r.dealProcedure === 'macau-2' && r.holeCard !== 'none')
    no('holeCard', art('art.5 n.2 2)'), "procedure 2 deals the dealer's second card after the players (holeCard=none)");
  if (regulated && r.dealProcedure === 'macau-1' && r.playerCardsFaceUp)
    no('playerCardsFaceUp', art('art.5 n.2 1)'), "procedure 1 deals the players' two cards face down");
  if (regulated && r.dealProcedure === 'macau-2' && !r.playerCardsFaceUp)
    no('playerCardsFaceUp', art('art.5 n.2 2)'), "procedure 2 deals the players' two cards face up");
  if (r.burnBeforeDealerSecond && !r.burnEachRound)
    no('burnBeforeDealerSecond', art('art.4 n.2'), 'needs burnEachRound ("uma carta no início de cada jogada seguinte e outra…")');
  if (r.burnBeforeDealerSecond && r.holeCard !== 'none')
    no('burnBeforeDealerSecond', art('art.4 n.2'), "burns before the dealer's second face-up card: it needs holeCard=none");
  // The offer of Art. 10 n.7 is of a double of modality 3): with doubles on any two cards Art. 17 n.3 already limits the loss.
  if (r.profile === 'macau-2009' && r.elevenDoubleOriginalOnly && r.doubleOn !== 'eleven')
    no('elevenDoubleOriginalOnly', art('art.10 n.7, art.17 n.3'), 'needs doubleOn=eleven (Art. 17 n.1 3)); other doubles are limited by Art. 17 n.3 itself');
  if (regulated && r.profile !== 'portugal-2001' && r.betBehind === 'seated-or-nearest' && r.maxBettorsPerSeat > 3)
    no(
      'maxBettorsPerSeat',
      art('art.20 n.1 2)'),
      'with betBehind=seated-or-nearest (alternative 2) at most three bet on one seat ("no máximo três jogadores")',
    );
  if (r.cutCardFromEnd >= r.decks * 52) no('cutCardFromEnd', null, `must be below the ${r.decks * 52} cards of the shoe`);
  return out;
}

/** Every option's value, the article it comes from and its class, for `--print-rules`, service mode and the docs. */
export function describeRules(
  r: BlackjackRules,
): Record<OptionKey, { value: unknown; article: string; class: OptionClass; default: unknown; choice: boolean; about: string }> {
  const out = {} as Record<OptionKey, { value: unknown; article: string; class: OptionClass; default: unknown; choice: boolean; about: string }>;
  for (const key of OPTION_KEYS) {
    const def = OPTIONS[key] as OptionDef<unknown>;
    const rule = ruleOf(key, r.profile);
    const value = r[key];
    const article = isRegulated(r.profile) ? (rule.article ?? `${r.profile} (not in the text)`) : `${GENERIC_PROFILE} (no text: free for analysis)`;
    out[key] = { value, article, class: rule.class, default: rule.value, choice: key in r.choices, about: def.about };
  }
  return out;
}

/** The profile's options as the guard and service mode see them (engine/table/rule-options.ts). */
export function ruleOptionInfos(profile: ProfileId): RuleOptionInfo[] {
  return fieldOptionInfos(BLACKJACK_OPTIONS, profile, base(profile));
}

/** The spec of an option (for tools listing what can be set). */
export function optionSpec(key: OptionKey): { spec: Spec; about: string } {
  const def = OPTIONS[key] as OptionDef<unknown>;
  return { spec: def.spec, about: def.about };
}

/** Every value of an option's type a screen can offer (an integer option: none, it is typed). */
export function typeValues(key: OptionKey): readonly unknown[] {
  return fieldTypeValues(BLACKJACK_OPTIONS, key);
}

/**
 * The profile's options as a table with `options` plays them, through the field options as
 * baccarat's and war's (engine/table/field-options.ts): the keys are the resolved rules' own fields.
 */
export function blackjackPlayedOptions(profile: ProfileId, options: Readonly<Record<string, unknown>>): PlayedOptions {
  return fieldPlayedOptions(BLACKJACK_OPTIONS, profile, base(profile), resolveRules(profile, options));
}

/** The refusals of `checkRules` in English, one per line (command lines, configuration files). */
export function describeRefusals(refusals: readonly RuleRefusal[]): string {
  return refusals.map(describeRuleRefusal).join('; ');
}
