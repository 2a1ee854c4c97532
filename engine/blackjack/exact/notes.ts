import { doublesLoseOriginalOnly, type BlackjackRules } from '../rules.js';
import { SPLIT_LEVEL_CAP, type ExactBlackjack } from './expectation.js';
import type { StrategyId } from './policy.js';

/**
 * What the exact figure covers, option by option, in words for the CLI and the docs: what is
 * exact, what is approximate (with a bound where one is known), what does not change the main
 * bet's expectation for one seat off a full shoe.
 */
export interface ExactNote {
  readonly topic: string;
  readonly treatment: 'exact' | 'approximate' | 'not modelled' | 'no effect';
  readonly text: string;
  /** Upper bound on the error, in percentage points of the house edge, when one is known. */
  readonly bound?: number;
}

export const STRATEGY_TEXT: Record<StrategyId, string> = {
  'total-dependent':
    'total-dependent basic strategy computed from the full-shoe composition (hit/stand and the five-card choice by total and number of cards); the first decision on two cards (stand, hit, double, split, surrender) composition-dependent',
  'composition-dependent': "composition-dependent: every decision by the exact value of the hand's own cards (optimal for one hand off the top of the shoe)",
  'simulator-basic':
    "the simulator's basic strategy (engine/blackjack/strategy/basic-strategy.ts, infinite-deck, never looks at suits), exactly as FastBlackjack plays it",
};

/** How the exact figure treats each rule, in the order a reader meets them: exact, approximate (with its bound), not modelled, or no effect. */
export function exactNotes(rules: BlackjackRules, r: ExactBlackjack): ExactNote[] {
  return [...shoeAndDealerNotes(rules, r), ...decisionNotes(rules, r)];
}

/** The shoe, the dealer, the dealer's Black Jack and the splits: how the figure treats each. */
function shoeAndDealerNotes(rules: BlackjackRules, r: ExactBlackjack): ExactNote[] {
  const notes: ExactNote[] = [];
  const worst = (k: 'splitLevelCap' | 'originalOnlySplits'): number => Math.max(...r.strategies.map((s) => s.bounds[k]));
  const noPeek = rules.holeCard !== 'peek';
  notes.push({
    topic: 'shoe',
    treatment: 'exact',
    text: `one seat, flat bet, every round dealt from a full shoe of ${rules.decks} decks (no cut card: the simulator's cut-card mode differs by the cut-card effect; burns, other seats and the shuffler do not change this figure)`,
  });
  notes.push({
    topic: 'dealer',
    treatment: 'exact',
    text: `dealer by exact recursion over the remaining shoe; soft 17 ${rules.dealerSoft17 === 'hit-ace-six' ? 'hit only as the two cards A-6 (2009 Art. 6 6) read literally)' : rules.dealerSoft17}; ${noPeek ? 'no peek: a dealer Black Jack meets the hands left standing after play' : 'peek on an ace or ten: a dealer Black Jack ends the round before any decision'}`,
  });
  notes.push({
    topic: 'dealer Black Jack',
    treatment: noPeek && rules.dealerBlackjackTakes === 'original-only' ? 'approximate' : 'exact',
    text: noPeek
      ? `dealerBlackjackTakes=${rules.dealerBlackjackTakes}: ${
          rules.dealerBlackjackTakes === 'all'
            ? 'every standing hand loses its whole stake'
            : rules.dealerBlackjackTakes === 'doubles-original-only'
              ? 'a doubled hand loses only its original bet'
              : 'one hand loses only its original bet; a split seat loses one original bet in all, nothing once a hand has busted — valued treating the split hands as independent given the dealer Black Jack'
        }${rules.dealerBlackjackTakes !== 'all' && !doublesLoseOriginalOnly(rules) ? '; but a double on 11 only (doubleOn=eleven, no offer of Art. 10 n.7) loses its whole stake' : ''}`
      : 'irrelevant with a peek',
    ...(noPeek && rules.dealerBlackjackTakes === 'original-only' ? { bound: worst('originalOnlySplits') } : {}),
  });
  notes.push({
    topic: 'splits',
    treatment: rules.maxHands > 1 ? 'approximate' : 'no effect',
    text:
      rules.maxHands > 1
        ? `up to ${rules.maxHands} hands${rules.resplit ? ', resplits' : ', no resplit'}${rules.resplitAces ? ', aces resplit' : ''}${rules.resplitAfterDecline ? '' : ', none after a declined resplit'}; each split hand valued with its own cards, the up card and the split cards removed, not the cards of the other split hands (the standard approximation of the Wizard of Odds' Blackjack Appendix 9); resplit decisions by the same values${
            rules.maxHands > SPLIT_LEVEL_CAP ? `; beyond ${SPLIT_LEVEL_CAP} hands the ${SPLIT_LEVEL_CAP}-hand shoe is reused (bounded)` : ''
          }`
        : 'maxHands=1: no split',
    ...(rules.maxHands > SPLIT_LEVEL_CAP ? { bound: worst('splitLevelCap') } : {}),
  });
  return notes;
}

