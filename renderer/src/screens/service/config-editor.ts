import type { TFunction } from 'i18next';
import { BetId } from '../../../../protocol/index.js';
import { ruleOptionWords, ruleValueWords } from '../../../../locales/rule-choice.js';

/**
 * The Configuration page's editor: the keys the host changes while it runs (host/config/
 * config-changes.ts CHANGEABLE_KEYS), each edited field by field on the screen's pads instead of
 * as raw JSON, since a supervisor at the table has a touch screen and no keyboard. Amounts are
 * typed in whole units of the currency and kept in minor units; times are typed in seconds.
 * The host validates the value again (the table configuration's schema) before a second person
 * is called, and again when the change is made.
 */
export const EDITABLE_KEYS = ['limits', 'betLimits', 'denominations', 'timings', 'handpayTwoPersonAbove', 'roundMax', 'creditLimit'] as const;
export type EditableKey = (typeof EDITABLE_KEYS)[number];

export function isEditableKey(key: string): key is EditableKey {
  return (EDITABLE_KEYS as readonly string[]).includes(key);
}

/** A draft of a new value: one number per field (null: not set), and the notes ticked. */
export interface ConfigDraft {
  key: EditableKey;
  fields: Record<string, number | null>;
  notes: number[];
}

export interface EditorField {
  name: string;
  unit: 'money' | 'seconds';
  value: number | null;
}

