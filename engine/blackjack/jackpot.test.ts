import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard, type Card } from '../cards/card.js';
import { settleJackpot, type JackpotPayTable } from './jackpot.js';
import { BlackjackRound } from './round.js';
import { resolveRules } from './rules.js';

// An example pay table (the real one is the concessionaire's, rule 43): four suited aces take
// the pool; three 7s pay 500; a suited Black Jack pays 100.
const table: JackpotPayTable = {
  evaluate(cards: readonly Card[]) {
    if (cards.length >= 4 && cards.slice(0, 4).every((c) => c.rank === 'A' && c.suit === cards[0]!.suit))
      return { combination: 'four suited aces', rank: 3, pays: 'pool' };
    if (cards.filter((c) => c.rank === '7').length >= 3) return { combination: 'three sevens', rank: 2, pays: { fixed: 500 } };
    const [a, b] = cards;
    if (
      a &&
      b &&
      a.suit === b.suit &&
      ((a.rank === 'A' && ['T', 'J', 'Q', 'K'].includes(b.rank)) || (b.rank === 'A' && ['T', 'J', 'Q', 'K'].includes(a.rank)))
    ) {
      return { combination: 'suited Black Jack', rank: 1, pays: { fixed: 100 } };
    }
    return undefined;
  },
};
const cards = (s: string): Card[] => s.split(' ').map(parseCard);

describe('Portugal progressive jackpot (rules 38–50)', () => {
  it('rule 50: smaller awards first, the rest of the pool split among the top winners', () => {
    const { results, poolAfter } = settleJackpot(
      [
        { seat: 1, hand: 0, stake: 10, cards: cards('AS AS AS AS') },
        { seat: 2, hand: 0, stake: 10, cards: cards('7S 7H 7D') },
        { seat: 3, hand: 0, stake: 10, cards: cards('AH KH') },
        { seat: 4, hand: 0, stake: 10, cards: cards('AD AD AD AD') },
        { seat: 5, hand: 0, stake: 10, cards: cards('2C 3C') },
      ],
      table,
      10_001,
    );
    assert.deepEqual(
      results.map((r) => [r.seat, r.award]),
      [
        [1, 4700],
        [2, 500],
        [3, 100],
        [4, 4700],
        [5, 0],
      ],
    );
    assert.equal(poolAfter, 1, 'the indivisible minor unit stays in the pool');
  });

  it('rules 42–43, 46: the first cards of each hand, split hands included, paid whatever the main result', () => {
    const rules = resolveRules('portugal-2001', { jackpot: true, jackpotCards: 3, authorisation: 'TEST-IGJ' });
    const round = new BlackjackRound({ rules, seats: [{ seat: 1, bets: { main: 100, jackpot: 10 } }], jackpot: { table, pool: 20_000 } });
    // 7-7 against a 10 (hole 9): split; the first hand draws 7 and 7 (7-7-7 wins the 500 award
    // and is 21); the second hand 7-5-10 busts. Each hand counts alone.
    for (const c of cards('7S TD 7H 9C')) round.deal(c);
    round.decide({ type: 'split' });
    round.deal(parseCard('7D'));
    round.decide({ type: 'hit' });
    round.deal(parseCard('7C'));
    // 7-7-7 = 21 stands; the dealer (10, 9) is 19 and the second hand gets its card.
    round.deal(parseCard('5S'));
    round.decide({ type: 'hit' });
    round.deal(parseCard('TS'));
    assert.equal(round.done, true);
    const jp = round.lines.filter((l) => l.bet === 'jackpot');
    assert.deepEqual(
      jp.map((l) => [l.hand, l.stake, l.net, l.rule]),
      [[0, 10, 490, 'portugal-2001 rules 43, 46, 50']],
    );
    assert.equal(round.jackpotPool(), 19_500);
    const main = round.lines.filter((l) => l.bet === 'main').map((l) => l.net);
    assert.deepEqual(main, [-100, 100], 'the second hand busts at once; the first (21) beats 19');
    assert.deepEqual(round.lines.find((l) => l.bet === 'bonus678')?.net, 300, 'rule 35 on top');
  });
});

describe('bets behind: who decides (Macau Art. 20 n.1; Portugal rule 16)', () => {
  const seat = {
    seat: 2,
    bets: { main: 100 },
    behind: [
      { owner: 'b', main: 300 },
      { owner: 'c', main: 300 },
    ],
  };
  const decider = (rules: ReturnType<typeof resolveRules>, seated = true): string => {
    const round = new BlackjackRound({ rules, seats: [{ ...seat, seated }] });
    for (const c of cards('TS 9H 8D 7C')) if (round.expected().kind === 'card') round.deal(c);
    const x = round.expected();
    assert.equal(x.kind, 'decision');
    return x.kind === 'decision' ? x.decider : '';
  };
  it('seated player, nearest bettor, highest bet (ties to the first placed), vacant seat', () => {
    assert.equal(decider(resolveRules('macau-2009')), 'seat:2');
    assert.equal(decider(resolveRules('macau-2009', { betBehind: 'seated-or-nearest', authorisation: 'TEST-DICJ' }), false), 'b');
    assert.equal(decider(resolveRules('macau-2009', { betBehind: 'highest-bet', authorisation: 'TEST-DICJ' })), 'b');
    assert.equal(decider(resolveRules('portugal-2001')), 'seat:2');
    assert.equal(decider(resolveRules('portugal-2001'), false), 'b');
  });
});
