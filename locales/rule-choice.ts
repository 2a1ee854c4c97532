import { isMessageKey, type MessageKey } from './i18n.js';

// A settlement line settled under a rule option other than the profile's default carries it as the
// engines write it (`surrender=none`, `payouts.tie.win=9`: engine/table/rule-options.ts
// choiceMarker). A recall says it in the reader's language: the option by its name
// (`ruleChoice.option.<path>`), a value by its word (`ruleChoice.value.<code>`), yes or no, a number
// as it is. A marker this version cannot name (a newer engine's option) is shown as recorded, and
// says so.

type Translate = (key: MessageKey, options?: Record<string, unknown>) => string;

/** An option's path as the engines write it: words, dots between them; nothing that walks the catalogue otherwise. */
const PATH = /^[A-Za-z][A-Za-z0-9]{0,40}(?:\.[A-Za-z][A-Za-z0-9]{0,40}){0,3}$/;
/** A value's code as it can name a key: lower-case words joined by hyphens. */
const CODE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A value in the reader's language: yes or no, a number as it is, a code by its word; null for one this version does not name. */
function valueWords(t: Translate, value: string): string | null {
  if (value === 'true') return t('ruleChoice.yes');
  if (value === 'false') return t('ruleChoice.no');
  if (/^-?\d+(?:\.\d+)?$/.test(value) || /^\d+:\d+$/.test(value)) return value;
  const key = `ruleChoice.value.${value}`;
  return CODE.test(value) && isMessageKey(key) ? t(key) : null;
}

/** One choice marker (`option=value`) in the reader's language; one it cannot name, as recorded and said to be. */
export function choiceWords(t: Translate, marker: string): string {
  const eq = marker.indexOf('=');
  const path = eq < 0 ? '' : marker.slice(0, eq);
  const key = `ruleChoice.option.${path}`;
  const value = valueWords(t, marker.slice(eq + 1));
  if (!PATH.test(path) || !isMessageKey(key) || value === null) return t('ruleChoice.asRecorded', { marker });
  return t('ruleChoice.said', { option: t(key), value });
}

/** A line's choice markers, each in the reader's language (for the catalogue's `{{choices, list}}`). */
export function choicesWords(t: Translate, markers: readonly string[]): string[] {
  return markers.map((m) => choiceWords(t, m));
}

/** A rule option by its name in the reader's language (`surrender` → "surrender"); null for one this version does not name. */
export function ruleOptionWords(t: Translate, path: string): string | null {
  const key = `ruleChoice.option.${path}`;
  return PATH.test(path) && isMessageKey(key) ? t(key) : null;
}

/**
 * A rule option's value as JSON (the Configuration page's, a refusal's: `"not-vs-ace"`, `true`, `3`)
 * in the reader's language: yes or no, a number as it is, a code by its word; null for one this
 * version does not name (an object, a code a newer engine writes).
 */
export function ruleValueWords(t: Translate, json: string): string | null {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  // A marker's value reads as the JSON's does: `true`, `3`, a code.
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return valueWords(t, String(v));
  return typeof v === 'string' ? valueWords(t, v) : null;
}