const TIMINGS = ['bettingMs', 'decisionMs', 'resultsMs'] as const;

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A draft holding the current value (the page's JSON text of it). */
export function startDraft(key: EditableKey, current: string, table: { bets: readonly string[]; notes: readonly number[] }): ConfigDraft {
  const bets = table.bets;
  const v = parse(current);
  const fields: Record<string, number | null> = {};
  let notes: number[] = [];
  switch (key) {
    case 'limits':
      fields.min = num(obj(v).min);
      fields.max = num(obj(v).max);
      break;
    case 'handpayTwoPersonAbove':
    case 'roundMax':
    case 'creditLimit':
      fields.amount = num(v);
      break;
    case 'timings':
      for (const k of TIMINGS) {
        const ms = num(obj(v)[k]);
        fields[k] = ms === null ? null : Math.round(ms / 1000);
      }
      break;
    case 'denominations':
      notes = Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : [];
      // No list in the configuration means every note of the currency.
      if (notes.length === 0) notes = [...table.notes];
      break;
    case 'betLimits': {
      const set = obj(v);
      // Every bet of the game gets a row, and so does any bet the current value names (a bet behind).
      for (const bet of [...new Set([...bets, ...Object.keys(set)])]) {
        fields[`${bet}.min`] = num(obj(set[bet]).min);
        fields[`${bet}.max`] = num(obj(set[bet]).max);
      }
      break;
    }
  }
  return { key, fields, notes };
}

/** The fields of a draft in the order they are shown (denominations have toggles instead). */
export function draftFields(d: ConfigDraft): EditorField[] {
  return Object.entries(d.fields).map(([name, value]) => ({ name, unit: d.key === 'timings' ? 'seconds' : 'money', value }));
}

/**
 * A number typed on the pad, as the field keeps it: whole units to minor units (`minorPerUnit`,
 * the currency's: 100 avos to the pataca), seconds as seconds.
 */
export function typedValue(field: EditorField, typed: string, minorPerUnit: number): number | null {
  if (!/^\d{1,9}$/.test(typed)) return null;
  const n = Number(typed);
  return field.unit === 'money' ? n * minorPerUnit : n;
}

export function setField(d: ConfigDraft, name: string, value: number | null): ConfigDraft {
  return { ...d, fields: { ...d.fields, [name]: value } };
}

export function toggleNote(d: ConfigDraft, note: number): ConfigDraft {
  const notes = d.notes.includes(note) ? d.notes.filter((n) => n !== note) : [...d.notes, note].sort((a, b) => a - b);
  return { ...d, notes };
}

/**
 * The most a station credit limit may be (minor units: SAS 0x1A's 8 digits). The host refuses more
 * (terms/config-order-terms.ts CREDIT_LIMIT_MAX, which a screen cannot import; a test holds the
 * copies equal); this spares two people an authorisation the host would refuse.
 */
export const CREDIT_LIMIT_MAX = 99_999_999;

/** Why a draft cannot be sent yet: a locale key under `service.config.problem.` and its values. */
export interface DraftProblem {
  key: 'missing' | 'positive' | 'aboveMax' | 'minAboveMax' | 'bothOrNeither' | 'noNotes';
  values?: Record<string, string | number>;
}

/** The draft as the JSON the host takes, or what is wrong with it. */
export function draftValue(d: ConfigDraft): { ok: true; value: string } | { ok: false; problem: DraftProblem } {
  const f = d.fields;
  const missing = (name: string): { ok: false; problem: DraftProblem } => ({ ok: false, problem: { key: 'missing', values: { field: name } } });
  switch (d.key) {
    case 'limits': {
      if (f.min == null) return missing('min');
      if (f.max == null) return missing('max');
      if (f.min <= 0) return { ok: false, problem: { key: 'positive', values: { field: 'min' } } };
      if (f.min > f.max) return { ok: false, problem: { key: 'minAboveMax', values: { bet: '' } } };
      return { ok: true, value: JSON.stringify({ min: f.min, max: f.max }) };
    }
    case 'handpayTwoPersonAbove':
      if (f.amount == null) return missing('amount');
      return { ok: true, value: JSON.stringify(f.amount) };
    case 'creditLimit':
      // A limit of nothing would take no credit at all; the host also holds it to what SAS 0x1A can say.
      if (f.amount == null) return missing('amount');
      if (f.amount <= 0) return { ok: false, problem: { key: 'positive', values: { field: 'amount' } } };
      if (f.amount > CREDIT_LIMIT_MAX) return { ok: false, problem: { key: 'aboveMax', values: { field: 'amount', max: CREDIT_LIMIT_MAX } } };
      return { ok: true, value: JSON.stringify(f.amount) };
    case 'roundMax':
      // No amount (or 0): no cap on the table's total per round.
      return { ok: true, value: f.amount ? JSON.stringify(f.amount) : 'null' };
    case 'timings': {
      const out: Record<string, number> = {};
      for (const k of TIMINGS) {
        const s = f[k];
        if (s == null) return missing(k);
        if (s <= 0) return { ok: false, problem: { key: 'positive', values: { field: k } } };
        out[k] = s * 1000;
      }
      return { ok: true, value: JSON.stringify(out) };
    }
    case 'denominations':
      if (d.notes.length === 0) return { ok: false, problem: { key: 'noNotes' } };
      return { ok: true, value: JSON.stringify(d.notes) };
    case 'betLimits': {
      const out: Record<string, { min: number; max: number }> = {};
      const bets = [...new Set(Object.keys(f).map((k) => k.slice(0, k.lastIndexOf('.'))))];
      for (const bet of bets) {
        const min = f[`${bet}.min`] ?? null;
        const max = f[`${bet}.max`] ?? null;
        // A bet with neither plays under the table's limits.
        if (min === null && max === null) continue;
        if (min === null || max === null) return { ok: false, problem: { key: 'bothOrNeither', values: { bet } } };
        if (min <= 0) return { ok: false, problem: { key: 'positive', values: { field: `${bet}.min` } } };
        if (min > max) return { ok: false, problem: { key: 'minAboveMax', values: { bet } } };
        out[bet] = { min, max };
      }
      return { ok: true, value: JSON.stringify(out) };
    }
  }
}

export interface ValueFormat {
  /** Minor units in the table's currency, per locale. */
  money(minor: number): string;
  /** Minor units per whole unit of the table's currency (the notes are configured in whole units). */
  minorPerUnit: number;
  t: TFunction;
}

/** A bet's name where the game has one (`banker` → 莊), else as configured. */
function betName(bet: string, t: TFunction): string {
  const known = BetId.safeParse(bet);
  return known.success ? t(`bet.${known.data}`) : bet;
}

/**
 * A configuration value as a person reads it: money in the table's currency, times in seconds,
 * notes by face value. Keys the editor does not know are shown as the host sent them.
 */
export function formatConfigValue(key: string, json: string, f: ValueFormat): string {
  const v = parse(json);
  const money = (n: unknown) => (num(n) === null ? '—' : f.money(num(n) as number));
  switch (key) {
    case 'limits':
      return f.t('service.config.limitsValue', { min: money(obj(v).min), max: money(obj(v).max) });
    case 'handpayTwoPersonAbove':
    case 'creditLimit':
      return money(v);
    case 'roundMax':
      return num(v) === null ? f.t('service.config.noRoundMax') : money(v);
    case 'timings':
      return f.t('service.config.timingsValue', {
        betting: Math.round((num(obj(v).bettingMs) ?? 0) / 1000),
        decision: Math.round((num(obj(v).decisionMs) ?? 0) / 1000),
        results: Math.round((num(obj(v).resultsMs) ?? 0) / 1000),
      });
    case 'denominations':
      return Array.isArray(v) && v.length > 0
        ? f.t('service.config.notesValue', { notes: v.map((n) => (num(n) === null ? '—' : f.money((num(n) ?? 0) * f.minorPerUnit))) })
        : f.t('service.config.allNotes');
    case 'betLimits': {
      const entries = Object.entries(obj(v));
      if (entries.length === 0) return f.t('service.config.noBetLimits');
      const limits = entries.map(([bet, l]) =>
        f.t('service.config.betLimitValue', {
          bet: betName(bet, f.t),
          limits: f.t('service.config.limitsValue', { min: money(obj(l).min), max: money(obj(l).max) }),
        }),
      );
      return f.t('service.config.betLimitsValue', { limits });
    }
    case 'profileOptions':
      return ruleOptionsWords(v, json, f);
    default: {
      // A station's line: its seat and its acceptor (spec and protocol).
      if (/^station\.\d+$/.test(key)) {
        const s = obj(v);
        return f.t('service.config.stationValue', { seat: String(s.seat ?? '—'), spec: String(s.billAcceptor ?? '—'), protocol: String(s.protocol ?? '—') });
      }
      // A rule option's value by its word (`ruleChoice.*`); one this version cannot name as recorded.
      if (key.startsWith('rules.')) return ruleValueWords(f.t, json) ?? json;
      return json;
    }
  }
}

/**
 * The table's rule options (`{"surrender":"none"}`, the JSON the host takes) as the second person
 * reads them before confirming: each option by its name and its value by its word (`ruleChoice.*`),
 * one this version cannot name as it is; none chosen, the text's own.
 */
function ruleOptionsWords(v: unknown, json: string, f: ValueFormat): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return json;
  const t = (key: Parameters<typeof f.t>[0], options?: Record<string, unknown>): string => String(f.t(key, { ...options }));
  const items = Object.entries(v).map(([option, value]) => {
    const raw = JSON.stringify(value);
    return f.t('ruleChoice.said', { option: ruleOptionWords(t, option) ?? option, value: ruleValueWords(t, raw) ?? raw });
  });
  return items.length === 0 ? f.t('service.config.noRuleOptions') : f.t('service.config.ruleOptionsValue', { items });
}

/** A field's value as shown on its button. */
export function formatField(field: EditorField, f: ValueFormat): string {
  if (field.value === null) return f.t('service.config.notSet');
  return field.unit === 'money' ? f.money(field.value) : f.t('service.config.seconds', { n: field.value });
}
