import { citationWords } from '../../../../../locales/citation.js';
import { minorDigits } from '../../../../../locales/money.js';
import { formatConfigValue, isEditableKey, startDraft, type ValueFormat } from '../config-editor.js';
import type { ConfigPageData } from './config-page-data.js';
import { configKeyLabel } from './config-labels.js';
import type { PageKit } from './kit.js';
import { ruleEditor } from './rule-editor.js';
import { wrapRow } from './rows.js';
import { valueEditor } from './value-editor.js';

/**
 * The Configuration page: every item with its article, the changes waiting for the round to end
 * and the latest journalled ones (before → after, who, the regulator's reference); a supervisor
 * edits a changeable key field by field, then enters the reference, then a second person confirms.
 */
export function configPage(page: ConfigPageData, k: PageKit): void {
  const { c, sup } = k;
  const fmt: ValueFormat = { money: k.money, minorPerUnit: 10 ** minorDigits(k.currency), t: k.t };
  const ruleItems = page.items.filter((i) => i.key.startsWith('rules.') && i.optionClass !== undefined);
  if (c.ruleEdit && sup) return ruleEditor(page, ruleItems, c.ruleEdit, fmt, k);
  if (c.edit && sup) return valueEditor(page, c.edit, fmt, k);
  configList(page, fmt, k);
  k.btn('edit-rules', k.t('service.config.editRules'), () => k.a.choose({ ruleEdit: { index: 0, value: null } }), sup && ruleItems.some((i) => i.editable));
}

/** The items, the changes queued for the round's end or the next start, and the latest journalled ones. */
function configList(page: ConfigPageData, fmt: ValueFormat, k: PageKit): void {
  const { a, sup, rows, btn } = k;
  const { t } = fmt;
  if (!page.items.some((i) => i.editable)) rows.push(t('service.field.configReadOnly'), '');
  if (page.queued.length > 0) {
    rows.push(t('service.config.queued'));
    for (const q of page.queued) rows.push(...wrapRow(`  #${q.seq} ${configKeyLabel(q.key, t)} → ${formatConfigValue(q.key, q.after, fmt)}`));
  }
  // The latest journalled changes first: after a change, its before and after are on screen.
  if (page.changes.length > 0) {
    rows.push(t('service.config.changes'));
    for (const ch of page.changes) {
      rows.push(
        ...wrapRow(
          '  ' +
            t('service.config.changeRow', {
              seq: ch.seq,
              ts: ch.ts.slice(0, 19).replace('T', ' '),
              key: configKeyLabel(ch.key, t),
              before: formatConfigValue(ch.key, ch.before, fmt),
              after: formatConfigValue(ch.key, ch.after, fmt),
              who: ch.witness ? `${ch.who} / ${ch.witness}` : ch.who,
              authorisation: ch.authorisation,
            }),
        ),
      );
    }
    rows.push('');
  }
  if ((page.atRestart ?? []).length > 0) {
    rows.push(t('service.config.atRestart'));
    for (const q of page.atRestart ?? []) rows.push(...wrapRow(`  #${q.seq} ${configKeyLabel(q.key, t)} → ${q.after}`));
  }
  for (const item of page.items) {
    const value = formatConfigValue(item.key, item.value, fmt);
    // The option's class, its article (in words) and a non-default choice, each after the language's separator.
    const parts = [
      t('service.field.config', { key: configKeyLabel(item.key, t), value }),
      ...(item.optionClass ? [t(`service.optionClass.${item.optionClass}`)] : []),
      ...(item.article ? [citationWords(t, item.article)] : []),
      ...(item.choice ? [t('service.config.chosen', { value: item.default === undefined ? '' : formatConfigValue(item.key, item.default, fmt) })] : []),
    ];
    const [head = '', ...tail] = parts;
    rows.push(...wrapRow(tail.reduce((first, second) => t('punctuation.joined', { first, second }), head)));
    if (item.editable && isEditableKey(item.key)) {
      const key = item.key;
      btn(`edit-${key}`, t('service.config.edit', { key: configKeyLabel(key, t) }), () => a.choose({ edit: startDraft(key, item.value, page) }), sup);
    }
  }
}
