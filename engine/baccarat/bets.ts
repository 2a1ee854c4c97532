import type { BetEntry } from '../table/bet-catalogue.js';
import type { BetId } from '../table/vocabulary.js';
import { odds, payLine, type Pays } from '../table/pay-line.js';
import { commission, prize } from './payout-math.js';
import type { BaccaratProfile, Payout } from './profiles.js';
import type { CoupResult } from './tableau.js';

/**
 * A baccarat bet in the catalogue: how a coup settles one stake of it (the net, and the rule the
 * line cites), beside what every game's entry states (engine/table/bet-catalogue.ts).
 */
export interface BaccaratBetEntry extends BetEntry<BaccaratProfile> {
  settle(stake: number, coup: CoupResult, profile: BaccaratProfile): { readonly net: number; readonly rule: string };
}

/** An entry, its id kept as the literal it is (the catalogue's ids type the game's bets). */
const entry = <const Id extends BetId>(e: BaccaratBetEntry & { readonly id: Id }): BaccaratBetEntry & { readonly id: Id } => e;

const simple = (stake: number, wins: boolean, p: Payout) => ({ net: wins ? prize(stake, p) : -stake, rule: p.rule });
const always = () => true;

const banker = entry({
  id: 'banker',
  kind: 'main',
  offered: always,
  payLines: (p) => {
    if (p.banker.kind === 'commission') {
      // Even money less the commission on the winnings, as the table's sign says it (never "0.95:1").
      const pays: Pays = { kind: 'odds', win: 1, per: 1, commissionBasisPoints: p.banker.commissionBasisPoints };
      return [payLine('bankerCommission', pays, p.banker.rule)];
    }
    return [payLine('banker', odds(1, 1), p.banker.rule), payLine('bankerSix', odds(p.banker.winOnSixBasisPoints, 10_000), p.banker.winOnSixRule)];
  },
  settle: (stake, r, p) => {
    const b = p.banker;
    // Art. 18 speaks of the banker's wins only: returned on a tie or lost, the line cites the bet's article.
    if (r.winner === 'tie') return { net: 0, rule: p.betRules.banker };
    if (r.winner === 'player') return { net: -stake, rule: p.betRules.banker };
    if (b.kind === 'commission') return { net: stake - commission(stake, b.commissionBasisPoints), rule: b.rule };
    if (r.bankerTotal === 6) return { net: prize(stake, { win: b.winOnSixBasisPoints, per: 10000 }), rule: b.winOnSixRule };
    return { net: stake, rule: b.rule };
  },
});

const player = entry({
  id: 'player',
  kind: 'main',
  offered: always,
  payLines: (p) => [payLine('player', odds(p.payouts.player.win, p.payouts.player.per), p.payouts.player.rule)],
  settle: (stake, r, p) => (r.winner === 'tie' ? { net: 0, rule: p.betRules.player } : simple(stake, r.winner === 'player', p.payouts.player)),
});

const tie = entry({
  id: 'tie',
  kind: 'main',
  offered: always,
  payLines: (p) => [payLine('tie', odds(p.payouts.tie.win, p.payouts.tie.per), p.payouts.tie.rule)],
  settle: (stake, r, p) => simple(stake, r.winner === 'tie', p.payouts.tie),
});

const playerPair = entry({
  id: 'playerPair',
  kind: 'additional',
  offered: always,
  payLines: (p) => [payLine('playerPair', odds(p.payouts.playerPair.win, p.payouts.playerPair.per), p.payouts.playerPair.rule)],
  settle: (stake, r, p) => simple(stake, r.playerPair, p.payouts.playerPair),
});

const bankerPair = entry({
  id: 'bankerPair',
  kind: 'additional',
  offered: always,
  payLines: (p) => [payLine('bankerPair', odds(p.payouts.bankerPair.win, p.payouts.bankerPair.per), p.payouts.bankerPair.rule)],
  settle: (stake, r, p) => simple(stake, r.bankerPair, p.payouts.bankerPair),
});

/**
 * «6 Sortudo» (Art. 13 n.1 4)(3)): "ganha quando o grupo banqueiro ganha a jogada com o total de 6
 * pontos, após ter recebido as duas cartas iniciais ou uma carta adicional"; Art. 17 n.5 pays 12 to 1
 * on the first two cards and 20 to 1 with the third. A banker 6 that ties or loses is no win.
 * Offered only where the table offers it, with its reference.
 */
const lucky6 = entry({
  id: 'lucky6',
  kind: 'additional',
  offered: (p: BaccaratProfile) => p.lucky6,
  payLines: (p: BaccaratProfile) => [
    payLine('lucky6Two', odds(p.payouts.lucky6Two.win, p.payouts.lucky6Two.per), p.payouts.lucky6Two.rule),
    payLine('lucky6Three', odds(p.payouts.lucky6Three.win, p.payouts.lucky6Three.per), p.payouts.lucky6Three.rule),
  ],
  settle: (stake: number, r: CoupResult, p: BaccaratProfile) =>
    simple(stake, r.winner === 'banker' && r.bankerTotal === 6, r.banker.length === 2 ? p.payouts.lucky6Two : p.payouts.lucky6Three),
});

/**
 * Baccarat's bets, one entry each, in the order a seat's lines are settled and journalled (and
 * its spots shown). A new bet is one more entry here (and its words: docs/architecture.md).
 */
export const BACCARAT_CATALOGUE = [banker, player, tie, playerPair, bankerPair, lucky6] as const;

export type BaccaratBet = (typeof BACCARAT_CATALOGUE)[number]['id'];
export const BACCARAT_BETS: readonly BaccaratBet[] = BACCARAT_CATALOGUE.map((b) => b.id);
