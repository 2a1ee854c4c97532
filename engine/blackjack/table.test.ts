import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../random/seeded-rng.js';
import { resolveRules } from './rules.js';
import { BlackjackTable } from './table.js';

describe('a table from round to round', () => {
  it('plays whole seeded shoes: burns at the start, rounds until the cut card, then a shuffle; streaks carried', () => {
    const rules = resolveRules('macau-2009', { winningStreak: true, burnEachRound: true, authorisation: 'TEST-DICJ' });
    const table = new BlackjackTable(rules);
    const rng = Rng.fromSeed(8);
    let shuffles = 0;
    let roundsInShoe = 0;
    let lastRoundSeen = 0;
    for (let n = 0; n < 400; n++) {
      if (table.phase === 'shuffle') {
        if (shuffles > 0) assert.ok(roundsInShoe > 20, `a 6-deck shoe with the cut card 60 from the end gives many rounds (${roundsInShoe})`);
        table.shuffled(3, rng);
        shuffles++;
        roundsInShoe = 0;
      }
      while (table.phase === 'burn') table.dealFromShoe();
      assert.equal(table.phase, 'betting');
      let round = table.startRound([
        { seat: 1, bets: { main: 100, ...(table.streaks.length === 0 ? { streak: { '3': 10 } } : {}) } },
        { seat: 5, bets: { main: 200, anyPair: 10 } },
      ]);
      for (; !round.done; round = table.current ?? round) {
        const x = round.expected;
        if (x.kind === 'card') table.dealFromShoe();
        else if (x.kind === 'decision') {
          const total = round.hands.find((h) => h.seat === x.seat && h.hand === x.hand)?.total ?? 0;
          const pick =
            x.offer === 'play' ? (total < 17 && x.legal.includes('hit') ? 'hit' : 'stand') : x.legal.find((a) => a.startsWith('decline') || a === 'continue');
          table.decide({ type: (pick ?? x.legal[0]) as 'stand' });
        }
      }
      roundsInShoe++;
      // The cut card came out in this round: it was the last of the shoe (art.2 n.2 (1)).
      if (table.shoe.lastRound) {
        lastRoundSeen++;
        assert.equal(table.phase, 'shuffle');
      }
      assert.ok(round.lines.some((l) => l.seat === 5 && l.bet === 'anyPair'));
    }
    assert.ok(shuffles >= 6, `${shuffles} shoes in 400 rounds`);
    assert.ok(lastRoundSeen >= shuffles - 1, `${lastRoundSeen} last rounds for ${shuffles} shoes`);
    assert.equal(table.rounds, 400);
    // Six burnt cards at the start of each shoe (art.4 n.1).
    assert.equal(table.shoeBurns.length, 6 * shuffles);
  });

  it('refuses a round before the shoe is ready and cards nobody expects', () => {
    const table = new BlackjackTable(resolveRules('portugal-2001'));
    assert.throws(() => table.startRound([{ seat: 1, bets: { main: 100 } }]), /needs a shuffle/);
    table.shuffled(2, Rng.fromSeed(1));
    assert.throws(() => table.startRound([{ seat: 1, bets: { main: 100 } }]), /needs a burn/);
    table.dealFromShoe();
    assert.equal(table.phase, 'betting');
    assert.throws(() => table.dealFromShoe(), /no card is expected now \(betting\)/);
  });

  it('a round voided in play ends: the next round starts', () => {
    const table = new BlackjackTable(resolveRules('macau-2009'));
    table.shuffled(1, Rng.fromSeed(3));
    while (table.phase === 'burn') table.dealFromShoe();
    table.startRound([{ seat: 1, bets: { main: 100 } }]);
    table.dealFromShoe();
    assert.equal(table.phase, 'round');
    assert.throws(() => table.startRound([{ seat: 1, bets: { main: 100 } }]), /a round is in play/);
    table.voidRound();
    assert.equal(table.phase, 'betting');
    const next = table.startRound([{ seat: 2, bets: { main: 100 } }]);
    assert.equal(next.done, false);
  });
});
