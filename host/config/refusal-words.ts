import { bounded, type Said, type SaidValue } from '../../locales/said.js';
import type { Catalogue } from '../../locales/index.js';
import { listValues, type FieldSpec, type RuleRefusal } from '../../engine/table/rule-options.js';
import type { LimitBreak } from '../../engine/table/limits.js';
import type { JackpotProgramProblem } from '../../engine/table/vocabulary.js';

// What a refusal says, its bound and its English are the catalogues' own (locales/said.ts).
export { inEnglish, serviceSaid, type Said, type SaidValue, type ServiceRefusalName } from '../../locales/said.js';

/** A configuration refusal's name: a key of the catalogues' `configRefusal` section. */
export type ConfigRefusalName = keyof Catalogue['configRefusal'];

/** A `configRefusal.<name>` key with its parameters, each string cut to its bound. */
export function said(name: ConfigRefusalName, values: Record<string, SaidValue> = {}): Said {
  return { key: `configRefusal.${name}`, values: bounded(values) };
}

/**
 * A rule option the engine's guard refused, as the screens say it: `service.ruleRefusal.<reason>`
 * (its `-no-article` form where no text names one), the option, the value, the article, what is allowed.
 */
export function ruleSaid(r: RuleRefusal, currency: string): Said {
  if (r.jackpot) return jackpotProgramSaid(r.jackpot, currency);
  if (r.reason === 'bad-type' && r.expected) return badTypeSaid(r, r.expected);
  const values = {
    option: r.option.slice(0, 64),
    value: r.value.slice(0, 64),
    ...(r.article ? { article: r.article.slice(0, 128) } : {}),
    ...(r.allowed ? { allowed: r.allowed.slice(0, 128) } : {}),
  };
  return { key: `service.ruleRefusal.${r.reason}${r.article ? '' : '-no-article'}`, values };
}

/**
 * A jackpot program's problem, said by its code (`service.ruleRefusal.jackpot-<code>`): its figures,
 * amounts in the table's currency, a combination the screens word, its article. A field's path
 * is the program's JSON's; zod's English of it (`detail`) stays in the log's English.
 */
function jackpotProgramSaid(p: JackpotProgramProblem, currency: string): Said {
  const { detail: _english, ...values } = p.values;
  return { key: `service.ruleRefusal.jackpot-${p.why}`, values: bounded({ ...values, ...(p.article ? { article: p.article } : {}), currency }) };
}

/**
 * A value not of its option's kind, said by what the kind is (the engine's `allowed` is English:
 * "an integer 1–8", "decks | fixed | none"): a whole number's bounds, a choice's values as JSON
 * (the screens word each, `ruleChoice.*`; yes or no for a flag), or text.
 */
function badTypeSaid(r: RuleRefusal, spec: FieldSpec): Said {
  const named = { option: r.option.slice(0, 64), value: r.value.slice(0, 64) };
  switch (spec.kind) {
    case 'int':
      return { key: 'service.ruleRefusal.bad-type-range', values: { ...named, min: spec.min, max: spec.max } };
    case 'enum':
      return { key: 'service.ruleRefusal.bad-type-choice', values: { ...named, allowed: listValues(spec.values).slice(0, 400) } };
    case 'bool':
      return { key: 'service.ruleRefusal.bad-type-choice', values: { ...named, allowed: listValues([true, false]) } };
    case 'string':
      return { key: 'service.ruleRefusal.bad-type-text', values: named };
  }
}

/** A limit the rules break, said with the game and profile (amounts in minor units of the table's currency). */
export function limitSaid(b: LimitBreak, named: { game: string; profile: string }, currency: string): Said {
  if (b.kind === 'seats') return said('limitSeats', { ...named, seats: b.seats, rule: b.rule, has: b.has });
  if (b.kind === 'round-max') return said('limitRoundMax', { ...named, roundMax: b.roundMax, min: b.min, currency });
  const name = b.what === 'table' ? 'limitSpreadTable' : b.what === 'main' ? 'limitSpreadMain' : 'limitSpreadBehind';
  return said(name, { ...named, max: b.max, min: b.min, times: b.times, rule: b.rule, currency });
}
