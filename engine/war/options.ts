import { applyFieldOptions, checkFieldOptions, fieldOptionInfos, fieldPlayedOptions, type FieldCatalogue, type PlayedOptions } from '../table/field-options.js';
import { RuleOptionsError, type OptionRule, type RuleOptionInfo, type RuleRefusal } from '../table/rule-options.js';
import { parseWarProfile, warProfile, type WarProfile } from './profiles.js';

/**
 * The «Desafio ao Casino» profile's options, classed from the text on file (article numbers
 * reconstructed, in brackets: docs/rules/war.md). The tie bet's 10 to 1 (Art. 7 n.3), the three
 * cards burnt before each war card (n.5) and the white card before about the last twelve cards
 * (Art. 2 n.1) are fixed; the decks ("um ou mais baralhos") and the shoe or the automatic
 * shuffler-dealer (Art. 1 2)–4), Art. 2 n.2) are the casino's choice; the main bet of a player
 * who also bet the tie, on a tie, is a reading awaiting the regulator (n.4 is silent on it).
 * The text on file names no authorisation article for its choices.
 */
const choice = (value: unknown, article: string, others: readonly unknown[]): OptionRule => ({
  value,
  article,
  class: 'choice',
  alternatives: others.map((v) => ({ value: v, kind: 'choice' as const })),
});

export const WAR_OPTIONS: FieldCatalogue = {
  decks: {
    spec: { kind: 'int', min: 1, max: 16 },
    about: 'decks in the shoe ("um ou mais baralhos")',
    rules: { macau: { value: 6, article: 'macau-war [art.1] 1)', class: 'choice', range: { min: 1, max: 16 } } },
  },
  cutCardFromEnd: {
    spec: { kind: 'int', min: 1, max: 812 },
    about: 'cards behind the white card',
    rules: { macau: { value: 12, article: 'macau-war [art.2] n.1 ("antes das últimas doze cartas, aproximadamente")', class: 'fixed' } },
  },
  shuffling: {
    spec: { kind: 'enum', values: ['shoe', 'automatic-shuffler'] },
    about: 'a shoe with a white card, or the automatic shuffler-dealer',
    rules: { macau: choice('shoe', 'macau-war [art.1] 2)-4), [art.2] n.1-2', ['automatic-shuffler']) },
  },
  mainBetOnTieWithTieBet: {
    spec: { kind: 'enum', values: ['returned', 'choose'] },
    about: 'on a tie, the main bet of a player who also bet the tie: returned, or the player chooses surrender or war',
    rules: {
      macau: {
        value: 'returned',
        article: 'macau-war [art.7] n.4 (silent on it)',
        class: 'interpretation',
        alternatives: [{ value: 'choose', kind: 'interpretation' }],
        authorisation: { article: null },
      },
    },
  },
  tiePays: {
    spec: { kind: 'int', min: 1, max: 100 },
    about: 'the tie bet pays tiePays to 1',
    rules: { macau: { value: 10, article: 'macau-war [art.7] n.3', class: 'fixed' } },
  },
  warBurns: {
    spec: { kind: 'int', min: 0, max: 10 },
    about: 'cards burnt before each war card',
    rules: { macau: { value: 3, article: 'macau-war [art.7] n.5', class: 'fixed' } },
  },
};

/** A profile (and its options) as a table or a tool plays it, with the markers its lines carry. */
export interface ResolvedWar {
  readonly profile: WarProfile;
  readonly choices: Readonly<Record<string, string>>;
  readonly authorisation: string;
}

export function checkWarOptions(id: string, options: Readonly<Record<string, unknown>>): RuleRefusal[] {
  return checkFieldOptions(WAR_OPTIONS, id, warProfile(id), options);
}

/** The profile with guarded options applied; throws RuleOptionsError naming the article of each refusal. */
export function resolveWar(id: string, options: Readonly<Record<string, unknown>> = {}): ResolvedWar {
  const refused = checkWarOptions(id, options);
  if (refused.length > 0) throw new RuleOptionsError(refused);
  const { data, choices } = applyFieldOptions(warProfile(id), options);
  const authorisation = typeof options.authorisation === 'string' ? options.authorisation.trim() : '';
  return { profile: parseWarProfile(data), choices, authorisation };
}

export function warOptionInfos(id: string): RuleOptionInfo[] {
  return fieldOptionInfos(WAR_OPTIONS, id, warProfile(id));
}

/** The profile's options as a table with `options` plays them (service mode's Configuration page). */
export function warPlayedOptions(id: string, options: Readonly<Record<string, unknown>>): PlayedOptions {
  return fieldPlayedOptions(WAR_OPTIONS, id, warProfile(id), resolveWar(id, options).profile);
}

/**
 * The marks of a line: the main bet of a tie bettor settled on a tie follows
 * `mainBetOnTieWithTieBet`; the tie bet its figure. None under the text's defaults.
 */
export function warMarks(
  r: ResolvedWar,
  line: { readonly bet: string; readonly rule: string },
  tieBettorOnTie: boolean,
): { choices?: readonly string[]; authorisation?: string } {
  const keys = line.bet === 'tie' ? ['tiePays'] : tieBettorOnTie ? ['mainBetOnTieWithTieBet'] : [];
  const choices = keys.flatMap((k) => (r.choices[k] ? [r.choices[k]] : []));
  if (choices.length === 0) return {};
  return { choices, ...(r.authorisation ? { authorisation: r.authorisation } : {}) };
}
