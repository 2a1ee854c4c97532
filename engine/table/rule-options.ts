import type { JackpotProgramProblem, OptionClass, RuleRefusalReason } from './vocabulary.js';

export { OPTION_CLASSES, type OptionClass } from './vocabulary.js';

/**
 * What a rule option is, read from its text (the same five classes in every game):
 *
 * - `fixed`: the text fixes the value (or has no such thing: the option stays at its off value);
 *   nothing else is taken.
 * - `choice`: the text offers alternatives; the casino picks one of them, with the authorisation
 *   reference the text requires where it requires one (Macau 2009 Art. 21 n.1, baccarat Art. 19).
 * - `waivable`: the text's value, which the casino may give up with authorisation (Macau 2009
 *   Art. 21 n.2: Arts. 15 and 18 only).
 * - `operator`: a value the casino sets within what the text allows (limits, the cut card's place,
 *   bettors per seat).
 * - `interpretation`: the text is silent or ambiguous; the literal reading is the default, the
 *   others await the regulator's view, given as the authorisation reference.
 */

/** What a value other than the profile's default is: an alternative the text lists, a waiver, or a reading. */
export type AlternativeKind = 'choice' | 'waiver' | 'interpretation';

/** An option of a profile as the guard and the screens see it. */
export interface RuleOptionInfo {
  readonly key: string;
  readonly class: OptionClass;
  /** The profile's default: the text's own value, or its literal reading. */
  readonly default: unknown;
  /** The article that fixes or offers the value; null where the text has nothing on it. */
  readonly article: string | null;
  /** The values a table may take besides the default, each with what it is. */
  readonly alternatives: readonly { readonly value: unknown; readonly kind: AlternativeKind }[];
  /** For a number the casino sets or chooses within bounds. */
  readonly range?: { readonly min: number; readonly max: number };
  /**
   * A value other than the default needs an authorisation reference; `article` names the text
   * that requires it (null: an interpretation, which needs the regulator's view).
   */
  readonly authorisation: { readonly article: string | null } | null;
  readonly about: string;
}

/** What a value of an option is (engine/table/field-options.ts checks a value against it). */
export type FieldSpec =
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'bool' }
  /** Free text: blackjack's `authorisation`, listed among its options with the article that asks for it. */
  | { readonly kind: 'string' };

/** Why the guard refuses an option's value, with the article that decides it (null: no article). */
export interface RuleRefusal {
  readonly reason: RuleRefusalReason;
  readonly option: string;
  /** The value refused, as JSON. */
  readonly value: string;
  readonly article: string | null;
  /** What would be taken instead (values as JSON, or a range), when there is a list to name. */
  readonly allowed?: string;
  /** A `bad-type` refusal's: what a value of the option is (its spec), for the screens to say in words; `allowed` is its English. */
  readonly expected?: FieldSpec;
  /** A jackpot program's refusal: its first problem by code and figures, for the screens to say in words; `allowed` is every problem in English. */
  readonly jackpot?: JackpotProgramProblem;
}

/** A refusal in English, for command lines, configuration files and logs. */
export function describeRuleRefusal(r: RuleRefusal): string {
  const by = r.article ? ` by ${r.article}` : '';
  const allowed = r.allowed ? `; allowed: ${r.allowed}` : '';
  switch (r.reason) {
    case 'unknown-option':
      return `unknown rule option "${r.option}"${allowed ? ` (known: ${r.allowed})` : ''}`;
    case 'bad-type':
      return `${r.option} must be ${r.allowed ?? 'of its type'}, got ${r.value}`;
    case 'fixed':
      return r.article
        ? `${r.option}=${r.value} is refused: fixed at ${r.allowed}${by}`
        : `${r.option}=${r.value} is refused: the text has no such option (fixed at ${r.allowed})`;
    case 'not-offered':
      return `${r.option}=${r.value} is not allowed${by}${allowed}`;
    case 'out-of-range':
      return `${r.option}=${r.value} is out of the range set${by}${allowed}`;
    case 'needs-authorisation':
      return r.article
        ? `${r.option}=${r.value} needs the regulator's authorisation reference (${r.article})`
        : `${r.option}=${r.value} is a reading awaiting the regulator: it needs the reference of the regulator's view`;
    case 'inconsistent':
      return `${r.option}=${r.value} does not fit the other options${by}${allowed ? ` (${r.allowed})` : ''}`;
    case 'analysis-only':
      return `the "${r.value}" profile is for analysis (sim, round): a table plays a profile a text governs`;
  }
}

