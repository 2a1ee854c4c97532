import type { TFunction } from 'i18next';
import type { Language, StreakMarker } from '../../../protocol/index.js';
import { intlLocale } from '../../../locales/money.js';

/**
 * A winning-streak marker in words (Macau 2009 Art. 13 5)(2) iii)): the rounds won in a row and
 * the levels still open, e.g. "Winning streak: 1 won · open Winning streak 2 and Winning streak 5".
 */
export function streakText(t: TFunction, mark: StreakMarker | null | undefined, language: Language): string {
  if (!mark) return t('recall.streakNone');
  const levels = new Intl.ListFormat(intlLocale(language), { type: 'conjunction' }).format(mark.open.map((o) => t(`bet.${o.bet}`)));
  return t('desk.streakMarker', { n: mark.wins, levels });
}
