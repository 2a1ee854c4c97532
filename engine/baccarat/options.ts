import { applyFieldOptions, checkFieldOptions, fieldOptionInfos, fieldPlayedOptions, type FieldCatalogue, type PlayedOptions } from '../table/field-options.js';
import { RuleOptionsError, type OptionRule, type RuleOptionInfo, type RuleRefusal } from '../table/rule-options.js';
import { BACCARAT_RULES, BURN_FORMULAS, baccaratProfile, isRegulatedBaccaratProfile, parseBaccaratProfile, type BaccaratProfile } from './profiles.js';

/**
 * The baccarat profile's options, classed from the text on file: the 2005 amendment's Art. 18
 * (the banker's commission, or no commission and a win on 6 at 50%) fixes the banker's figures
 * of each alternative, and Art. 19 puts the choice of the alternative (the
 * `macau-no-commission` profile) under DICJ prior authorisation. The prizes of the other bets are
 * Art. 17's (its n.1–4 were not found): a reading at the figures Macau tables pay, which no table
 * changes, citing the bet's article and Art. 17 without its number (`prize`).
 */
const ART18_1 = BACCARAT_RULES.commission;
const ART18_2 = BACCARAT_RULES.noCommission;
/** Art. 19 (2005): the casino's choice between the alternatives of Art. 18 needs DICJ prior authorisation. */
export const BACCARAT_AUTHORISATION_RULE = 'macau-baccarat art.19';

/** Art. 2 n.1 (83/2011) with n.3: the formulas of the cards voided at shoe start, and none with a shuffler-dealer. */
export const BACCARAT_BURN_RULE = 'macau-baccarat art.2 n.1, n.3';
/** Art. 3 n.1: the coup the cut card comes out in is the last, or one more is dealt. */
export const BACCARAT_LAST_COUP_RULE = 'macau-baccarat art.3 n.1';

const fixed = (value: unknown, article: string | null): OptionRule => ({ value, article, class: 'fixed' });
/**
 * One of the alternatives the text lists, chosen by the house with DICJ prior authorisation
 * (Art. 19: "a determinação, pela casa, das opções previstas em alternativa nos artigos 2.º, 3.º,
 * 7.º, 12.º e 18.º"). The default is the one the table has always played; any other needs the
 * authorisation reference, and the lines settled under it carry it.
 */
const choice = (value: unknown, article: string, others: readonly unknown[]): OptionRule => ({
  value,
  article,
  class: 'choice',
  alternatives: others.map((v) => ({ value: v, kind: 'choice' as const })),
  authorisation: { article: BACCARAT_AUTHORISATION_RULE },
});
/**
 * A prize of Art. 17 n.1–4, whose text is not on file: the figure Macau tables pay (8 to 1 and 11 to
 * 1 are also the revoked OE 70/2000 Art. 6 n.1's), a reading with no other value offered. It was
 * `fixed`, as if the text on file fixed it (a review of 4 December).
 */
const prize = (value: number, article: string): OptionRule => ({
  value,
  article: `${article} (n.1–4 not on file: the figure Macau tables pay)`,
  class: 'interpretation',
  alternatives: [],
});
const operator = (value: unknown): OptionRule => ({ value, article: null, class: 'operator' });
const both = (rule: OptionRule) => ({ 'macau-commission': rule, 'macau-no-commission': rule });

/** Art. 1 1): the material is «seis a doze baralhos de 52 cartas». */
export const BACCARAT_DECKS_RULE = 'macau-baccarat art.1 1)';

/** Art. 1 5): «mesa de jogo de um ou dois tabuleiros, com sete ou mais lugares sentados». */
export const BACCARAT_MIN_SEATS_RULE = 'macau-baccarat art.1 5)';