/** An error carrying the guard's refusals (command lines and files print `message`). */
export class RuleOptionsError extends Error {
  constructor(readonly refusals: readonly RuleRefusal[]) {
    super(refusals.map(describeRuleRefusal).join('; '));
  }
}

/** Values as the refusals list them. */
export function listValues(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * The choice markers a settlement line carries: `option=value` for each option the line was
 * settled under whose value is not the profile's default, so a line played under an authorised
 * choice or a reading awaiting the regulator says so next to its article.
 */
export function choiceMarker(option: string, value: unknown): string {
  return `${option}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/** What a profile's text says of one option: the data behind `RuleOptionInfo`, per game. */
export interface OptionRule<T = unknown> {
  readonly value: T;
  readonly article: string | null;
  readonly class: OptionClass;
  readonly alternatives?: readonly { readonly value: T; readonly kind: AlternativeKind }[];
  readonly range?: { readonly min: number; readonly max: number };
  readonly authorisation?: { readonly article: string | null };
}

/**
 * The one check every option goes through (blackjack's table, baccarat's and war's profile
 * fields): the value of `key` against what the text says of it, given the authorisation
 * reference the table has. `typeProblem` is the option's own type check (its spec, `expected`, in English). Null: taken.
 */
export function optionRefusal(
  key: string,
  value: unknown,
  rule: OptionRule,
  authorisation: string,
  typeProblem: string | null,
  expected?: FieldSpec,
): RuleRefusal | null {
  const v = JSON.stringify(value);
  if (typeProblem !== null) return { reason: 'bad-type', option: key, value: v, article: null, allowed: typeProblem, ...(expected ? { expected } : {}) };
  if (value === rule.value) return null;
  const base = { option: key, value: v, article: rule.article };
  if (rule.class === 'fixed') return { reason: 'fixed', ...base, allowed: JSON.stringify(rule.value) };
  if (rule.range) {
    if (typeof value !== 'number' || value < rule.range.min || value > rule.range.max)
      return { reason: rule.class === 'operator' ? 'out-of-range' : 'not-offered', ...base, allowed: `${rule.range.min}–${rule.range.max}` };
  } else if (rule.alternatives) {
    if (!rule.alternatives.some((a) => a.value === value))
      return { reason: 'not-offered', ...base, allowed: listValues([rule.value, ...rule.alternatives.map((a) => a.value)]) };
  }
  // A value other than the text's own needs the reference the text requires: the authorisation of a
  // choice or a waiver, the regulator's view on a reading.
  if (rule.authorisation && !authorisation.trim()) {
    const kind = rule.alternatives?.find((a) => a.value === value)?.kind;
    return { reason: 'needs-authorisation', option: key, value: v, article: kind === 'interpretation' ? null : rule.authorisation.article };
  }
  return null;
}

/** The option as the guard's readers see it. */
export function optionInfo(key: string, rule: OptionRule, about: string, range?: { min: number; max: number }): RuleOptionInfo {
  const r = rule.range ?? range;
  return {
    key,
    class: rule.class,
    default: rule.value,
    article: rule.article,
    alternatives: rule.alternatives ?? [],
    ...(r ? { range: r } : {}),
    authorisation: rule.authorisation ?? null,
    about,
  };
}
