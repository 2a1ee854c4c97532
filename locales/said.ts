import type { i18n } from 'i18next';
import { createI18n, isMessageKey, type MessageKey } from './i18n.js';
import type { Catalogue } from './index.js';
import { cardPlaceSaid } from './card-place.js';
import { configKeyWords } from './config-key.js';
import { ruleOptionWords, ruleValueWords } from './rule-choice.js';

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

/** A fault's detail's name (a jam, the disk's space, ...): a key of the catalogues' `tiltDetail` section. */
export type TiltDetailName = keyof Catalogue['tiltDetail'] & string;

/**
 * A `tiltDetail.<name>` key with its parameters, each string cut to its bound: what a fault's
 * `detail` says, journalled beside its English (`tilt.raise` `say`, host/tilts/tilt-manager.ts).
 */
export function tiltDetailSaid(name: TiltDetailName, values: Record<string, SaidValue> = {}): Said {
  return { key: `tiltDetail.${name}`, values: bounded(values) };
}

/** A `journalSaid.<name>` key with its parameters: what the journal says of an act (a meter clear's `say`). */
export function journalSaidOf(name: keyof Catalogue['journalSaid'] & string, values: Record<string, SaidValue> = {}): Said {
  return { key: `journalSaid.${name}`, values: bounded(values) };
}

/**
 * The parameters that carry a code the catalogues name by a noun, and the section holding each
 * code's noun: a hold's reason, a dealing error's correction, a game, a rule profile, a card's
 * step in the deal, where in a bill acceptor a note jammed, a fault (by its message), a service
 * role, why a service session ended, why a ticket was voided or given back, a service act, why a
 * round could not be corrected, a decision (the event log), the kind of a failure the host met, why a SAS port is down. A code
 * with no noun there is said as itself.
 */
const NOUNS: Readonly<Record<string, string>> = {
  hold: 'holdName',
  correction: 'correctionName',
  game: 'game',
  profile: 'backoffice.profile',
  step: 'cardStep',
  where: 'jamPlace',
  fault: 'tilt',
  role: 'service.role',
  exitReason: 'service.exitReason',
  ticketVoid: 'service.tickets.voidReason',
  ticketReturn: 'service.tickets.reason',
  serviceAct: 'service.journalAct',
  uncorrectable: 'service.uncorrectable',
  decision: 'action',
  failure: 'service.faultName',
  sasPort: 'sasPortWhy',
};

/** A code as it can name a key: lower-case words joined by hyphens, nothing that walks the catalogue. */
const CODE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** How a reader translates: the i18next `t` of its language. */
type Translate = (key: MessageKey, options: Record<string, unknown>) => string;

/** A parameter as the reader says it: a code by its noun in the reader's language, else as it is. */
function nounOf(t: Translate, name: string, value: SaidValue): SaidValue {
  if (name === 'scope' && typeof value === 'string') return scopeWords(t, value);
  const section = Object.hasOwn(NOUNS, name) ? NOUNS[name] : undefined;
  if (section === undefined || typeof value !== 'string' || !CODE.test(value)) return value;
  const key = `${section}.${value}`;
  return isMessageKey(key) ? t(key, {}) : value;
}

/** A meters' scope (`table`, `station:3`) as the table or that station, in the reader's language; anything else as it is. */
function scopeWords(t: Translate, scope: string): string {
  if (scope === 'table') return t('service.field.atTable', {});
  const m = /^station:(\d{1,4})$/.exec(scope);
  return m ? t('service.field.atStation', { station: Number(m[1]) }) : scope;
}

/**
 * The key of one cause of `causes` (why a device takes nothing, protocol `InhibitedBy`): the
 * technician's switch (`service-disable`) or a current fault (`tilt:<kind>`, the fault's own words).
 */
