import type { TFunction } from 'i18next';
import { BetId } from '../../../../../protocol/index.js';
import { ruleOptionWords } from '../../../../../locales/rule-choice.js';

/** The configuration keys with words of their own (`service.configKey.<key>`); rule options keep their own names. */
const WORDED_CONFIG_KEYS = [
  'tableId',
  'game',
  'profile',
  'currency',
  'limits',
  'betLimits',
  'denominations',
  'seats',
  'timings',
  'defaultLanguage',
  'shoe',
  'upstream',
  'handpayTwoPersonAbove',
  'creditLimit',
  'roundMax',
  'profileOptions',
  'profileAuthorisation',
] as const;

/** A configuration key's name in the screen's language; a rule option (`rules.<path>`) by its name (`ruleChoice.option.*`), one this version cannot name as it is. */
export function configKeyLabel(key: string, t: TFunction): string {
  const station = /^station\.(\d+)$/.exec(key);
  if (station) return t('service.field.atStation', { station: station[1] });
  if (key.startsWith('rules.')) return ruleOptionWords(t, key.slice('rules.'.length)) ?? key;
  const worded = WORDED_CONFIG_KEYS.find((k) => k === key);
  return worded ? t(`service.configKey.${worded}`) : key;
}

/** The fields the editor asks for (`service.config.field.<field>`), alone or after a bet (`banker.min`). */
const EDITOR_FIELDS = ['min', 'max', 'amount', 'bettingMs', 'decisionMs', 'resultsMs'] as const;

/** An editor field's name in the screen's language, after its bet's name for a per-bet limit. */
export function fieldLabel(name: string, t: TFunction): string {
  const cut = name.lastIndexOf('.');
  const field = EDITOR_FIELDS.find((f) => f === name.slice(cut + 1));
  if (!field) return name;
  if (cut < 0) return t(`service.config.field.${field}`);
  const bet = name.slice(0, cut);
  const known = BetId.safeParse(bet);
  return t('service.config.betField', { bet: known.success ? t(`bet.${known.data}`) : bet, field: t(`service.config.field.${field}`) });
}
