import type { ValueFormat } from '../config-editor.js';
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
  items.forEach((i, n) => {
    const parts = [`${n === re.index ? '▶' : ' '} ${n + 1}. ${i.key.slice('rules.'.length)} = ${i.value}`];
    if (i.optionClass) parts.push(t(`service.optionClass.${i.optionClass}`));
    if (i.article) parts.push(i.article);
    const [head = '', ...tail] = parts;
    rows.push(...wrapRow(tail.reduce((first, second) => t('punctuation.joined', { first, second }), head)));
  });
  if (item) {
    const option = item.key.slice('rules.'.length);
    rows.push('', ...wrapRow(t('service.config.ruleSelected', { option, value: item.value, default: item.default ?? '—' })));
    if (re.value !== null) rows.push(...wrapRow(t('service.config.new', { value: re.value })));
    const values = item.values ?? [];
    if (values.length > 0) {
      const now = re.value ?? toJson(item.value);
      const next = values[(values.indexOf(now) + 1) % values.length] ?? values[0] ?? now;
      btn('rule-value', t('service.config.ruleValue', { value: re.value ?? '—' }), () => a.choose({ ruleEdit: { ...re, value: next } }));
    } else {
      btn('rule-typed', t('service.config.ruleTyped'), () =>
        a.ask({
          title: option,
          label: t('service.config.typeNumber'),
          kind: 'digits',
          then: (typed) => a.choose({ ruleEdit: { ...re, value: String(Number(typed)) } }),
        }),
      );
    }
    if (re.value !== null) {
      const value = re.value;
      btn('config-authorise', t('service.config.authorise'), () =>
        a.ask({
          title: `${t('service.action.config-change')} · ${option}`,
          label: t('service.action.authorisation'),
          kind: 'reference',
          then: (authorisation) => {
            a.choose({ ruleEdit: null });
            a.act({ kind: 'config-change', key: 'profileOptions', value: withOption(page, option, value, item.default), authorisation });
          },
        }),
      );
    }
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