function causeKey(code: string): string | null {
  if (code === 'service-disable') return 'service.field.disabledByService';
  const m = /^tilt:([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(code);
  return m ? `tilt.${m[1]}` : null;
}

/** A ticket printer's fault's key (`paper-jam`, `platen-up`: its words on the Tickets page). */
function printerFaultKey(code: string): string | null {
  return CODE.test(code) ? `service.tickets.fault.${code}` : null;
}

/** The parameters that are lists of codes separated by spaces, and the key of each code's words. */
const LISTS: Readonly<Record<string, (code: string) => string | null>> = { causes: causeKey, printerFaults: printerFaultKey };

/**
 * A parameter as the reader says it. `causes` (`printerFaults`) is a list of codes separated by
 * spaces, each said by its words, for the catalogue's `{{causes, list}}` to join in the reader's
 * way (never a comma in code); every other parameter a code by its noun, else as it is.
 */
function wordOf(t: Translate, name: string, value: SaidValue): SaidValue | string[] {
  if (name === 'configKey' && typeof value === 'string') return configKeyWords((k, o) => t(k, o ?? {}), value);
  // Where a card went (`seat:2:hand:0`), as a recall says it; a place this version does not know as recorded.
  if (name === 'cardPlace' && typeof value === 'string') {
    const place = cardPlaceSaid(value);
    return place === null ? value : t(place.key, { ...place.values });
  }
  const keyOf = Object.hasOwn(LISTS, name) ? LISTS[name] : undefined;
  if (keyOf === undefined || typeof value !== 'string') return nounOf(t, name, value);
  return value
    .split(' ')
    .filter((code) => code !== '')
    .map((code) => {
      const key = keyOf(code);
      return key !== null && isMessageKey(key) ? t(key, {}) : code;
    });
}

/**
 * A refusal's words in the reader's language (`t`): its key with its parameters, each code a
 * noun names said by that noun (the service screen's notice, the back office, the log's English).
 */
export function saidWords(t: Translate, s: { readonly key: MessageKey; readonly values?: Readonly<Record<string, SaidValue>> }): string {
  if (s.key.startsWith('service.ruleRefusal.')) return t(s.key, ruleRefusalValues(t, s.values ?? {}));
  // Only a service-mode refusal's, a service act's done notice's and a fault detail's and the journal's own words' (journalSaid) parameters are read as nouns: a
  // configuration refusal names its games and profiles as codes throughout (`{{games}}` is a list of
  // them), and one of its codes said by a noun beside another left as a code would read as two kinds of thing.
  if (!['serviceRefusal.', 'service.done.', 'tiltDetail.', 'journalSaid.'].some((p) => s.key.startsWith(p))) return t(s.key, { ...s.values });
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(s.values ?? {}).map(([k, v]) => [k, wordOf(t, k, v)]));
  // A service act's detail (`actDetail`, the event log's): its own phrase of the catalogues, said with the same parameters.
  const detail = s.key.startsWith('journalSaid.') ? actDetailKey(s.values?.actDetail) : null;
  if (detail !== null) values.actDetail = t(detail, values);
  return t(s.key, values);
}

/** The key of a service act's detail phrase (`journalSaid.act*`); null for anything else. */
function actDetailKey(name: SaidValue | undefined): MessageKey | null {
  if (typeof name !== 'string' || !/^act[A-Z][A-Za-z]{0,60}$/.test(name)) return null;
  const key = `journalSaid.${name}`;
  return isMessageKey(key) ? key : null;
}

/**
 * A rule option refused by the engine's guard (host/config/refusal-words.ts ruleSaid) as the
 * reader says it: the option by its name, the value and each value the text allows by its word
 * (`ruleChoice.*`, as the Configuration page and a recall say them), for the catalogue's
 * `{{allowed, list}}` to join; a range, a type or a code this version cannot name as it came.
 */
function ruleRefusalValues(t: Translate, values: Readonly<Record<string, SaidValue>>): Record<string, unknown> {
  const say = (key: MessageKey, options?: Record<string, unknown>) => t(key, options ?? {});
  const out: Record<string, unknown> = { ...values };
  if (typeof values.option === 'string') out.option = ruleOptionWords(say, values.option) ?? values.option;
  if (typeof values.value === 'string') out.value = ruleValueWords(say, values.value) ?? values.value;
  if (typeof values.allowed === 'string') {
    const each = values.allowed.split(', ').map((v) => ruleValueWords(say, v));
    if (each.every((w) => w !== null)) out.allowed = each;
  }
  // A jackpot program's combination (`jackpot-award-twice`…), by the words the table's jackpot panel says it in.
  if (typeof values.combination === 'string' && CODE.test(values.combination)) {
    const key = `jackpot.combination.${values.combination}`;
    if (isMessageKey(key)) out.combination = t(key, {});
  }
  return out;
}

let english: i18n | undefined;

/** The words in English, for the host's log and the journal's `reason` (a reader without the catalogues). */
export function inEnglish(s: Said): string {
  english ??= createI18n('en');
  const t = english.t;
  return saidWords((key, options) => t(key, options) as string, s);
}
