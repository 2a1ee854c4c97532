import type { TFunction } from 'i18next';
import { BetId } from '../../../../../protocol/index.js';
import { configKeyWords } from '../../../../../locales/config-key.js';

/** A configuration key's name in the screen's language (locales/config-key.ts: the event log says it alike). */
export function configKeyLabel(key: string, t: TFunction): string {
  return configKeyWords(t, key);
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
