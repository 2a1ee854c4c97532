import type { i18n } from 'i18next';
import { createI18n, type MessageKey } from '../../locales/i18n.js';
import type { Catalogue } from '../../locales/index.js';
import type { RuleRefusal } from '../../engine/table/rule-options.js';
import type { LimitBreak } from '../../engine/table/limits.js';

/** A configuration refusal's name: a key of the catalogues' `configRefusal` section. */
export type ConfigRefusalName = keyof Catalogue['configRefusal'];

/** A service-mode refusal's name (a handpay, a jackpot reset, ...): a key of the catalogues' `serviceRefusal` section. */
export type ServiceRefusalName = keyof Catalogue['serviceRefusal'];

/** A parameter of a refusal's words: a code, a name, a count, an amount in minor units (with `currency`). */
export type SaidValue = string | number;

/**
 * What a refusal says to a person, as a key of the catalogues and its parameters (never a
 * sentence): the service screen, the back office and the journal carry this, and each reader
 * puts it in their own language. A rule option refused by the engine's guard says its
 * `service.ruleRefusal.<reason>` key; every other refusal of a configuration change a
 * `configRefusal.<name>` key.
 */
export interface Said {
  readonly key: MessageKey;
  readonly values: Readonly<Record<string, SaidValue>>;
}

/** The longest parameter a refusal carries (a list of profiles, the configuration's own problems). */
const MAX_VALUE = 400;

/** A `configRefusal.<name>` key with its parameters, each string cut to its bound. */
export function said(name: ConfigRefusalName, values: Record<string, SaidValue> = {}): Said {
  return { key: `configRefusal.${name}`, values: bounded(values) };
}

/** A `serviceRefusal.<name>` key with its parameters, each string cut to its bound (host/service/refusal-words.ts puts it on the screen). */
export function serviceSaid(name: ServiceRefusalName, values: Record<string, SaidValue> = {}): Said {
  return { key: `serviceRefusal.${name}`, values: bounded(values) };
}

function bounded(values: Record<string, SaidValue>): Record<string, SaidValue> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, MAX_VALUE) : v]));
}

let english: i18n | undefined;

/** The words in English, for the host's log and the journal's `reason` (a reader without the catalogues). */
export function inEnglish(s: Said): string {
  english ??= createI18n('en');
  return english.t(s.key, { ...s.values } as Record<string, unknown>) as string;
}

/**
 * A rule option the engine's guard refused, as the screens say it: `service.ruleRefusal.<reason>`
 * (its `-no-article` form where no text names one), the option, the value, the article, what is allowed.
 */
export function ruleSaid(r: RuleRefusal): Said {
  const values = {
    option: r.option.slice(0, 64),
    value: r.value.slice(0, 64),
    ...(r.article ? { article: r.article.slice(0, 128) } : {}),
    ...(r.allowed ? { allowed: r.allowed.slice(0, 128) } : {}),
  };
  return { key: `service.ruleRefusal.${r.reason}${r.article ? '' : '-no-article'}`, values };
}

/** A limit the rules break, said with the game and profile (amounts in minor units of the table's currency). */
export function limitSaid(b: LimitBreak, named: { game: string; profile: string }, currency: string): Said {
  if (b.kind === 'seats') return said('limitSeats', { ...named, seats: b.seats, rule: b.rule, has: b.has });
  if (b.kind === 'round-max') return said('limitRoundMax', { ...named, roundMax: b.roundMax, min: b.min, currency });
  const name = b.what === 'table' ? 'limitSpreadTable' : b.what === 'main' ? 'limitSpreadMain' : 'limitSpreadBehind';
  return said(name, { ...named, max: b.max, min: b.min, times: b.times, rule: b.rule, currency });
}
