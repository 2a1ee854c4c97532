import { choiceMarker, optionInfo, optionRefusal, type FieldSpec, type OptionRule, type RuleOptionInfo, type RuleRefusal } from './rule-options.js';

/**
 * Rule options of a game, every game (baccarat, «Desafio ao Casino», blackjack: issue 53): each
 * option is a dotted path into the profile's data (`banker.commissionBasisPoints`, `tiePays`,
 * blackjack's `surrender`) with its type and, per regulated profile, what the text says of it. Only these paths may be set: the
 * rule ids a line quotes and the profile's names are data, never options, so no setting can make
 * a line cite something else. The analysis profile (`generic`) takes any value of each option's
 * type and cites no article.
 */
export type { FieldSpec } from './rule-options.js';

export interface FieldOption {
  readonly spec: FieldSpec;
  readonly about: string;
  /** Per regulated profile id. */
  readonly rules: Readonly<Record<string, OptionRule>>;
}

export type FieldCatalogue = Readonly<Record<string, FieldOption>>;

/**
 * The key of the authorisation reference among a table's options: never a path into the data. A
 * catalogue may list it (blackjack's, with the article that asks for it), and then its type is checked.
 */
export const AUTHORISATION_KEY = 'authorisation';

/** What a value of the spec is, in words (the refusals' `allowed`). */
export function describeFieldSpec(spec: FieldSpec): string {
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

/** Null when `v` is of the spec's type; what it must be otherwise. */
export function fieldTypeProblem(spec: FieldSpec, v: unknown): string | null {
  if (spec.kind === 'int') return typeof v === 'number' && Number.isInteger(v) && v >= spec.min && v <= spec.max ? null : describeFieldSpec(spec);
  if (spec.kind === 'bool') return typeof v === 'boolean' ? null : describeFieldSpec(spec);
  if (spec.kind === 'string') return typeof v === 'string' ? null : describeFieldSpec(spec);
  return typeof v === 'string' && spec.values.includes(v) ? null : describeFieldSpec(spec);
}

export function getPath(data: unknown, path: string): unknown {
  let v: unknown = data;
  for (const k of path.split('.')) v = typeof v === 'object' && v !== null && Object.hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** A copy of `data` with `value` at `path` (the path exists: the catalogue names only real fields). */
export function withPath(data: object, path: string, value: unknown): Record<string, unknown> {
  const out = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const keys = path.split('.');
  let node = out;
  for (const k of keys.slice(0, -1)) node = node[k] as Record<string, unknown>;
  node[keys[keys.length - 1] as string] = value;
  return out;
}

/** What `profile` says of `path`: its regulated rule, or, for a profile no text governs, any value (operator-set, no article). */
export function fieldRule(catalogue: FieldCatalogue, path: string, profile: string, base: object): OptionRule | null {
  const o = Object.hasOwn(catalogue, path) ? catalogue[path] : undefined;
  if (!o) return null;
  if (Object.hasOwn(o.rules, profile)) return o.rules[profile] ?? null;
  // A regulated profile has only its own options (no win-on-6 figure under the commission alternative).
  if (isRegulatedIn(catalogue, profile) || getPath(base, path) === undefined) return null;
  return { value: getPath(base, path), article: null, class: 'operator' };
}

/**
 * The guard: every refusal of `options` (path → value; `authorisation` is the reference) under
 * `profile`, whose shipped data is `base`.
 */
export function checkFieldOptions(catalogue: FieldCatalogue, profile: string, base: object, options: Readonly<Record<string, unknown>>): RuleRefusal[] {
  const authorisation = typeof options[AUTHORISATION_KEY] === 'string' ? (options[AUTHORISATION_KEY] as string) : '';
  const out: RuleRefusal[] = [];
  for (const [path, value] of Object.entries(options)) {
    if (path === AUTHORISATION_KEY && !Object.hasOwn(catalogue, path)) continue;
    const o = Object.hasOwn(catalogue, path) ? catalogue[path] : undefined;
    const rule = fieldRule(catalogue, path, profile, base);
    if (!o || !rule) {
      out.push({ reason: 'unknown-option', option: path, value: JSON.stringify(value), article: null, allowed: Object.keys(catalogue).join(', ') });
      continue;
    }
    const r = optionRefusal(path, value, rule, authorisation, fieldTypeProblem(o.spec, value), o.spec);
    if (r) out.push(r);
  }
  return out;
}

/** The profile's data with the options applied, and the markers of the non-default ones by path. */
export function applyFieldOptions(
  base: object,
  options: Readonly<Record<string, unknown>>,
): { data: Record<string, unknown>; choices: Record<string, string> } {
  let data = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
  const choices: Record<string, string> = {};
  for (const [path, value] of Object.entries(options)) {
    if (path === AUTHORISATION_KEY) continue;
    if (value !== getPath(base, path)) choices[path] = choiceMarker(path, value);
    data = withPath(data, path, value);
  }
  return { data, choices };
}

/** The options of a profile as the guard and service mode see them. */
export function fieldOptionInfos(catalogue: FieldCatalogue, profile: string, base: object): RuleOptionInfo[] {
  // Only the options the profile has: a regulated one lists them, the analysis profile has those its data has.
  const has = ([path, o]: [string, FieldOption]) =>
    path !== AUTHORISATION_KEY && (Object.hasOwn(o.rules, profile) || (getPath(base, path) !== undefined && !isRegulatedIn(catalogue, profile)));
  return Object.entries(catalogue)
    .filter(has)
    .map(([path, o]) => {
      const rule = fieldRule(catalogue, path, profile, base) as OptionRule;
      return optionInfo(path, rule, o.about, o.spec.kind === 'int' && rule.class === 'operator' ? { min: o.spec.min, max: o.spec.max } : undefined);
    });
}

/** Every value of an option's type a screen can offer (an integer option is typed instead). */
export function fieldTypeValues(catalogue: FieldCatalogue, path: string): readonly unknown[] {
  const o = Object.hasOwn(catalogue, path) ? catalogue[path] : undefined;
  if (o?.spec.kind === 'bool') return [false, true];
  return o?.spec.kind === 'enum' ? o.spec.values : [];
}

/** Whether the catalogue has rules for the profile (a text governs it). */
function isRegulatedIn(catalogue: FieldCatalogue, profile: string): boolean {
  return Object.values(catalogue).some((o) => Object.hasOwn(o.rules, profile));
}

/**
 * A profile's options as a table plays them, in one shape for every game (issue 53): what service
 * mode lists of each (`infos`: its class, article, default), the value the table plays (the key is
 * a path into `played`, the profile with the table's options applied) and the values of its type a
 * screen can offer (`offered`; none for an integer, which is typed). Baccarat and war build it from
 * their catalogue (`fieldPlayedOptions`), blackjack too (issue 53); the host reads it
 * without naming the game.
 */
export interface PlayedOptions {
  readonly infos: readonly RuleOptionInfo[];
  readonly played: object;
  readonly offered: Readonly<Record<string, readonly unknown[]>>;
}

/** A catalogue game's options as played: `base` the profile's shipped data, `played` with the options applied. */
export function fieldPlayedOptions(catalogue: FieldCatalogue, profile: string, base: object, played: object): PlayedOptions {
  return {
    infos: fieldOptionInfos(catalogue, profile, base),
    played,
    offered: Object.fromEntries(Object.keys(catalogue).map((path) => [path, fieldTypeValues(catalogue, path)])),
  };
}

/** The value played at an option's key, and the values offered for it. */
export function playedValue(options: PlayedOptions, key: string): unknown {
  return getPath(options.played, key);
}
export function offeredValues(options: PlayedOptions, key: string): readonly unknown[] {
  return Object.hasOwn(options.offered, key) ? (options.offered[key] ?? []) : [];
}