export const BACCARAT_OPTIONS: FieldCatalogue = {
  // The house sets the decks within Art. 1's six to twelve; the analysis profile keeps 1–16.
  decks: {
    spec: { kind: 'int', min: 1, max: 16 },
    about: 'decks in the shoe (Art. 1 1): six to twelve)',
    rules: both({ value: 8, article: BACCARAT_DECKS_RULE, class: 'operator', range: { min: 6, max: 12 } }),
  },
  cutCardFromEnd: { spec: { kind: 'int', min: 1, max: 812 }, about: 'cards behind the cut card', rules: both(operator(16)) },
  // Art. 3 n.1: "乃最後一局或只可多進行一局" — that coup is the last, or only one more is played.
  coupsAfterCutCard: {
    spec: { kind: 'int', min: 0, max: 3 },
    about: 'coups dealt after the one in which the cut card came out (Art. 3 n.1: none or one)',
    rules: both(choice(1, BACCARAT_LAST_COUP_RULE, [0])),
  },
  burn: {
    spec: { kind: 'enum', values: BURN_FORMULAS },
    about: 'cards voided at shoe start: the first card turned and its face value, the decks, a fixed number, or none (shuffler-dealer)',
    rules: both(choice('first-card-value', BACCARAT_BURN_RULE, ['decks', 'fixed', 'none'])),
  },
  burnFixedCards: {
    spec: { kind: 'int', min: 1, max: 8 },
    about: 'cards voided at shoe start under burn=fixed (Art. 2 n.1 3): one to eight)',
    rules: both({ value: 8, article: BACCARAT_BURN_RULE, class: 'choice', range: { min: 1, max: 8 }, authorisation: { article: BACCARAT_AUTHORISATION_RULE } }),
  },
  // «6 Sortudo» is in the text since 56/2018 (Art. 13 n.1 4)(3), Art. 17 n.5). Whether offering it
  // needs the DICJ's prior authorisation is not in the text found (Art. 19 as worded in 2005 lists
  // Arts. 2, 3, 7, 12 and 18; its 2009 wording was not found): the table offers it only with the
  // reference of the DICJ's authorisation or view, as a reading awaiting the regulator.
  lucky6: {
    spec: { kind: 'bool' },
    about: '«6 Sortudo» (Lucky 6) offered: 12 to 1 on a banker win with 6 on two cards, 20 to 1 on three',
    rules: both({
      value: false,
      article: BACCARAT_RULES.lucky6,
      class: 'interpretation',
      alternatives: [{ value: true, kind: 'interpretation' }],
      authorisation: { article: null },
    }),
  },
  'banker.commissionBasisPoints': {
    spec: { kind: 'int', min: 0, max: 10000 },
    about: 'commission on banker winnings, basis points',
    rules: { 'macau-commission': fixed(500, ART18_1) },
  },
  'banker.winOnSixBasisPoints': {
    spec: { kind: 'int', min: 0, max: 10000 },
    about: 'a banker win on 6 pays this share of the stake, basis points',
    rules: { 'macau-no-commission': fixed(5000, ART18_2) },
  },
  'payouts.player.win': { spec: { kind: 'int', min: 0, max: 1000 }, about: 'player bet pays win : per', rules: both(prize(1, BACCARAT_RULES.player)) },
  'payouts.tie.win': { spec: { kind: 'int', min: 0, max: 1000 }, about: 'tie bet pays win : per', rules: both(prize(8, BACCARAT_RULES.tie)) },
  'payouts.playerPair.win': { spec: { kind: 'int', min: 0, max: 1000 }, about: 'player pair pays win : per', rules: both(prize(11, BACCARAT_RULES.pair)) },
  'payouts.lucky6Two.win': {
    spec: { kind: 'int', min: 0, max: 1000 },
    about: 'Lucky 6 on two cards pays win : per',
    rules: both(fixed(12, BACCARAT_RULES.lucky6)),
  },
  'payouts.lucky6Three.win': {
    spec: { kind: 'int', min: 0, max: 1000 },
    about: 'Lucky 6 on three cards pays win : per',
    rules: both(fixed(20, BACCARAT_RULES.lucky6)),
  },
  'payouts.bankerPair.win': { spec: { kind: 'int', min: 0, max: 1000 }, about: 'banker pair pays win : per', rules: both(prize(11, BACCARAT_RULES.pair)) },
};

/** Each profile's own alternative of Art. 18: the choice its lines name, and the authorisation it needs. */
const PROFILE_CHOICE: Readonly<Record<string, { readonly marker: string } | undefined>> = {
  // n.1 is the rule, n.2 "em alternativa ao disposto no número anterior".
  'macau-no-commission': { marker: 'banker=no-commission' },
};

/** The options of the shoe's procedure that are the house's choices (Art. 2 n.1, Art. 3 n.1). */
const SHOE_CHOICES: readonly string[] = ['burn', 'burnFixedCards', 'coupsAfterCutCard'];

