import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { ref } from '../../engine/blackjack/refs.js';
import { describeRules, resolveRules, type ProfileId } from '../../engine/blackjack/rules.js';
import { ANY_PAIR_PAYS, OVER_UNDER_PAYS, PERFECT_PAIRS_PAYS, SEVENS_PAYS } from '../../engine/blackjack/side-bets.js';
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
  // Art. 15: three times the bet, instead of the main result or on top of it as the profile says.
  if (r.bonus678.value !== 'none') lines.push({ item: r.bonus678.value === 'in-addition' ? 'special678Extra' : 'special678', pays: '3:1', rule: ref(id, 'special678') });
  return [...lines, ...sideBetLines(id, r)];
}

/** The additional bets the table offers (Art. 13), each at the odds Art. 14 gives it. */
function sideBetLines(id: ProfileId, r: ReturnType<typeof describeRules>): PayLine[] {
  const side = (item: string, win: number, key: Parameters<typeof ref>[1]): PayLine => ({ item, pays: ratio(win, 1), rule: ref(id, key), side: true });
  const lines: PayLine[] = [];
  if (r.anyPair.value === true) lines.push(side('anyPair', ANY_PAIR_PAYS, 'anyPair'));
  if (r.sevens.value === true) {
    lines.push(
      side('sevensTwo', SEVENS_PAYS.two, 'sevens'),
      side('sevensTwoSuited', SEVENS_PAYS.twoSuited, 'sevens'),
      side('sevensThree', SEVENS_PAYS.three, 'sevens'),
      side('sevensThreeSuited', SEVENS_PAYS.threeSuited, 'sevens'),
    );
  }
  if (r.overUnder13.value === true) lines.push(side('over13', OVER_UNDER_PAYS, 'overUnder'), side('under13', OVER_UNDER_PAYS, 'overUnder'));
  if (r.perfectPairs.value === true) {
    lines.push(
      side('perfectPairMixed', PERFECT_PAIRS_PAYS.mixed, 'perfectPairs'),
      side('perfectPairColoured', PERFECT_PAIRS_PAYS.coloured, 'perfectPairs'),
      side('perfectPairPerfect', PERFECT_PAIRS_PAYS.perfect, 'perfectPairs'),
    );
  }
  return lines;
}
