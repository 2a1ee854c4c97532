import { citationWords } from '../../../../../locales/citation.js';
import type { ValueFormat } from '../config-editor.js';
import { ruleValueWords } from '../../../../../locales/rule-choice.js';
import { configKeyLabel } from './config-labels.js';
import type { ConfigItemData, ConfigPageData } from './config-page-data.js';
import type { PageKit } from './kit.js';
import { toJson, withOption } from './rule-options.js';
import { wrapRow } from './rows.js';

/**
 * The rule options' editor: every option of the profile numbered, with its value, class and
 * article; the supervisor picks one by its number, chooses a value of its type (any: the host's
 * guard refuses what the text fixes, naming the article), then enters the regulator's reference.
 * A change takes effect at the next start.
 */
export function ruleEditor(
  page: ConfigPageData,
  items: readonly ConfigItemData[],
  re: { index: number; value: string | null },
  fmt: ValueFormat,
  k: PageKit,
): void {
  const { a, rows, btn } = k;
  const { t } = fmt;
  const item = items[re.index];
  rows.push(t('service.config.editingRules'));
  // An option by its name and a value by its word (`ruleChoice.*`), as the list above and a recall say them; one this version cannot name as it is.
  const named = (i: ConfigItemData) => configKeyLabel(i.key, t);
  const worded = (json: string) => ruleValueWords(t, json) ?? json;
  items.forEach((i, n) => {
    const parts = [`${n === re.index ? '▶' : ' '} ${n + 1}. ${t('service.field.config', { key: named(i), value: worded(i.value) })}`];
    if (i.optionClass) parts.push(t(`service.optionClass.${i.optionClass}`));
    if (i.article) parts.push(citationWords(t, i.article));
    const [head = '', ...tail] = parts;
    rows.push(...wrapRow(tail.reduce((first, second) => t('punctuation.joined', { first, second }), head)));
  });
  if (item) {
    const option = item.key.slice('rules.'.length);
    const name = named(item);
    rows.push(
      '',
      ...wrapRow(
        t('service.config.ruleSelected', { option: name, value: worded(item.value), default: item.default === undefined ? '—' : worded(item.default) }),
      ),
    );
    if (re.value !== null) rows.push(...wrapRow(t('service.config.new', { value: worded(re.value) })));
    const values = item.values ?? [];
    if (values.length > 0) {
      const now = re.value ?? toJson(item.value);
      const next = values[(values.indexOf(now) + 1) % values.length] ?? values[0] ?? now;
      btn('rule-value', t('service.config.ruleValue', { value: re.value === null ? '—' : worded(re.value) }), () =>
        a.choose({ ruleEdit: { ...re, value: next } }),
      );
    } else {
      btn('rule-typed', t('service.config.ruleTyped'), () =>
        a.ask({
          title: name,
          label: t('service.config.typeNumber'),
          kind: 'digits',
          then: (typed) => a.choose({ ruleEdit: { ...re, value: String(Number(typed)) } }),
        }),
      );
    }
    if (re.value !== null) authoriseButton(page, item, option, name, re.value, k);
  }
  btn('rule-pick', t('service.config.rulePick'), () =>
    a.ask({
      title: t('service.config.editingRules'),
      label: t('service.config.typeNumber'),
      kind: 'digits',
      then: (typed) => {
        const n = Number(typed) - 1;
        if (Number.isInteger(n) && n >= 0 && n < items.length) a.choose({ ruleEdit: { index: n, value: null } });
      },
    }),
  );
  btn('config-cancel', t('service.confirm.cancel'), () => a.choose({ ruleEdit: null }));
}

/** The button that asks the regulator's reference, then the day it takes effect, and asks for the change of `option` to `value`. */
function authoriseButton(page: ConfigPageData, item: ConfigItemData, option: string, name: string, value: string, k: PageKit): void {
  const { a, btn, t } = k;
  btn('config-authorise', t('service.config.authorise'), () =>
    a.ask({
      title: `${t('service.action.config-change')} · ${name}`,
      label: t('service.action.authorisation'),
      kind: 'reference',
      // Then the day that authorisation takes effect (issue 51): typed YYYYMMDD, 0 for the day it is journalled.
      then: (authorisation) =>
        a.ask({
          title: `${t('service.action.config-change')} · ${name}`,
          label: t('service.config.typeEffective'),
          kind: 'digits',
          then: (typed) => {
            const effective = effectiveDay(typed);
            if (effective === null) return;
            a.choose({ ruleEdit: null });
            a.act({
              kind: 'config-change',
              key: 'profileOptions',
              value: withOption(page, option, value, item.default),
              authorisation,
              ...(effective ? { effective } : {}),
            });
          },
        }),
    }),
  );
}

/** A day typed on the digits pad, `YYYYMMDD` → `YYYY-MM-DD`; `0`: none (the day the change is journalled); null: not a day. */
export function effectiveDay(typed: string): string | null | '' {
  if (/^0+$/.test(typed)) return '';
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(typed);
  if (!m) return null;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}
