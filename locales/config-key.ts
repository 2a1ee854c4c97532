import { isMessageKey, type MessageKey } from './i18n.js';
import { ruleOptionWords } from './rule-choice.js';

type Translate = (key: MessageKey, options?: Record<string, unknown>) => string;

/**
 * A configuration key's name in the reader's language, as the Configuration page, its confirmation
 * and the event log's configuration changes say it: a station's line by its number, a rule option
 * (`rules.<path>`) by its name (`ruleChoice.option.*`), any other key by `service.configKey.<key>`;
 * one this version cannot name as it is.
 */
export function configKeyWords(t: Translate, key: string): string {
  const station = /^station\.(\d{1,4})$/.exec(key);
  if (station) return t('service.field.atStation', { station: Number(station[1]) });
  if (key.startsWith('rules.')) return ruleOptionWords(t, key.slice('rules.'.length)) ?? key;
  const name = `service.configKey.${key}`;
  return /^[a-zA-Z]{1,40}$/.test(key) && isMessageKey(name) ? t(name) : key;
}