/** The player's other choices and the figures beside the bet: each as the figure treats it. */
function decisionNotes(rules: BlackjackRules, r: ExactBlackjack): ExactNote[] {
  const notes: ExactNote[] = [];
  const noPeek = rules.holeCard !== 'peek';
  if (rules.splitPairsBy === 'rank') {
    notes.push({
      topic: 'rank pairs',
      treatment: 'approximate',
      text: 'ten-value pairs split only when of one rank: exact for the first two cards, resplits of tens by the share of the rank left',
    });
  }
  notes.push({
    topic: 'doubles',
    treatment: 'exact',
    text: `doubleOn=${rules.doubleOn}, doubleAfterSplit=${rules.doubleAfterSplit}, never on split aces${rules.softDoubleAceLocked ? '; a soft hand doubled as its hard total keeps the ace at 1 (Portugal rule 32)' : ''}`,
  });
  notes.push({
    topic: 'surrender',
    treatment: 'exact',
    text:
      rules.surrender === 'none'
        ? 'none'
        : `first decision only, not after a split; ${rules.surrender === 'late' ? 'against any up card' : 'not against an ace'}; ${noPeek ? "before the dealer's Black Jack is known (early surrender in effect)" : 'after the peek (late surrender)'}`,
  });
  if (rules.minStandTotal > 0) notes.push({ topic: 'standing', treatment: 'exact', text: `no standing below ${rules.minStandTotal}` });
  notes.push({
    topic: 'five cards (Art. 19)',
    treatment: rules.fiveCardHalfPay ? 'exact' : 'no effect',
    text: rules.fiveCardHalfPay
      ? 'half the bet at once on five cards of 21 or less unless the dealer shows an ace, taken when worth more than playing on'
      : 'not offered',
  });
  notes.push({
    topic: '6-7-8 prize',
    treatment: rules.bonus678 === 'none' ? 'no effect' : 'exact',
    text:
      rules.bonus678 === 'none'
        ? 'not offered'
        : `3x the stake on a three-card 6-7-8 of one suit or 7-7-7, ${rules.bonus678 === 'replaces-main' ? 'instead of the main result' : 'on top of the main result'}; suits are independent of every rank-based decision, so a 6-7-8 is suited 1 time in 16; the composition-dependent first decisions know whether 6-7, 6-8 or 7-8 are suited (the dealer's up-card suit is not used)`,
  });
  notes.push({
    topic: 'insurance and even money',
    treatment: 'exact',
    text: `never taken: insurance returns ${(100 * r.insurance.offTheTop).toFixed(2)}% per unit insured off the top (${(100 * r.insurance.best).toFixed(2)}% at best, the player holding no ten); declining even money is worth more than 1 in every case${r.evenMoneyBetter > 0 ? ' EXCEPT some (even money taken there)' : ''}`,
  });
  notes.push({
    topic: 'rounding',
    treatment: 'not modelled',
    text: "amounts between minor units (3:2 or halves of odd stakes) are rounded in the player's favour at the table; figures are per unit of a stake that divides evenly",
  });
  return notes;
}
