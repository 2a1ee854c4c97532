import { odds, payLine, type PayLine, type Pays } from '../table/pay-line.js';
import type { BaccaratProfile } from './profiles.js';

/** The help's pay table of a baccarat profile, with the rule each line is settled by. */
export function baccaratPayTable(p: BaccaratProfile): PayLine[] {
  const lines: PayLine[] = [payLine('player', odds(p.payouts.player.win, p.payouts.player.per), p.payouts.player.rule)];
  if (p.banker.kind === 'commission') {
    // Even money less the commission on the winnings, as the table's sign says it (never "0.95:1").
    const pays: Pays = { kind: 'odds', win: 1, per: 1, commissionBasisPoints: p.banker.commissionBasisPoints };
    lines.push(payLine('bankerCommission', pays, p.banker.rule));
  } else {
    lines.push(payLine('banker', odds(1, 1), p.banker.rule));
    lines.push(payLine('bankerSix', odds(p.banker.winOnSixBasisPoints, 10_000), p.banker.winOnSixRule));
  }
  lines.push(
    payLine('tie', odds(p.payouts.tie.win, p.payouts.tie.per), p.payouts.tie.rule),
    payLine('playerPair', odds(p.payouts.playerPair.win, p.payouts.playerPair.per), p.payouts.playerPair.rule),
    payLine('bankerPair', odds(p.payouts.bankerPair.win, p.payouts.bankerPair.per), p.payouts.bankerPair.rule),
    payLine('tieStandsOff', { kind: 'returned', part: 'all' }, p.tiePushRule),
  );
  if (p.lucky6)
    lines.push(
      payLine('lucky6Two', odds(p.payouts.lucky6Two.win, p.payouts.lucky6Two.per), p.payouts.lucky6Two.rule),
      payLine('lucky6Three', odds(p.payouts.lucky6Three.win, p.payouts.lucky6Three.per), p.payouts.lucky6Three.rule),
    );
  return lines;
}
