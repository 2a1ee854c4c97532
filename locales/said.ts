import type { i18n } from 'i18next';
import { createI18n, type MessageKey } from './i18n.js';
import type { Catalogue } from './index.js';

/** A key named without its plural suffix, as i18next resolves it (`roundCardsAfterEntry_other` is `roundCardsAfterEntry`). */
type WithoutPlural<K extends string> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

/** A service-mode refusal's name (a handpay, a jackpot reset, ...): a key of the catalogues' `serviceRefusal` section, a plural one by its base. */
export type ServiceRefusalName = WithoutPlural<keyof Catalogue['serviceRefusal'] & string>;

/** A parameter of a refusal's words: a code, a name, a count, an amount in minor units (with `currency`). */
export type SaidValue = string | number;

/**
 * What a refusal says to a person, as a key of the catalogues and its parameters (never a
 * sentence): the service screen, the back office and the journal carry this, and each reader
 * puts it in their own language. A rule option refused by the engine's guard says its
 * `service.ruleRefusal.<reason>` key; every other refusal of a configuration change a
 * `configRefusal.<name>` key; a refusal of service mode (a handpay, a jackpot reset, a fault's
 * clearing) a `serviceRefusal.<name>` key.
 */
export interface Said {
  readonly key: MessageKey;
  readonly values: Readonly<Record<string, SaidValue>>;
}

/** The longest parameter a refusal carries (a list of profiles, the configuration's own problems). */
const MAX_VALUE = 400;

/** The parameters, each string cut to its bound. */
export function bounded(values: Record<string, SaidValue>): Record<string, SaidValue> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v.slice(0, MAX_VALUE) : v]));
}

/** A `serviceRefusal.<name>` key with its parameters, each string cut to its bound (host/service/refusal-words.ts puts it on the screen). */
export function serviceSaid(name: ServiceRefusalName, values: Record<string, SaidValue> = {}): Said {
  return { key: `serviceRefusal.${name}`, values: bounded(values) };
}

let english: i18n | undefined;

/** The words in English, for the host's log and the journal's `reason` (a reader without the catalogues). */
export function inEnglish(s: Said): string {
  english ??= createI18n('en');
  return english.t(s.key, { ...s.values } as Record<string, unknown>) as string;
}
