import {
  draftFields,
  draftValue,
  formatConfigValue,
  formatField,
  setField,
  toggleNote,
  typedValue,
  type ConfigDraft,
  type ValueFormat,
} from '../config-editor.js';
import type { ConfigPageData } from './config-page-data.js';
import { configKeyLabel, fieldLabel } from './config-labels.js';
import type { PageKit } from './kit.js';
import { wrapRow } from './rows.js';

/**
 * A changeable key edited field by field on the pads (amounts in whole units, times in seconds),
 * then the regulator's reference, then a second person confirms.
 */
export function valueEditor(page: ConfigPageData, edit: ConfigDraft, fmt: ValueFormat, k: PageKit): void {
  const { a, rows, btn } = k;
  const { t, money } = fmt;
  const item = page.items.find((i) => i.key === edit.key);
  rows.push(t('service.config.editing', { key: configKeyLabel(edit.key, t) }));
  rows.push(...wrapRow('  ' + t('service.config.now', { value: formatConfigValue(edit.key, item?.value ?? 'null', fmt) })));
  const v = draftValue(edit);
  rows.push(
    ...wrapRow(
      '  ' +
        (v.ok
          ? t('service.config.new', { value: formatConfigValue(edit.key, v.value, fmt) })
          : t(`service.config.problem.${v.problem.key}`, {
              ...(v.problem.values ?? {}),
              field: fieldLabel(String(v.problem.values?.field ?? ''), t),
              // A bound is money in minor units: said in the table's currency.
              ...(typeof v.problem.values?.max === 'number' ? { max: money(v.problem.values.max) } : {}),
            })),
    ),
  );
  rows.push('', ...wrapRow(t('service.config.howItApplies')));
  if (edit.key === 'betLimits') rows.push(t('service.config.betLimitsHint'));
  if (edit.key === 'denominations') rows.push(t('service.config.notesHint'));
  for (const f of draftFields(edit)) {
    btn(`field-${f.name}`, t('punctuation.labelled', { label: fieldLabel(f.name, t), value: formatField(f, fmt) }), () =>
      a.ask({
        title: t('punctuation.joined', { first: configKeyLabel(edit.key, t), second: fieldLabel(f.name, t) }),
        label: t(f.unit === 'money' ? 'service.config.typeAmount' : 'service.config.typeSeconds'),
        kind: 'digits',
        then: (typed) => {
          // In the per-bet limits, 0 takes the bet back to the table's limits.
          if (edit.key === 'betLimits' && /^0+$/.test(typed)) return a.choose({ edit: setField(edit, f.name, null) });
          const n = typedValue(f, typed, fmt.minorPerUnit);
          if (n !== null) a.choose({ edit: setField(edit, f.name, n) });
        },
      }),
    );
  }
  if (edit.key === 'denominations') {
    for (const n of page.notes) btn(`note-${n}`, money(n * fmt.minorPerUnit), () => a.choose({ edit: toggleNote(edit, n) }), true, edit.notes.includes(n));
  }
  if (v.ok) {
    btn('config-authorise', t('service.config.authorise'), () =>
      a.ask({
        title: t('punctuation.joined', { first: t('service.action.config-change'), second: configKeyLabel(edit.key, t) }),
        label: t('service.action.authorisation'),
        kind: 'reference',
        then: (authorisation) => {
          a.choose({ edit: null });
          a.act({ kind: 'config-change', key: edit.key, value: v.value, authorisation });
        },
      }),
    );
  }
  btn('config-cancel', t('service.confirm.cancel'), () => a.choose({ edit: null }));
}
