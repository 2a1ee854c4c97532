import type { ServiceAction, ServicePage } from '../../../../../protocol/index.js';
import { formatConfigValue, type ValueFormat } from '../config-editor.js';
import { configKeyLabel } from './config-labels.js';

/** What a two-person action will do, as the second person must read it before confirming. */
export function actionSummary(action: ServiceAction, page: ServicePage | undefined, fmt: ValueFormat): string {
  if (action.kind === 'config-change') {
    const before = page?.page === 'config' ? page.items.find((i) => i.key === action.key)?.value : undefined;
    return fmt.t('service.config.confirmSummary', {
      key: configKeyLabel(action.key, fmt.t),
      before: before === undefined ? '—' : formatConfigValue(action.key, before, fmt),
      after: formatConfigValue(action.key, action.value, fmt),
      authorisation: action.authorisation,
    });
  }
  const joined = (first: string, second: string) => fmt.t('punctuation.joined', { first, second });
  if (action.kind === 'correct') return joined(action.roundId, fmt.t(`service.correction.${action.correction}`));
  if (action.kind === 'void-round')
    return joined(action.roundId, action.uncorrectable ? fmt.t(`service.uncorrectable.${action.uncorrectable}`) : action.reason);
  // The count the second person confirms: the station, then each face value and how many were counted.
  if (action.kind === 'cashbox-drop')
    return action.notes.reduce(
      (first, n) => joined(first, fmt.t('punctuation.labelled', { label: fmt.money(n.note * fmt.minorPerUnit), value: n.count })),
      fmt.t('service.action.station', { station: action.station }),
    );
  const { kind: _kind, ...rest } = action;
  const [head = '', ...tail] = Object.values(rest).map(String);
  return tail.reduce((first, second) => fmt.t('punctuation.joined', { first, second }), head);
}
