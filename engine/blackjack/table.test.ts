import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Rng } from '../random/seeded-rng.js';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import type { Action } from './round.js';
import { resolveRules, type BlackjackRules } from './rules.js';
import { isLastRound } from './shoe-session.js';
import { dealFromShoe, openTable, startTableRound, tableDecide, tablePhase, tableShuffled, voidTableRound, type TableRules, type TableState } from './table.js';

const withRules = (rules: BlackjackRules): TableRules => ({ rules, catalogue: BLACKJACK_CATALOGUE });
const dealt = (c: TableRules, t: TableState): TableState => dealFromShoe(c, t).table;

describe('a table from round to round', () => {
  it('plays whole seeded shoes: burns at the start, rounds until the cut card, then a shuffle; streaks carried', () => {
    const rules = resolveRules('macau-2009', { winningStreak: true, burnEachRound: true, authorisation: 'TEST-DICJ' });
    const c = withRules(rules);
    let table = openTable();
    const rng = Rng.fromSeed(8);
    let shuffles = 0;
    let roundsInShoe = 0;
    let lastRoundSeen = 0;
    for (let n = 0; n < 400; n++) {
      if (tablePhase(table) === 'shuffle') {
        if (shuffles > 0) assert.ok(roundsInShoe > 20, `a 6-deck shoe with the cut card 60 from the end gives many rounds (${roundsInShoe})`);
        table = tableShuffled(c, table, 3, rng);
        shuffles++;
        roundsInShoe = 0;
      }
      while (tablePhase(table) === 'burn') table = dealt(c, table);
      assert.equal(tablePhase(table), 'betting');
      table = startTableRound(c, table, [
        { seat: 1, bets: { main: 100, ...(table.streaks.length === 0 ? { streak: { '3': 10 } } : {}) } },
        { seat: 5, bets: { main: 200, anyPair: 10 } },
      ]);
      for (let round = table.round; round && !round.done; round = table.round) {
        const x = round.expected;
        if (x.kind === 'card') table = dealt(c, table);
        else if (x.kind === 'decision') {
          const total = round.hands.find((h) => h.seat === x.seat && h.hand === x.hand)?.total ?? 0;
          const pick =
            x.offer === 'play' ? (total < 17 && x.legal.includes('hit') ? 'hit' : 'stand') : x.legal.find((a) => a.startsWith('decline') || a === 'continue');
          table = tableDecide(c, table, { type: pick ?? x.legal[0] } as Action);
        }
      }
      roundsInShoe++;
      // The cut card came out in this round: it was the last of the shoe (art.2 n.2 (1)).
      if (isLastRound(rules, table.shoe)) {
        lastRoundSeen++;
        assert.equal(tablePhase(table), 'shuffle');
      }
      assert.ok(table.round?.lines.some((l) => l.seat === 5 && l.bet === 'anyPair'));
    }
    assert.ok(shuffles >= 6, `${shuffles} shoes in 400 rounds`);
    assert.ok(lastRoundSeen >= shuffles - 1, `${lastRoundSeen} last rounds for ${shuffles} shoes`);
    assert.equal(table.rounds, 400);
    // Six burnt cards at the start of each shoe (art.4 n.1).
    assert.equal(table.shoeBurns.length, 6 * shuffles);
  });

  it('refuses a round before the shoe is ready and cards nobody expects', () => {
    const c = withRules(resolveRules('portugal-2001'));
    const opened = openTable();
    assert.throws(() => startTableRound(c, opened, [{ seat: 1, bets: { main: 100 } }]), /needs a shuffle/);
    const shuffled = tableShuffled(c, opened, 2, Rng.fromSeed(1));
    assert.throws(() => startTableRound(c, shuffled, [{ seat: 1, bets: { main: 100 } }]), /needs a burn/);
    const burnt = dealt(c, shuffled);
    assert.equal(tablePhase(burnt), 'betting');
    assert.throws(() => dealt(c, burnt), /no card is expected now \(betting\)/);
  });

  it('a round voided in play ends: the next round starts', () => {
    const c = withRules(resolveRules('macau-2009'));
    let table = tableShuffled(c, openTable(), 1, Rng.fromSeed(3));
    while (tablePhase(table) === 'burn') table = dealt(c, table);
    table = dealt(c, startTableRound(c, table, [{ seat: 1, bets: { main: 100 } }]));
    assert.equal(tablePhase(table), 'round');
    const inPlay = table;
    assert.throws(() => startTableRound(c, inPlay, [{ seat: 1, bets: { main: 100 } }]), /a round is in play/);
    table = voidTableRound(c, table);
    assert.equal(tablePhase(table), 'betting');
    const next = startTableRound(c, table, [{ seat: 2, bets: { main: 100 } }]);
    assert.equal(next.round?.done, false);
  });

  it('a move is a new table: the one it was given answers as it did', () => {
    const c = withRules(resolveRules('macau-2009'));
    let table = tableShuffled(c, openTable(), 1, Rng.fromSeed(4));
    while (tablePhase(table) === 'burn') table = dealt(c, table);
    const before = startTableRound(c, table, [{ seat: 1, bets: { main: 100 } }]);
    const frozen = JSON.stringify(before);
    const after = dealt(c, before);
    assert.equal(JSON.stringify(before), frozen, 'dealing a card changed nothing of the table it was dealt from');
    assert.equal(after.shoe.dealt, before.shoe.dealt + 1);
    assert.equal(after.round?.log.length, 1);
    assert.equal(before.round?.log.length, 0);
  });
});
