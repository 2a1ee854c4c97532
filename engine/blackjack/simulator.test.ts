// The simulator's fast path must agree with the round state machine: the same shoes, played by
// the same basic strategy through the round (round.ts), must give the same results, main and side.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RANKS, SUITS, rankIndex, type Card } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { handTotal, rankValue } from './hand.js';
import { dealCard, decideRound, openRound, type ActionType, type SeatBets, type StreakState } from './round.js';
import { resolveRules, type BlackjackRules, type ProfileId } from './rules.js';
import { FastBlackjack, SIM_SIDE_BETS, emptyTotals, edge } from './simulator.js';
import { exactSideBetEdges } from './side-bet-exact.js';

const cardId = (c: Card): number => rankIndex(c.rank) * 4 + SUITS.indexOf(c.suit);
const idCard = (id: number): Card => ({ rank: RANKS[id >> 2] as Card['rank'], suit: SUITS[id & 3] as Card['suit'] });

function playThroughRound(
  rules: BlackjackRules,
  sim: FastBlackjack,
  cards: readonly Card[],
  streaks: StreakState[],
): { main: number; side: Record<string, number>; used: number; streaks: StreakState[] } {
  const unit = 100;
  const bets: Record<string, unknown> = { main: unit };
  for (const b of sim.sideBetsOffered()) if (!b.startsWith('streak')) bets[b] = unit;
  if (rules.winningStreak && streaks.length === 0) bets.streak = { '2': unit, '3': unit, '4': unit, '5': unit };
  let round = openRound({ rules, seats: [{ seat: 1, bets: bets as unknown as SeatBets }], firstRoundOfShoe: true, streaks });
  const up = (): number => rankValue((round.dealer[0] as Card).rank);
  let used = 0;
  while (!round.done) {
    const x = round.expected;
    if (x.kind === 'card') {
      round = dealCard(round, cards[used++] as Card);
      continue;
    }
    if (x.kind !== 'decision') break;
    if (x.offer === 'insurance') round = decideRound(round, { type: 'decline-insurance' });
    else if (x.offer === 'even-money') round = decideRound(round, { type: 'decline-even-money' });
    else {
      const hands = round.hands;
      const h = hands[x.hand]!;
      const hcards = h.cards.map((c) => ({ rank: c[0], suit: c[1] }) as Card);
      const t = handTotal(hcards);
      const ace = hcards.some((c) => c.rank === 'A');
      if (x.offer === 'five-card') {
        round = decideRound(round, { type: sim.strategy.takeFiveCardHalf(up(), t.hard, ace) ? 'take-five-card-half' : 'continue' });
        continue;
      }
      const fromSplit = hands.length > 1;
      const first = hcards.length === 2;
      const pair = x.legal.includes('split') ? rankValue((hcards[0] as Card).rank) : 0;
      let pick: ActionType = 'hit';
      if (fromSplit && hcards[0]?.rank === 'A' && hcards.length === 2 && x.legal.length === 2 && x.legal.includes('split')) {
        // Split aces that drew an ace: the one decision is split or stand.
        pick = sim.strategy.ranked(up(), 2, true, 2, 1, true, true)[0] === 'split' ? 'split' : 'stand';
      } else {
        for (const a of sim.strategy.ranked(up(), t.hard, ace, hcards.length, pair, first, fromSplit)) {
          if ((x.legal as readonly string[]).includes(a)) {
            pick = a;
            break;
          }
        }
      }
      round = decideRound(round, { type: pick } as { type: Exclude<ActionType, 'insurance'> });
    }
  }
  const side: Record<string, number> = {};
  let main = 0;
  for (const l of round.lines) {
    if (l.bet === 'main' || l.bet === 'bonus678') main += l.net / unit;
    else side[l.bet] = (side[l.bet] ?? 0) + l.net / unit;
  }
  return { main, side, used, streaks: [...round.streaks] };
}

