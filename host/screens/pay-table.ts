import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { ref } from '../../engine/blackjack/refs.js';
import { describeRules, resolveRules, type ProfileId } from '../../engine/blackjack/rules.js';
import { ANY_PAIR_PAYS, OVER_UNDER_PAYS, PERFECT_PAIRS_PAYS, SEVENS_PAYS } from '../../engine/blackjack/side-bets.js';
import { WAR_RULES, warProfile } from '../../engine/war/profiles.js';
import type { PayLine, PayRef, Pays } from '../../protocol/index.js';

const odds = (win: number, per: number): Pays => {
  // 0.5:1 (a no-commission banker's six) is read 1 : 2; a ratio is always given in lowest terms.
  const g = gcd(win, per);
  return { kind: 'odds', win: win / g, per: per / g };
};
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `3:2` as the rule profiles write a payout. */
const parseRatio = (r: string): Pays => {
  const [win, per] = r.split(':').map(Number);
  if (!Number.isInteger(win) || !Number.isInteger(per)) throw new Error(`not a payout ratio: ${r}`);
  return odds(win!, per!);
};

/**
 * The article a rule id names first (`macau-2009 art.13 1)(1), art.14 n.1` → article 13), or the
 * Portuguese rule (`portugal-2001 rule 23`); none for a casino's own pay table or a silent text.
 */
export function payRef(rule: string): PayRef | undefined {
  const art = /\bart\.(\d+)/.exec(rule);
  if (art) return { kind: 'article', n: Number(art[1]) };
  const r = /\brules? (\d+)/.exec(rule);
  return r ? { kind: 'rule', n: Number(r[1]) } : undefined;
}

/** A line with its readable reference beside the rule id the settlement quotes. */
const line = (item: string, pays: Pays, rule: string, side = false): PayLine => {
  const ref = payRef(rule);
  return { item, pays, rule, ...(ref ? { ref } : {}), ...(side ? { side: true as const } : {}) };
};

/**
 * The pay table the station's help shows, from the active rule profile itself (never a text
 * written per game): each line names what pays (`help.item.<item>`), how much and the rule the
 * engine settles it by, so a no-commission baccarat table or a 6-deck war table says its own terms.
 */
export function payTable(game: 'blackjack' | 'baccarat' | 'war', profile: string, options: Readonly<Record<string, unknown>> = {}): PayLine[] {
  if (game === 'baccarat') {
    const p = baccaratProfile(profile);
    const lines: PayLine[] = [line('player', odds(p.payouts.player.win, p.payouts.player.per), p.payouts.player.rule)];
    if (p.banker.kind === 'commission') {
      // Even money less the commission on the winnings, as the table's sign says it (never "0.95:1").
      const pays: Pays = { kind: 'odds', win: 1, per: 1, commissionBasisPoints: p.banker.commissionBasisPoints };
      lines.push(line('bankerCommission', pays, p.banker.rule));
    } else {
      lines.push(line('banker', odds(1, 1), p.banker.rule));
      lines.push(line('bankerSix', odds(p.banker.winOnSixBasisPoints, 10_000), p.banker.winOnSixRule));
    }
    lines.push(
      line('tie', odds(p.payouts.tie.win, p.payouts.tie.per), p.payouts.tie.rule),
      line('playerPair', odds(p.payouts.playerPair.win, p.payouts.playerPair.per), p.payouts.playerPair.rule),
      line('bankerPair', odds(p.payouts.bankerPair.win, p.payouts.bankerPair.per), p.payouts.bankerPair.rule),
      line('tieStandsOff', { kind: 'returned', part: 'all' }, p.tiePushRule),
    );
    return lines;
  }
  if (game === 'war') {
    const p = warProfile(profile);
    return [
      line('win', odds(1, 1), WAR_RULES.win),
      line('tieBet', odds(p.tiePays, 1), WAR_RULES.tieBetWins),
      line('surrender', { kind: 'returned', part: 'half' }, WAR_RULES.surrender),
      line('warHigher', odds(1, 1), WAR_RULES.warHigher),
    ];
  }
  // The rule of each line is the one the engine's settlement quotes (engine/blackjack/refs.ts).
  const id = profile as ProfileId;
  const r = describeRules(resolveRules(id, options));
  const lines: PayLine[] = [
    line('win', odds(1, 1), ref(id, 'win')),
    line('blackjack', parseRatio(String(r.blackjackPays.value)), ref(id, 'blackjack')),
    line('insurance', odds(2, 1), ref(id, 'insuranceWin')),
  ];
  if (r.fiveCardHalfPay.value === true) lines.push(line('fiveCard', odds(1, 2), ref(id, 'fiveCard')));
  if (r.surrender.value !== 'none') lines.push(line('surrender', { kind: 'returned', part: 'half' }, ref(id, 'surrender')));
  // Art. 15: three times the bet, instead of the main result or on top of it as the profile says.
  if (r.bonus678.value !== 'none') lines.push(line(r.bonus678.value === 'in-addition' ? 'special678Extra' : 'special678', odds(3, 1), ref(id, 'special678')));
  return [...lines, ...sideBetLines(id, r)];
}

/** The additional bets the table offers (Art. 13), each at the odds Art. 14 gives it. */
function sideBetLines(id: ProfileId, r: ReturnType<typeof describeRules>): PayLine[] {
  const side = (item: string, win: number, key: Parameters<typeof ref>[1]): PayLine => line(item, odds(win, 1), ref(id, key), true);
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