/** A profile (and its options) as a table or a tool plays it, with the markers its lines carry. */
export interface ResolvedBaccarat {
  readonly profile: BaccaratProfile;
  /** Markers for the banker's lines and for the other bets' lines. */
  readonly bankerChoices: readonly string[];
  /** The shoe's own choices (Arts. 2, 3): every line of the table was dealt under them. */
  readonly shoeChoices: readonly string[];
  readonly otherChoices: Readonly<Record<string, readonly string[]>>;
  readonly authorisation: string;
}

/**
 * The guard's refusals of `options` under the profile; for a table (`forTable`), also the
 * authorisation its alternative of Art. 18 needs (Art. 19). A tool computing the alternative's
 * figures plays it without one; its lines still name the choice.
 */
export function checkBaccaratOptions(id: string, options: Readonly<Record<string, unknown>>, forTable = false): RuleRefusal[] {
  const base = baccaratProfile(id);
  const out = checkFieldOptions(BACCARAT_OPTIONS, id, base, options);
  const authorisation = typeof options.authorisation === 'string' ? options.authorisation.trim() : '';
  const profileChoice = PROFILE_CHOICE[id];
  if (forTable && profileChoice && !authorisation)
    out.push({ reason: 'needs-authorisation', option: 'profile', value: JSON.stringify(id), article: BACCARAT_AUTHORISATION_RULE });
  // The fixed number is the third formula's: set under another formula it would be read by none.
  const burn = options.burn ?? base.burn;
  if (options.burnFixedCards !== undefined && options.burnFixedCards !== base.burnFixedCards && burn !== 'fixed')
    out.push({
      reason: 'inconsistent',
      option: 'burnFixedCards',
      value: JSON.stringify(options.burnFixedCards),
      article: BACCARAT_BURN_RULE,
      allowed: 'burn=fixed',
    });
  return out;
}

/** The profile with guarded options applied; throws RuleOptionsError naming the article of each refusal. */
export function resolveBaccarat(id: string, options: Readonly<Record<string, unknown>> = {}, forTable = false): ResolvedBaccarat {
  const refused = checkBaccaratOptions(id, options, forTable);
  if (refused.length > 0) throw new RuleOptionsError(refused);
  const base = baccaratProfile(id);
  const { data, choices } = applyFieldOptions(base, options);
  const profile = parseBaccaratProfile(data);
  const authorisation = typeof options.authorisation === 'string' ? options.authorisation.trim() : '';
  const banker = [
    ...(PROFILE_CHOICE[id] ? [PROFILE_CHOICE[id].marker] : []),
    ...Object.entries(choices)
      .filter(([p]) => p.startsWith('banker.'))
      .map(([, m]) => m),
  ];
  const other: Record<string, string[]> = {};
  for (const bet of ['player', 'tie', 'playerPair', 'bankerPair', 'lucky6']) {
    const m = Object.entries(choices)
      .filter(([p]) => p === bet || p.startsWith(`payouts.${bet}`))
      .map(([, x]) => x);
    if (m.length > 0) other[bet] = m;
  }
  const shoe = Object.entries(choices)
    .filter(([p]) => SHOE_CHOICES.includes(p))
    .map(([, m]) => m);
  return { profile, bankerChoices: banker, shoeChoices: shoe, otherChoices: other, authorisation };
}

/** Whether a table may play the profile: one a text governs. */
export { isRegulatedBaccaratProfile };

export function baccaratOptionInfos(id: string): RuleOptionInfo[] {
  return fieldOptionInfos(BACCARAT_OPTIONS, id, baccaratProfile(id));
}

/** The profile's options as a table with `options` plays them (service mode's Configuration page). */
export function baccaratPlayedOptions(id: string, options: Readonly<Record<string, unknown>>): PlayedOptions {
  return fieldPlayedOptions(BACCARAT_OPTIONS, id, baccaratProfile(id), resolveBaccarat(id, options).profile);
}

/** The marks a line of `bet` carries under the resolved profile (none under the text's defaults). */
export function baccaratMarks(r: ResolvedBaccarat, bet: string): { choices?: readonly string[]; authorisation?: string } {
  const choices = [...r.shoeChoices, ...(bet === 'banker' ? r.bankerChoices : (r.otherChoices[bet] ?? []))];
  if (choices.length === 0) return {};
  return { choices, ...(r.authorisation ? { authorisation: r.authorisation } : {}) };
}