// The simulator places every additional bet at once (each bet's figures are its own): the round
// takes them under the reading of Art. 13 that allows several, set with a reference.
const SEVERAL = { oneSideBetPerPlayer: false, authorisation: 'TEST-DICJ' };
const CASES: [ProfileId, Record<string, unknown>][] = [
  ['macau-2009', { perfectPairs: true, winningStreak: true, ...SEVERAL }],
  [
    'generic',
    {
      dealProcedure: 'macau-3',
      holeCard: 'peek',
      dealerSoft17: 'stand',
      surrender: 'none',
      fiveCardHalfPay: false,
      bonus678: 'none',
      oneSideBetPerPlayer: false,
    },
  ],
  [
    'generic',
    {
      dealerBlackjackTakes: 'all',
      doubleOn: 'eleven',
      bonus678: 'in-addition',
      maxHands: 2,
      surrender: 'late',
      dealerSoft17: 'hit',
      oneSideBetPerPlayer: false,
    },
  ],
  [
    'macau-2009',
    { splitPairsBy: 'rank', resplitAces: false, resplit: false, burnEachRound: true, burnBeforeDealerSecond: true, overUnderAceValue: 11, ...SEVERAL },
  ],
  ['macau-2004', SEVERAL],
  ['portugal-2001', {}],
];

describe('blackjack simulator fast path', () => {
  for (const [profile, overrides] of CASES) {
    it(`plays exactly like the round state machine: ${profile} ${JSON.stringify(overrides)}`, () => {
      const rules = resolveRules(profile, overrides);
      const sim = new FastBlackjack(rules, 1);
      const rng = Rng.fromSeed(99);
      let compared = 0;
      let streaks: StreakState[] = [];
      for (let n = 0; n < 1500; n++) {
        const cards = shuffled(freshCards(rules.decks), rng);
        sim.shoe = Uint8Array.from(cards.map(cardId));
        sim.pos = 0;
        const fast = sim.playRound();
        const used = sim.pos;
        const slow = playThroughRound(
          rules,
          sim,
          cards.map((c) => idCard(cardId(c))),
          streaks,
        );
        streaks = slow.streaks;
        const ctx = `round ${n}: ${cards
          .slice(0, used)
          .map((c) => c.rank + c.suit)
          .join(' ')}`;
        assert.equal(slow.used, used, `cards used, ${ctx}`);
        assert.ok(Math.abs(slow.main - fast) < 1e-9, `main ${slow.main} vs ${fast}, ${ctx}`);
        for (const [k, b] of SIM_SIDE_BETS.entries()) {
          if (!sim.sideBetsOffered().includes(b)) continue;
          assert.ok(Math.abs((slow.side[b] ?? 0) - (sim.sideNet[k] as number)) < 1e-9, `${b} ${slow.side[b]} vs ${sim.sideNet[k]}, ${ctx}`);
        }
        compared++;
      }
      assert.equal(compared, 1500);
    });
  }

  it('is reproducible from its seed and reports edges with their standard error', () => {
    const rules = resolveRules('macau-2009');
    const a = emptyTotals();
    const b = emptyTotals();
    new FastBlackjack(rules, 5).run(20_000, 'cut-card', a);
    new FastBlackjack(rules, 5).run(20_000, 'cut-card', b);
    assert.deepEqual(a, b);
    const e = edge(a.sum, a.sumSq, a.hands);
    assert.ok(e.stdErr > 0.3 && e.stdErr < 1.5, `stdErr ${e.stdErr}% for 20,000 hands`);
  });

  it('agrees with published figures: 6 decks, S17, DAS, peek, no surrender ≈ 0.40–0.45%; over/under 13 with the exact values', () => {
    // Published: about 0.40% (Wizard of Odds house-edge figures for 6 decks, S17, DAS, split to
    // 4 hands, no resplit of aces). 400,000 hands give a standard error of about 0.18%: 4σ wide.
    const rules = resolveRules('generic', {
      dealProcedure: 'macau-3',
      holeCard: 'peek',
      dealerSoft17: 'stand',
      surrender: 'none',
      fiveCardHalfPay: false,
      bonus678: 'none',
      resplitAces: false,
    });
    const t = emptyTotals();
    new FastBlackjack(rules, 2024).run(400_000, 'every-hand', t);
    const e = edge(t.sum, t.sumSq, t.hands);
    assert.ok(Math.abs(e.houseEdge - 0.4) < 4 * e.stdErr, `house edge ${e.houseEdge}% ± ${e.stdErr}%`);
    const exact = exactSideBetEdges(6);
    for (const b of ['over13', 'under13'] as const) {
      const s = edge(t.side[b].sum, t.side[b].sumSq, t.side[b].n);
      assert.ok(Math.abs(s.houseEdge - (exact[b] ?? NaN)) < 4 * s.stdErr, `${b}: ${s.houseEdge}% ± ${s.stdErr}% vs exact ${exact[b]}%`);
    }
  });
});
