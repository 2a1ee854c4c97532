import type { BetEntry } from '../table/bet-catalogue.js';
import type { BetId } from '../table/vocabulary.js';
import { warPayTable } from './pay-table.js';
import type { WarProfile } from './profiles.js';

/**
 * «Desafio ao Casino»'s bets (engine/table/bet-catalogue.ts): the bet on the seat's card against
 * the croupier's (Art. 7 n.1–2, n.4–5: its war and surrender are the coup's, engine/war/settle.ts)
 * and the tie bet (n.3), settled on its own and celebrated when it wins. The help keeps the text's
 * order (the tie bet's line after the win): each entry takes its own lines from it.
 */
const entry = <const Id extends BetId>(e: BetEntry<WarProfile> & { readonly id: Id }): BetEntry<WarProfile> & { readonly id: Id } => e;

export const WAR_CATALOGUE = [
  entry({ id: 'main', kind: 'main', offered: () => true, payLines: (p: WarProfile) => warPayTable(p).filter((l) => l.item !== 'tieBet') }),
  entry({ id: 'tie', kind: 'additional', offered: () => true, payLines: (p: WarProfile) => warPayTable(p).filter((l) => l.item === 'tieBet') }),
] as const;
