import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { ref } from '../../engine/blackjack/refs.js';
import { describeRules, resolveRules, type ProfileId } from '../../engine/blackjack/rules.js';
import { WAR_RULES, warProfile } from '../../engine/war/profiles.js';
import type { PayLine } from '../../protocol/index.js';

const ratio = (win: number, per: number) => `${win}:${per}`;

/**
 * The pay table the station's help shows, from the active rule profile itself (never a text
 * written per game): each line names what pays (`help.item.<item>`), how much and the rule the
 * engine settles it by, so a no-commission baccarat table or a 6-deck war table says its own terms.
 */
export function payTable(game: 'blackjack' | 'baccarat' | 'war', profile: string, options: Readonly<Record<string, unknown>> = {}): PayLine[] {
  if (game === 'baccarat') {
    const p = baccaratProfile(profile);
    const lines: PayLine[] = [{ item: 'player', pays: ratio(p.payouts.player.win, p.payouts.player.per), rule: p.payouts.player.rule }];
    if (p.banker.kind === 'commission') {
      // 5% commission on the winnings: 0.95 to 1.
      lines.push({ item: 'bankerCommission', pays: `${(10_000 - p.banker.commissionBasisPoints) / 10_000}:1`, rule: p.banker.rule });
    } else {
      lines.push({ item: 'banker', pays: '1:1', rule: p.banker.rule });
      lines.push({ item: 'bankerSix', pays: `${p.banker.winOnSixBasisPoints / 10_000}:1`, rule: p.banker.winOnSixRule });
    }
    lines.push(
      { item: 'tie', pays: ratio(p.payouts.tie.win, p.payouts.tie.per), rule: p.payouts.tie.rule },
      { item: 'playerPair', pays: ratio(p.payouts.playerPair.win, p.payouts.playerPair.per), rule: p.payouts.playerPair.rule },
      { item: 'bankerPair', pays: ratio(p.payouts.bankerPair.win, p.payouts.bankerPair.per), rule: p.payouts.bankerPair.rule },
      { item: 'tieStandsOff', pays: '0:1', rule: p.tiePushRule },
    );
    return lines;
  }
  if (game === 'war') {
    const p = warProfile(profile);
    return [
      { item: 'win', pays: '1:1', rule: WAR_RULES.win },
      { item: 'tieBet', pays: ratio(p.tiePays, 1), rule: WAR_RULES.tieBetWins },
      { item: 'surrender', pays: '-1:2', rule: WAR_RULES.surrender },
      { item: 'warHigher', pays: '1:1', rule: WAR_RULES.warHigher },
    ];
  }
  // The rule of each line is the one the engine's settlement quotes (engine/blackjack/refs.ts).
  const id = profile as ProfileId;
  const r = describeRules(resolveRules(id, options));
  const lines: PayLine[] = [
    { item: 'win', pays: '1:1', rule: ref(id, 'win') },
    { item: 'blackjack', pays: String(r.blackjackPays.value), rule: ref(id, 'blackjack') },
    { item: 'insurance', pays: '2:1', rule: ref(id, 'insuranceWin') },
  ];
  if (r.fiveCardHalfPay.value === true) lines.push({ item: 'fiveCard', pays: '1:2', rule: ref(id, 'fiveCard') });
  if (r.surrender.value !== 'none') lines.push({ item: 'surrender', pays: '-1:2', rule: ref(id, 'surrender') });
  return lines;
}
