/**
 * A game's identity as the table states it (`GameFacts.identity`): the game, its profile and its
 * options sorted by name. The table's `open` input journals it and the fold folds a journal only
 * under the identity it was opened with (engine/table/fold.ts), so this text must never change
 * for a table already journalled: baccarat and war leave the options out when there are none
 * (`baccarat/macau-commission`), blackjack always writes them (`blackjack/macau-2009/[]`).
 */
export function gameIdentity(game: string, profile: string, options: Readonly<Record<string, unknown>>, none: 'omitted' | 'written'): string {
  const sorted = Object.entries(options).sort(([a], [b]) => a.localeCompare(b));
  return sorted.length > 0 || none === 'written' ? `${game}/${profile}/${JSON.stringify(sorted)}` : `${game}/${profile}`;
}
