import { isMessageKey, type MessageKey } from './i18n.js';

/**
 * A bet's key in the catalogues, as the stations word it (`bet.banker` → 莊): war's `tie` is its tie
 * bet, as the engine's war game names it. Null for a bet this version has no words for (a newer
 * table's), which a reader shows as recorded.
 */
export function betKey(game: string, bet: string): MessageKey | null {
  const key = game === 'war' && bet === 'tie' ? 'help.item.tieBet' : `bet.${bet}`;
  return isMessageKey(key) ? key : null;
}

/** A bet in words through `t` (any i18next `t`), or as recorded when this version has none. */
export function betWordsOf(t: (key: MessageKey) => string, game: string, bet: string): string {
  const key = betKey(game, bet);
  return key ? t(key) : bet;
}
