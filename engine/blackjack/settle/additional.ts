import type { Card } from '../../cards/card.js';
import { articleOf } from '../bets/citation.js';
import type { FirstCardsBet } from '../bets/entry.js';
import type { JackpotProgram } from '../jackpot/program.js';
import { settleJackpot, type JackpotEntry, type JackpotLevelMove, type JackpotResult, type JackpotState } from '../jackpot/settle.js';
import { choicesOf, lineChoices } from '../line-choices.js';
import { ref } from '../refs.js';
import type { BlackjackRules } from '../rules.js';
import type { BlackjackSettlementLine, SideStakes } from '../round-types.js';
import type { Seat } from '../round-seats.js';
import { lineOf } from './line.js';

/** What the jackpot's settlement did: the pools after, what moved, the hits. */
export interface JackpotSettled {
  readonly state: JackpotState;
  readonly moves: JackpotLevelMove[];
  readonly results: JackpotResult[];
}

/**
 * The additional bets of the seats: each bet of the first cards by its catalogue entry, for the
 * seat and every bettor on its hand, in the catalogue's settlement order; then Portugal's jackpot
 * chips against the program and its pools (rules 41–50).
 */
export function additionalLines(
  rules: BlackjackRules,
  firstCards: readonly FirstCardsBet[],
  seats: readonly Seat[],
  jackpot: JackpotState | undefined,
): { lines: BlackjackSettlementLine[]; jackpot?: JackpotSettled } {
  const p = rules.profile;
  const lines: BlackjackSettlementLine[] = [];
  const jackpotEntries: JackpotEntry[] = [];
  for (const s of seats) {
    const b = s.entry.bets;
    const [c1, c2] = s.firstTwo as [Card, Card];
    const cards = { first: c1, second: c2, ...(s.afterSplit ? { afterSplit: s.afterSplit } : {}), splitPairs: s.splitPairs };
    const bettors: [string | undefined, SideStakes][] = [[undefined, b], ...(s.entry.behind ?? []).map((x): [string, SideStakes] => [x.owner, x])];
    for (const [owner, sb] of bettors) {
      const behind = { behind: owner !== undefined };
      for (const bet of firstCards) {
        const stake = sb[bet.id];
        if (!stake) continue;
        for (const l of bet.settle(cards, stake, rules))
          lines.push(lineOf(s.seat, bet.id, l.hand, l.stake, l.net, articleOf(p, l.citation.articles), owner, choicesOf(rules, l.citation.options, behind)));
      }
    }
    if (b.jackpot) jackpotEntries.push(...jackpotLooks(rules, s, b.jackpot));
  }
  if (jackpotEntries.length === 0 || !jackpot) return { lines };
  const out = settleJackpot(jackpotEntries, jackpot);
  // Rule 50 («Caso exista, na mesma jogada, mais de uma combinação ganhadora») orders the awards
  // only when the round has more than one: a lone award cites rules 42-43 alone.
  const several = out.results.filter((x) => x.award > 0).length > 1;
  for (const x of out.results) {
    if (x.stake === 0 && x.award === 0) continue;
    const key =
      x.award > 0 ? (x.shared ? 'jackpotShared' : paidShort(out.state.program, x) ? 'jackpotAwardShort' : several ? 'jackpotAward' : 'jackpotHit') : 'jackpot';
    lines.push(lineOf(x.seat, 'jackpot', x.hand, x.stake, x.award - x.stake, ref(p, key), undefined, lineChoices(rules, key)));
  }
  return { lines, jackpot: out };
}

/**
 * Whether an award is a fixed one paid less than its amount, its level holding less (rule 50 a)
 * orders the awards and says nothing of that case: docs/rules/blackjack.md).
 */
function paidShort(program: JackpotProgram, x: JackpotResult): boolean {
  const line = program.awards.find((a) => a.combination === x.combination && a.level === x.level);
  return line !== undefined && line.pays !== 'pool' && x.award < line.pays.fixed;
}

/** The cards a seat's jackpot chip is looked at on. */
function jackpotLooks(rules: BlackjackRules, s: Seat, chip: number): JackpotEntry[] {
  // Rule 42: the player's first 2–4 cards as dealt, split pairs included: one chip, one look (rule 47).
  if (rules.jackpotSplitCards === 'player-cards') return [{ seat: s.seat, hand: 0, stake: chip, cards: s.dealt.slice(0, rules.jackpotCards) }];
  // The other reading: each split hand looked at on its own first cards, on the one chip.
  return s.hands.map((h, i) => ({ seat: s.seat, hand: i, stake: i === 0 ? chip : 0, cards: h.cards.slice(0, rules.jackpotCards) }));
}
