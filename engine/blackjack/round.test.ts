// Scenario tests per article, with stacked shoes: the cards are listed in the order they leave
// the shoe and the decisions in the order the engine asks for them (the scripted-round format).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../cards/card.js';
import { dealCard, decideRound, openRound, replayRound } from './round.js';
import { checkRules, resolveRules, ruleOptionInfos, type ProfileId } from './rules.js';
import { runScript, ScriptError, type ScriptDecision, type ScriptOutput } from './script.js';
import type { SeatEntry, StreakState } from './round.js';

function play(
  profile: ProfileId,
  seats: SeatEntry[] | number,
  cards: string,
  decisions: [number, number, string][] = [],
  overrides: Record<string, unknown> = {},
  streaks?: StreakState[],
): ScriptOutput {
  const seatList = typeof seats === 'number' ? [{ seat: 1, bets: { main: seats } }] : seats;
  const ds: ScriptDecision[] = decisions.map(([seat, hand, action]) => ({ seat, hand, action }));
  // A choice the text offers is set with the regulator's reference (Art. 21): the tests give one.
  const authorised = Object.keys(overrides).length > 0 && !('authorisation' in overrides) ? { ...overrides, authorisation: 'TEST-DICJ' } : overrides;
  return runScript(resolveRules(profile, authorised), {
    seats: seatList,
    cards: cards.split(/\s+/).filter(Boolean),
    decisions: ds,
    ...(streaks ? { streaks } : {}),
  });
}

/** A hand still in play against a dealer over 21 (refs.ts dealerBust): no Macau article says it wins. */
const DEALER_BUST = 'house reading, no article: the dealer over 21 loses';

function mains(out: ScriptOutput): [number, number, string][] {
  return out.settlements.filter((l) => l.bet === 'main').map((l) => [l.hand ?? 0, l.net, l.rule]);
}

function line(out: ScriptOutput, bet: string, hand = 0): { net: number; rule: string; stake: number; choices?: readonly string[] } {
  const l = out.settlements.find((x) => x.bet === bet && (x.hand ?? 0) === hand);
  assert.ok(l, `no ${bet} line for hand ${hand} in ${JSON.stringify(out.settlements)}`);
  return l;
}

describe('Macau 2009: Black Jack, wins and ties (Art. 9–11)', () => {
  it('art.10 n.2: Black Jack against a 9 is paid 3:2 at once; the dealer draws nothing', () => {
    const out = play('macau-2009', 1000, 'AS 9H KD');
    assert.deepEqual(mains(out), [[0, 1500, 'macau-2009 art.10 n.2']]);
    assert.deepEqual(out.dealer.cards, ['9H']);
  });

  it('art.10 n.3: even money against a ten-value card', () => {
    const out = play('macau-2009', 1000, 'AS TH KD', [[1, 0, 'even-money']]);
    assert.deepEqual(mains(out), [[0, 1000, 'macau-2009 art.10 n.3']]);
  });

  it('art.10 n.5: Black Jack beats the dealer 21 of three cards; art.9: 20 loses to 21', () => {
    const seats = [
      { seat: 1, bets: { main: 1000 } },
      { seat: 2, bets: { main: 1000 } },
    ];
    const out = play('macau-2009', seats, 'AS TD TH KD QC 5C 6S', [
      [1, 0, 'decline-even-money'],
      [2, 0, 'stand'],
    ]);
    assert.equal(out.dealer.total, 21);
    const lines = out.settlements.map((l) => [l.seat, l.net, l.rule]);
    assert.deepEqual(lines, [
      [1, 1500, 'macau-2009 art.10 n.5'],
      [2, -1000, 'macau-2009 art.9'],
    ]);
  });

  it('art.10 n.6: the dealer Black Jack beats a player 21 of three cards', () => {
    const out = play('macau-2009', 1000, '5S AH 6D TC KD', [
      [1, 0, 'decline-insurance'],
      [1, 0, 'hit'],
    ]);
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.10 n.6']]);
  });

  it('art.10 n.4: 21 of three cards is paid 1:1', () => {
    const out = play('macau-2009', 1000, '5S 9H 6D TC 8D', [[1, 0, 'hit']]);
    assert.deepEqual(mains(out), [[0, 1000, 'macau-2009 art.10 n.4']]);
  });

  it('art.11 n.1: equal totals and Black Jack against Black Jack are ties', () => {
    assert.deepEqual(mains(play('macau-2009', 1000, 'TS 9H 8D 9C', [[1, 0, 'stand']])), [[0, 0, 'macau-2009 art.11 n.1 2)']]);
    const bj = play('macau-2009', 1000, 'AS AH KD KC', [[1, 0, 'decline-even-money']]);
    assert.deepEqual(mains(bj), [[0, 0, 'macau-2009 art.11 n.1 1)']]);
  });

  it("art.7 n.1: the players' decisions first, each hand's points shown, then the dealer's second card", () => {
    let r = openRound({
      rules: resolveRules('macau-2009'),
      seats: [
        { seat: 1, bets: { main: 100 } },
        { seat: 2, bets: { main: 100 } },
      ],
    });
    for (const c of ['TS', '9D', '7C', '8H', '9H']) r = dealCard(r, parseCard(c));
    assert.deepEqual(
      r.hands.map((h) => [h.seat, h.total]),
      [
        [1, 18],
        [2, 18],
      ],
    );
    assert.deepEqual([r.expected.kind, r.expected.kind === 'decision' && r.expected.seat], ['decision', 1]);
    r = decideRound(r, { type: 'stand' });
    assert.deepEqual([r.expected.kind, r.expected.kind === 'decision' && r.expected.seat], ['decision', 2], 'the next player decides before the dealer draws');
    r = decideRound(r, { type: 'stand' });
    assert.deepEqual(r.expected, { kind: 'card', target: { to: 'dealer' }, step: 'dealer-second', why: "dealer's second card" });
    assert.equal(r.dealer.length, 1, 'one dealer card until every player has decided');
    r = dealCard(r, parseCard('TD'));
    assert.equal(r.done, true);
  });

  it('art.7 n.2: a bust loses even if the dealer would bust too (and the dealer then draws nothing)', () => {
    const out = play('macau-2009', 1000, 'TS 6H 6D KC', [[1, 0, 'hit']]);
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.7 n.2']]);
    assert.deepEqual(out.dealer.cards, ['6H']);
  });
});

describe('Macau 2009: dealer drawing (Art. 6)', () => {
  const standOn = (overrides: Record<string, unknown>, dealer: string[], profile: ProfileId = 'macau-2009'): string[] =>
    play(
      profile,
      1000,
      `TS ${dealer[0]} QD ${dealer.slice(1).join(' ')}`,
      [...(dealer[0]?.startsWith('A') ? ([[1, 0, 'decline-insurance']] as [number, number, string][]) : []), [1, 0, 'stand']],
      overrides,
    ).dealer.cards;

  it('art.6 6) literal reading (default hit-ace-six): hits A-6, stands on A-2-4', () => {
    assert.deepEqual(standOn({}, ['AH', '6C', '2D']), ['AH', '6C', '2D']);
    assert.deepEqual(standOn({}, ['2H', 'AC', '4D']), ['2H', 'AC', '4D']);
  });

  it('dealerSoft17=hit (the reading awaiting the regulator) hits every soft 17; stand is refused by the text and stands on A-6 under generic', () => {
    assert.deepEqual(standOn({ dealerSoft17: 'hit' }, ['2H', 'AC', '4D', 'TS']), ['2H', 'AC', '4D', 'TS']);
    assert.throws(
      () => resolveRules('macau-2009', { dealerSoft17: 'stand', authorisation: 'X' }),
      /dealerSoft17="stand" is not allowed by macau-2009 art\.6 1\), 6\)/,
    );
    assert.throws(() => resolveRules('macau-2009', { dealerSoft17: 'hit' }), /dealerSoft17="hit" is a reading awaiting the regulator/);
    assert.deepEqual(standOn({ dealerSoft17: 'stand' }, ['AH', '6C'], 'generic'), ['AH', '6C']);
  });

  it('macau-2004 art.6 1): the dealer stands on every 17', () => {
    const out = play('macau-2004', 1000, 'TS AH QD 6C', [
      [1, 0, 'decline-insurance'],
      [1, 0, 'stand'],
    ]);
    assert.deepEqual(out.dealer.cards, ['AH', '6C']);
    assert.deepEqual(mains(out), [[0, 1000, 'macau-2004 art.9']]);
  });
});

describe('Macau 2009: insurance (Art. 12)', () => {
  it('n.1: from half to the full bet; n.2: pays 2:1 when the dealer has Black Jack', () => {
    assert.throws(() => play('macau-2009', 1000, 'TS AH QD KC', [[1, 0, 'insurance:400']]), /from 500 to 1000 \(macau-2009 art\.12 n\.1\)/);
    assert.throws(() => play('macau-2009', 1000, 'TS AH QD KC', [[1, 0, 'insurance:1001']]), ScriptError);
    const out = play('macau-2009', 1000, 'TS AH QD KC', [
      [1, 0, 'insurance:1000'],
      [1, 0, 'stand'],
    ]);
    assert.deepEqual(line(out, 'insurance'), { seat: 1, bet: 'insurance', hand: 0, stake: 1000, net: 2000, rule: 'macau-2009 art.12 n.2' });
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.12 n.2']]);
  });

  it('n.3: insurance is lost when the dealer has no Black Jack', () => {
    const out = play('macau-2009', 1000, 'TS AH QD 7C', [
      [1, 0, 'insurance:500'],
      [1, 0, 'stand'],
    ]);
    assert.equal(line(out, 'insurance').net, -500);
    assert.equal(line(out, 'insurance').rule, 'macau-2009 art.12 n.3');
    assert.equal(line(out, 'main').net, 1000);
  });
});

describe('Macau 2009: splits (Art. 16) and doubles (Art. 17)', () => {
  it('art.16 n.6 / art.17 n.3: a split and doubled seat loses only the original bet to a dealer Black Jack', () => {
    const decisions: [number, number, string][] = [
      [1, 0, 'split'],
      [1, 0, 'double'],
      [1, 1, 'stand'],
    ];
    const out = play('macau-2009', 1000, '8S TH 8D 3C 9H 2C AD', decisions);
    assert.deepEqual(mains(out), [
      [0, -1000, 'macau-2009 art.16 n.6'],
      [1, 0, 'macau-2009 art.16 n.6'],
    ]);
    assert.throws(
      () => play('macau-2009', 1000, '8S TH 8D 3C 9H 2C AD', decisions, { dealerBlackjackTakes: 'all' }),
      /fixed at "original-only" by macau-2009 art\.16 n\.6, art\.17 n\.3/,
    );
    const all = play('generic', 1000, '8S TH 8D 3C 9H 2C AD', decisions, { dealerBlackjackTakes: 'all' });
    assert.deepEqual(
      mains(all).map((x) => x[1]),
      [-2000, -1000],
    );
  });

  it('art.17 n.3: a doubled hand loses only the original bet to a dealer Black Jack', () => {
    const out = play('macau-2009', 1000, '6S TH 5D 9C AD', [[1, 0, 'double']]);
    // Modality 1) of Art. 17 n.1: n.3 itself limits the loss; the house's offer of Art. 10 n.7 is not what decides it.
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.17 n.3']]);
    assert.equal(line(out, 'main').stake, 2000);
  });

  it('art.17 n.3 covers modalities 1) and 2) only: a double on 11 (art.17 n.1 3)) loses the whole doubled stake to a dealer Black Jack', () => {
    const out = play('macau-2009', 1000, '6S TH 5D 9C AD', [[1, 0, 'double']], { doubleOn: 'eleven' });
    assert.deepEqual(mains(out), [[0, -2000, 'macau-2009 art.12 n.2']]);
    assert.equal(line(out, 'main').stake, 2000);
  });

  it("art.10 n.7: the limited loss of a double on 11 is the house's offer (elevenDoubleOriginalOnly), a choice needing the reference of art.21 n.1", () => {
    const out = play('macau-2009', 1000, '6S TH 5D 9C AD', [[1, 0, 'double']], { doubleOn: 'eleven', elevenDoubleOriginalOnly: true });
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.10 n.7']]);
    assert.deepEqual(line(out, 'main').choices, ['doubleOn=eleven', 'elevenDoubleOriginalOnly=true']);
    assert.throws(
      () => resolveRules('macau-2009', { doubleOn: 'eleven', elevenDoubleOriginalOnly: true }),
      /elevenDoubleOriginalOnly=true needs the regulator's authorisation reference \(macau-2009 art\.21 n\.1\)/,
    );
    // The offer is of doubles of modality 3): with doubles on any two cards Art. 17 n.3 already decides.
    assert.throws(
      () => resolveRules('macau-2009', { elevenDoubleOriginalOnly: true, authorisation: 'TEST-DICJ' }),
      /elevenDoubleOriginalOnly=true does not fit/,
    );
    // 2004 has no Art. 17 n.3: every double's limited loss is the offer of its Art. 10 n.7 (dealerBlackjackTakes).
    const old = play('macau-2004', 1000, '6S TH 5D 9C AD', [[1, 0, 'double']], { doubleOn: 'eleven' });
    assert.deepEqual(mains(old), [[0, -1000, 'macau-2004 art.10 n.7']]);
  });

  it('art.16 n.3: split aces take one card each and may be split again', () => {
    const out = play('macau-2009', 1000, 'AS 9H AD AC 7H KD 8S TD', [
      [1, 0, 'split'],
      [1, 0, 'split'],
    ]);
    assert.deepEqual(
      out.hands.map((h) => h.cards),
      [
        ['AS', '7H'],
        ['AC', 'KD'],
        ['AD', '8S'],
      ],
    );
    assert.deepEqual(out.dealer.cards, ['9H', 'TD'], 'procedure 1: the dealer gets the second card after the players');
  });

  it("art.16 n.3: aces split again «uma ou mais vezes», after an ace not split too (n.5's limit is of pairs «que não seja um ás»)", () => {
    const out = play('macau-2009', 1000, 'AS 9H AD AC AH 7H KD TD', [
      [1, 0, 'split'],
      [1, 0, 'stand'], // the first split ace's ace is not split again
      [1, 1, 'split'], // the second's may still be (n.3)
    ]);
    assert.deepEqual(
      out.hands.map((h) => h.cards),
      [
        ['AS', 'AC'],
        ['AD', '7H'],
        ['AH', 'KD'],
      ],
    );
    assert.deepEqual(
      mains(out).map(([hand, net]) => [hand, net]),
      [
        [0, -1000],
        [1, -1000],
        [2, 1000],
      ],
    );
  });

  it('art.16 n.4: a split pair other than aces may take any number of cards until it busts', () => {
    const out = play('macau-2009', 1000, '8S 6H 8D 2C 2D 3C 2H 3S TS 9C TD', [
      [1, 0, 'split'],
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'continue'], // five cards: Art. 19's half is declined
      [1, 0, 'stand'],
      [1, 1, 'hit'],
    ]);
    assert.deepEqual(
      out.hands.map((h) => h.cards),
      [
        ['8S', '2C', '2D', '3C', '2H'],
        ['8D', '3S', 'TS'],
      ],
      'three cards asked for on the first split hand (split aces take one: n.3)',
    );
    // The dealer busts: the first hand (19) wins as the house's reading (no article says it;
    // refs.ts dealerBust); the second, 21 in three cards, by Art. 10 n.4, which pays such a 21 when
    // the bank has neither Black Jack nor 21 (refs.ts win21DealerBust).
    assert.deepEqual(mains(out), [
      [0, 1000, `macau-2009 ${DEALER_BUST}`],
      [1, 1000, 'macau-2009 art.10 n.4'],
    ]);
  });

  it('art.16 n.3: 21 with split aces is not Black Jack (art.10 n.6) and pays 1:1', () => {
    // Art. 10 n.6, second sentence: «O total de 21 pontos nas apostas desdobradas não é
    // considerado «Black Jack»»: the line paid 1:1 cites it beside Art. 9 (2004: the same words).
    const out = play('macau-2009', 1000, 'AS 9H AD KC 5D 9S', [[1, 0, 'split']]);
    assert.deepEqual(mains(out), [
      [0, 1000, 'macau-2009 art.9, art.10 n.6'],
      [1, -1000, 'macau-2009 art.9'],
    ]);
    assert.deepEqual(mains(play('macau-2004', 1000, 'AS 9H AD KC 5D 9S', [[1, 0, 'split']]))[0], [0, 1000, 'macau-2004 art.9, art.10 n.6']);
    // Against a dealer who busts too: still 1:1, still not Black Jack; the win itself the house's reading.
    const bust = play('macau-2009', 1000, 'AS 6H AD KC 5D TS 9C', [[1, 0, 'split']]);
    assert.deepEqual(mains(bust), [
      [0, 1000, `macau-2009 art.10 n.6; ${DEALER_BUST}`],
      [1, 1000, `macau-2009 ${DEALER_BUST}`],
    ]);
  });

  it('art.16 n.1: at most four hands by default; five with maxHands=5 (art.5 n.2 3)(7))', () => {
    const cards = '8S 9H 8D 8C 8H 8S 2C 2D 2H 2S 3C TD';
    const split4: [number, number, string][] = [
      [1, 0, 'split'],
      [1, 0, 'split'],
      [1, 0, 'split'],
      [1, 0, 'split'],
      [1, 0, 'stand'],
      [1, 1, 'stand'],
      [1, 2, 'stand'],
      [1, 3, 'stand'],
      [1, 4, 'stand'],
    ];
    assert.throws(() => play('macau-2009', 1000, cards, split4), /"split" is not legal/);
    const five = play('macau-2009', 1000, cards, split4, { maxHands: 5 });
    assert.deepEqual(
      five.hands.map((h) => h.total),
      [10, 10, 10, 10, 11],
    );
    assert.deepEqual(
      mains(five).map((x) => x[1]),
      [-1000, -1000, -1000, -1000, -1000],
    );
  });

  it('art.5 n.2 3)(7): procedure 3 (hole card) gives five hands by default, and no fewer', () => {
    const p3 = { dealProcedure: 'macau-3', holeCard: 'peek', authorisation: 'TEST-DICJ' };
    assert.equal(resolveRules('macau-2009').maxHands, 4);
    assert.equal(resolveRules('macau-2009', p3).maxHands, 5);
    assert.throws(() => resolveRules('macau-2009', { ...p3, maxHands: 4 }), /maxHands=4 does not fit the other options by macau-2009 art\.5 n\.2 3\)\(7\)/);
    assert.equal(resolveRules('generic', { dealProcedure: 'macau-3', holeCard: 'peek', maxHands: 4 }).maxHands, 4, 'the analysis profile takes any count');
  });

  it('art.5 n.2 3)(7): «separar os pares até quatro vezes, fazendo cinco mãos»: no more than five hands under procedure 3', () => {
    const p3 = { dealProcedure: 'macau-3', holeCard: 'peek', authorisation: 'TEST-DICJ' };
    assert.equal(resolveRules('macau-2009', { ...p3, maxHands: 5 }).maxHands, 5);
    for (const maxHands of [6, 8, 99])
      assert.throws(
        () => resolveRules('macau-2009', { ...p3, maxHands }),
        new RegExp(`maxHands=${maxHands} does not fit the other options by macau-2009 art\\.5 n\\.2 3\\)\\(7\\)`),
        `maxHands=${maxHands} lets the player split a fifth time`,
      );
    // Procedures 1 and 2 are held to Art. 16 n.1 alone («até quatro ou mais mãos»): the house's number.
    assert.equal(resolveRules('macau-2009', { maxHands: 8, authorisation: 'TEST-DICJ' }).maxHands, 8);
    assert.equal(resolveRules('generic', { dealProcedure: 'macau-3', holeCard: 'peek', maxHands: 8 }).maxHands, 8, 'the analysis profile takes any count');
  });

  it('art.16 n.5: having declined to split a pair formed after a split, the player may not split a later one', () => {
    const cards = '8S 9H 8D 8C 8H TC QS';
    const decisions: [number, number, string][] = [
      [1, 0, 'split'],
      [1, 0, 'stand'],
      [1, 1, 'split'],
    ];
    assert.throws(() => play('macau-2009', 1000, cards, decisions), /"split" is not legal/);
    assert.throws(
      () => play('macau-2009', 1000, cards, decisions),
      /seat 1 hand 1 now \(play\): no split after the player declined one \(macau-2009 art\.16 n\.5\); legal: hit, stand, double/,
    );
    assert.throws(() => play('macau-2009', 1000, cards, decisions, { resplitAfterDecline: true }), /fixed at false by macau-2009 art\.16 n\.5/);
    const out = play('generic', 1000, `${cards} 9D`, [...decisions, [1, 1, 'stand'], [1, 2, 'stand']], { resplitAfterDecline: true });
    assert.deepEqual(
      out.hands.map((h) => h.total),
      [16, 18, 18],
    );
  });

  it('art.17 n.1: doubleOn=eleven refuses a double on 10', () => {
    assert.throws(() => play('macau-2009', 1000, '6S TH 4D 9C', [[1, 0, 'double']], { doubleOn: 'eleven' }), /not legal/);
    const ok = play('macau-2009', 1000, '6S TH 5D 9C 7D', [[1, 0, 'double']], { doubleOn: 'eleven' });
    assert.deepEqual(mains(ok), [[0, 2000, 'macau-2009 art.9']]);
  });

  it('art.16 n.1 / splitPairsBy: J-Q splits by value, not by rank', () => {
    assert.doesNotThrow(() =>
      play('macau-2009', 1000, 'JS 9H QD 5C 7D 9S', [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'stand'],
      ]),
    );
    assert.throws(() => play('macau-2009', 1000, 'JS 9H QD', [[1, 0, 'split']], { splitPairsBy: 'rank' }), /not legal/);
  });
});

describe('Macau 2009: surrender, five cards, special prize (Art. 15, 18, 19)', () => {
  it('art.18 n.1: surrender loses half; not against an ace', () => {
    const out = play('macau-2009', 1000, 'TS 9H 6D', [[1, 0, 'surrender']]);
    assert.deepEqual(mains(out), [[0, -500, 'macau-2009 art.18 n.1']]);
    assert.throws(
      () =>
        play('macau-2009', 1000, 'TS AH 6D', [
          [1, 0, 'decline-insurance'],
          [1, 0, 'surrender'],
        ]),
      /not legal/,
    );
    assert.throws(() => play('macau-2009', 1000, 'TS 9H 6D', [[1, 0, 'surrender']], { surrender: 'none' }), /not legal/);
  });

  it('art.18 n.2: surrender is only the first decision of the hand', () => {
    assert.throws(
      () =>
        play('macau-2009', 1000, '2S 9H 3D 2C', [
          [1, 0, 'hit'],
          [1, 0, 'surrender'],
        ]),
      /not legal/,
    );
  });

  it('art.19: five cards of 21 or less may take half the bet, unless the dealer shows an ace', () => {
    const out = play('macau-2009', 1000, '2S 9H 3D 2C 3C 4D', [
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'take-five-card-half'],
    ]);
    assert.deepEqual(mains(out), [[0, 500, 'macau-2009 art.19 n.1']]);
    // 'sem exceder 21': a five-card 21 is offered too.
    const at21 = play('macau-2009', 1000, '2S 9H 3D 2C 3C AD', [
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'take-five-card-half'],
    ]);
    assert.deepEqual(mains(at21), [[0, 500, 'macau-2009 art.19 n.1']]);
    const cont = play('macau-2009', 1000, '2S 9H 3D 2C 3C 4D 5D 8H', [
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'hit'],
      [1, 0, 'continue'],
      [1, 0, 'stand'],
    ]);
    assert.deepEqual(mains(cont), [[0, 1000, `macau-2009 ${DEALER_BUST}`]]);
    assert.throws(
      () =>
        play('macau-2009', 1000, '2S AH 3D 2C 3C 4D', [
          [1, 0, 'decline-insurance'],
          [1, 0, 'hit'],
          [1, 0, 'hit'],
          [1, 0, 'hit'],
          [1, 0, 'take-five-card-half'],
        ]),
      /not legal/,
    );
  });

  it('art.15: 6-7-8 of one suit pays 3x at once, even against an ace', () => {
    const out = play('macau-2009', 1000, '6H AS 7H 8H', [
      [1, 0, 'decline-insurance'],
      [1, 0, 'hit'],
    ]);
    assert.deepEqual(mains(out), [[0, 3000, 'macau-2009 art.15']]);
    const off = play(
      'macau-2009',
      1000,
      '6H AS 7H 8H KD',
      [
        [1, 0, 'decline-insurance'],
        [1, 0, 'hit'],
      ],
      { bonus678: 'none' },
    );
    assert.deepEqual(mains(off), [[0, -1000, 'macau-2009 art.10 n.6']]);
  });
});

describe('Macau 2009: side bets (Art. 13–14)', () => {
  const seat = (bets: Record<string, number>): SeatEntry[] => [{ seat: 1, bets: { main: 1000, ...bets } }];

  it('any pair 11:1, and again for a pair formed after a split', () => {
    const out = play('macau-2009', seat({ anyPair: 100 }), '8S 9H 8D 8C 2D TS', [
      [1, 0, 'split'],
      [1, 0, 'stand'],
      [1, 1, 'stand'],
    ]);
    assert.deepEqual(
      out.settlements.filter((l) => l.bet === 'anyPair').map((l) => [l.hand, l.stake, l.net, l.rule]),
      [
        [0, 100, 1100, 'macau-2009 art.13 1)(1), art.14 n.1'],
        [0, 0, 1100, 'macau-2009 art.13 1)(2), art.14 n.1'],
      ],
    );
    assert.equal(play('macau-2009', seat({ anyPair: 100 }), 'JS 9H QD 8C', [[1, 0, 'stand']], {}).settlements.find((l) => l.bet === 'anyPair')?.net, -100);
  });

  it('sevens: only the biggest combination; three suited 7s after a split pay 5000:1', () => {
    const out = play('macau-2009', seat({ sevens: 10 }), '7S 9H 7S 7S 8D TS', [
      [1, 0, 'split'],
      [1, 0, 'stand'],
      [1, 1, 'stand'],
    ]);
    assert.deepEqual(line(out, 'sevens'), { seat: 1, bet: 'sevens', hand: 0, stake: 10, net: 50000, rule: 'macau-2009 art.13 2), art.14 n.2' });
    assert.equal(line(play('macau-2009', seat({ sevens: 10 }), '7S 9H 7D 8C', [[1, 0, 'stand']]), 'sevens').net, 500);
    assert.equal(line(play('macau-2009', seat({ sevens: 10 }), '7S 9H 7S 8C', [[1, 0, 'stand']]), 'sevens').net, 1500);
  });

  it('over/under 13: 1:1, exactly 13 loses both; an ace counts 1 by default', () => {
    // Both sides at once are two additional bets: only under the reading awaiting the regulator (art.13).
    const both = { over13: 100, under13: 100 };
    const several = { oneSideBetPerPlayer: false };
    assert.throws(() => play('macau-2009', seat(both), '6S 9H 7D 8C', [[1, 0, 'stand']]), /only one additional bet per player \(art\.13\)/);
    const t13 = play('macau-2009', seat(both), '6S 9H 7D 8C', [[1, 0, 'stand']], several);
    assert.deepEqual([line(t13, 'over13').net, line(t13, 'under13').net], [-100, -100]);
    const ace = play('macau-2009', seat(both), 'AS 9H 9D 8C', [[1, 0, 'stand']], several);
    assert.deepEqual([line(ace, 'over13').net, line(ace, 'under13').net], [-100, 100]);
    const ace11 = play('macau-2009', seat(both), 'AS 9H 9D 8C', [[1, 0, 'stand']], { ...several, overUnderAceValue: 11 });
    assert.deepEqual([line(ace11, 'over13').net, line(ace11, 'under13').net], [100, -100]);
    assert.deepEqual(line(ace11, 'over13').choices, ['oneSideBetPerPlayer=false', 'overUnderAceValue=11'], 'each line names the readings it was settled under');
  });

  it('perfect pairs 5/12/25 (needs the option: art.21 n.3)', () => {
    const pp = (cards: string): number =>
      line(play('macau-2009', seat({ perfectPairs: 10 }), `${cards} 8C`, [[1, 0, 'stand']], { perfectPairs: true }), 'perfectPairs').net;
    // Q-Q splits by value (Art. 16 n.1): stand, so the pair is not split.
    assert.equal(pp('QH 9S QD'), 120);
    assert.equal(pp('QH 9S QS'), 50);
    assert.equal(pp('QH 9S QH'), 250);
    assert.equal(pp('QH 9S KH'), -10);
    assert.throws(() => play('macau-2009', seat({ perfectPairs: 10 }), 'QH 9S QD', [[1, 0, 'stand']]), /not offered/);
  });
});

describe('Macau 2009: winning streak (Art. 13 5), 11 n.2, 16 n.7, 18 n.3)', () => {
  const o = { winningStreak: true };
  it('wins move the marker, a tie keeps it, a win at level 2 pays 3:1 and a loss ends the rest', () => {
    const r1 = play('macau-2009', [{ seat: 1, bets: { main: 100, streak: { '2': 10, '3': 10 } } }], 'TS 9H QD 8C', [[1, 0, 'stand']], o);
    assert.deepEqual(r1.streaks, [{ seat: 1, bets: { '2': 10, '3': 10 }, wins: 1 }]);
    const r2 = play('macau-2009', 100, 'TS 9H QD AC', [[1, 0, 'stand']], o, r1.streaks);
    assert.deepEqual(r2.streaks, r1.streaks, 'a tie leaves the marker where it was (art.11 n.2)');
    const r3 = play('macau-2009', 100, 'TS 9H QD 8C', [[1, 0, 'stand']], o, r2.streaks);
    // Played under an authorised choice (art.21 n.3): the line names it and its reference.
    assert.deepEqual(line(r3, 'streak2'), {
      seat: 1,
      bet: 'streak2',
      hand: 0,
      stake: 10,
      net: 30,
      rule: 'macau-2009 art.13 5)(2) i), art.14 n.5',
      choices: ['winningStreak=true'],
      authorisation: 'TEST-DICJ',
      // Its stake was wagered in round 1 and held since.
      carried: true,
    });
    assert.deepEqual(r3.streaks, [{ seat: 1, bets: { '3': 10 }, wins: 2 }]);
    const r4 = play('macau-2009', 100, 'TS 9H 8D TC', [[1, 0, 'stand']], o, r3.streaks);
    assert.deepEqual(line(r4, 'streak3').net, -10);
    assert.deepEqual(r4.streaks, []);
  });

  it('a seat with open streak bets that does not bet loses them (art.13 5)(2) vi)), and may not change them (v))', () => {
    const open: StreakState[] = [{ seat: 1, bets: { '2': 10 }, wins: 1 }];
    const absent = play('macau-2009', [{ seat: 2, bets: { main: 100 } }], 'TS 9H QD 8C', [[2, 0, 'stand']], o, open);
    assert.deepEqual(line(absent, 'streak2'), {
      seat: 1,
      bet: 'streak2',
      hand: 0,
      stake: 10,
      net: -10,
      rule: 'macau-2009 art.13 5)(2) vi), our reading: the text names no consequence',
      choices: ['winningStreak=true'],
      authorisation: 'TEST-DICJ',
      carried: true,
    });
    assert.deepEqual(absent.streaks, []);
    assert.throws(
      () => play('macau-2009', [{ seat: 1, bets: { main: 100, streak: { '5': 1 } } }], 'TS 9H QD 8C', [[1, 0, 'stand']], o, open),
      /may not change/,
    );
  });

  it('a seat a fault kept from betting gets its open streak stakes back and its streak ends: a house reading, citing no article', () => {
    const rules = resolveRules('macau-2009', { winningStreak: true, authorisation: 'TEST-DICJ' });
    const open: StreakState[] = [
      { seat: 1, bets: { '2': 10, '4': 5 }, wins: 1 },
      { seat: 3, bets: { '3': 7 }, wins: 1 },
    ];
    // Seat 1's station was disabled by a device fault in the betting window; seat 3's player chose not to bet.
    let r = openRound({ rules, seats: [{ seat: 2, bets: { main: 100 } }], streaks: open, keptOut: [1] });
    for (const c of ['TS', '9H', 'QD']) r = dealCard(r, parseCard(c));
    r = decideRound(r, { type: 'stand' });
    r = dealCard(r, parseCard('8C'));
    assert.equal(r.expected.kind, 'done');
    const rule = 'macau-2009 house reading, no article: a fault kept the station from betting';
    assert.deepEqual(
      r.lines.filter((l) => l.seat !== 2).map((l) => [l.seat, l.bet, l.stake, l.net, l.rule, l.carried]),
      [
        [1, 'streak2', 10, 0, rule, true],
        [1, 'streak4', 5, 0, rule, true],
        [3, 'streak3', 7, -7, 'macau-2009 art.13 5)(2) vi), our reading: the text names no consequence', true],
      ],
    );
    assert.deepEqual(r.streaks, [], 'both streaks end: no stake stays held');
    assert.deepEqual(r.held, []);
  });

  it('a kept-out seat that bet after all (the fault cleared in the window) plays its streak as usual', () => {
    const rules = resolveRules('macau-2009', { winningStreak: true, authorisation: 'TEST-DICJ' });
    let r = openRound({ rules, seats: [{ seat: 1, bets: { main: 100 } }], streaks: [{ seat: 1, bets: { '2': 10 }, wins: 1 }], keptOut: [1] });
    for (const c of ['TS', '9H', '9D']) r = dealCard(r, parseCard(c));
    r = decideRound(r, { type: 'stand' });
    r = dealCard(r, parseCard('8C'));
    assert.deepEqual(
      r.lines.filter((l) => l.bet === 'streak2').map((l) => [l.net, l.rule]),
      [[30, 'macau-2009 art.13 5)(2) i), art.14 n.5']],
    );
  });

  it('new streak stakes still open after the round are held; carried ones are marked on their lines', () => {
    const rules = resolveRules('macau-2009', { winningStreak: true, authorisation: 'TEST-DICJ' });
    let r = openRound({ rules, seats: [{ seat: 1, bets: { main: 100, streak: { '2': 10, '5': 20 } } }] });
    for (const c of ['TS', '9H', '9D']) r = dealCard(r, parseCard(c));
    r = decideRound(r, { type: 'stand' });
    r = dealCard(r, parseCard('8C'));
    assert.equal(r.expected.kind, 'done');
    assert.deepEqual(r.held, [
      { seat: 1, bet: 'streak2', amount: 10 },
      { seat: 1, bet: 'streak5', amount: 20 },
    ]);
    assert.ok(r.lines.every((l) => l.carried === undefined));
  });

  it('art.18 n.3: surrender loses the streak bets', () => {
    const out = play('macau-2009', 100, 'TS 9H 6D', [[1, 0, 'surrender']], o, [{ seat: 1, bets: { '4': 10 }, wins: 2 }]);
    assert.deepEqual(line(out, 'streak4'), {
      seat: 1,
      bet: 'streak4',
      hand: 0,
      stake: 10,
      net: -10,
      rule: 'macau-2009 art.18 n.3',
      choices: ['winningStreak=true'],
      authorisation: 'TEST-DICJ',
      carried: true,
    });
  });

  it('art.16 n.7: split hands that win more than they lose but not a majority (a push among them) advance the streak as our reading, not by n.7 1)', () => {
    // 8-8 split against a 9: 18 pushes the dealer's 18, 19 wins: one of two hands won, none lost.
    const out = play(
      'macau-2009',
      100,
      '8S 9H 8D TC AC 9C',
      [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'stand'],
      ],
      o,
      [{ seat: 1, bets: { '2': 10 }, wins: 1 }],
    );
    assert.deepEqual(
      mains(out).map(([hand, net]) => [hand, net]),
      [
        [0, 0],
        [1, 100],
      ],
    );
    assert.equal(line(out, 'streak2').net, 30);
    // «ganhar a maioria das mãos separadas, v.g. 2 em 3»: one of two is no majority, and n.7 2)-3) do not fit either.
    assert.equal(line(out, 'streak2').rule, 'macau-2009 art.14 n.5; house reading, no article: more split hands won than lost');
  });

  it('art.16 n.7: split hands count by majority; a draw keeps the marker', () => {
    const open: StreakState[] = [{ seat: 1, bets: { '3': 10 }, wins: 1 }];
    // 8-8 split against a 9: both hands 18 against the dealer's 19 → loss.
    const lost = play(
      'macau-2009',
      100,
      '8S 9H 8D TC 2C 8H TD',
      [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'hit'],
        [1, 1, 'stand'],
      ],
      o,
      open,
    );
    assert.equal(line(lost, 'streak3').rule, 'macau-2009 art.16 n.7 3)');
    // 8-8 split against a 6: 18 and 18, the dealer busts → both won, the marker advances by n.7 1).
    const won = play(
      'macau-2009',
      100,
      '8S 6H 8D TC QC TD 9C',
      [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'stand'],
      ],
      o,
      [{ seat: 1, bets: { '2': 10 }, wins: 1 }],
    );
    assert.equal(line(won, 'streak2').net, 30);
    assert.equal(line(won, 'streak2').rule, 'macau-2009 art.13 5)(2) i), art.14 n.5, art.16 n.7 1)');
    // one hand loses (18 v 19), one wins (20) → marker unchanged.
    const kept = play(
      'macau-2009',
      100,
      '8S 9H 8D QC 3C 9C TD',
      [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'hit'],
        [1, 1, 'stand'],
      ],
      o,
      open,
    );
    assert.deepEqual(kept.streaks, open);
  });
});

describe('burns and dealing procedures (Art. 4, Art. 5)', () => {
  it("art.4 n.2: a burn at the start of each round and before the dealer's second card", () => {
    const out = play('macau-2009', 1000, '2C TS 9H QD 3C 8C', [[1, 0, 'stand']], { burnEachRound: true, burnBeforeDealerSecond: true });
    assert.deepEqual(out.burns, ['2C', '3C']);
    assert.deepEqual(out.dealer.cards, ['9H', '8C']);
  });

  it('art.5 n.2 (3): procedure 3 deals a hole card and ends the round at once on a dealer Black Jack', () => {
    const out = play('macau-2009', 1000, '9S AH 9D KC', [[1, 0, 'insurance:500']], { dealProcedure: 'macau-3', holeCard: 'peek' });
    // Found at the peek, before any player acted: Art. 5 n.2 3)(4) («de imediato recolhe»), not Art. 12 n.2 (after the players' cards).
    assert.deepEqual(mains(out), [[0, -1000, 'macau-2009 art.5 n.2 3)(4)']]);
    assert.equal(line(out, 'insurance').net, 1000);
    // The insurance's 2 to 1 is Art. 12 n.2's, its moment the peek's (a review of 4 December: it cited n.2 alone, which is after the players' cards).
    assert.equal(line(out, 'insurance').rule, 'macau-2009 art.12 n.2 (2 to 1), at the peek: art.5 n.2 3)(3)-(4)');
  });

  it('the live path: the round tells which card is expected for whom', () => {
    let round = openRound({
      rules: resolveRules('macau-2009', { dealProcedure: 'macau-3', holeCard: 'peek', authorisation: 'TEST-DICJ' }),
      seats: [
        { seat: 2, bets: { main: 100 } },
        { seat: 5, bets: { main: 100 } },
      ],
    });
    const order: string[] = [];
    for (const c of ['TS', '9D', '5C', 'TH', '8D', '7S']) {
      const x = round.expected;
      assert.equal(x.kind, 'card');
      if (x.kind === 'card') order.push(`${x.target.to === 'hand' ? `s${x.target.seat}` : x.target.to}:${x.step}`);
      round = dealCard(round, parseCard(c));
    }
    assert.deepEqual(order, ['s2:first', 's5:first', 'dealer:dealer-up', 's2:second', 's5:second', 'dealer:dealer-hole']);
    const x = round.expected;
    assert.equal(x.kind, 'decision');
    if (x.kind === 'decision') assert.deepEqual([x.seat, x.hand, x.legal], [2, 0, ['hit', 'stand', 'double', 'split', 'surrender']]);
  });

  it('rejects inconsistent procedure options', () => {
    const a = { authorisation: 'TEST-DICJ' };
    assert.throws(() => resolveRules('macau-2009', { ...a, dealProcedure: 'macau-3' }), /holeCard=peek/);
    assert.throws(() => resolveRules('macau-2009', { ...a, burnBeforeDealerSecond: true }), /burnEachRound/);
    assert.throws(() => resolveRules('macau-2004', { dealProcedure: 'macau-3' }), /not allowed/);
    assert.throws(() => resolveRules('macau-2009', { ...a, decks: 9 }), /1–8/);
    assert.throws(() => resolveRules('macau-2009', { nope: 1 }), /unknown rule option/);
  });
});

describe('Portugal 2001 (rules 17–37)', () => {
  it('rule 1: Black Jack is an ace and a ten-value card as the first two cards of an initial bet; 21 otherwise is a plain 21', () => {
    // a): the first two cards of the bet: Black Jack, paid 3:2 (rule 21).
    assert.deepEqual(mains(play('portugal-2001', 1000, 'AS 9H KD 9C')), [[0, 1500, 'portugal-2001 rule 21']]);
    // b): 21 reached with an additional card is not Black Jack: 1:1 against the dealer's 18.
    assert.deepEqual(mains(play('portugal-2001', 1000, 'AS 9H 5D 9S 5C', [[1, 0, 'hit']])), [[0, 1000, 'portugal-2001 rule 23']]);
    // A split hand is not an initial bet: ace and king after splitting aces is 21, paid 1:1.
    const split = play('portugal-2001', 1000, 'AS 9H AD 9S KC 5D', [[1, 0, 'split']]);
    assert.equal(split.hands[0]?.total, 21);
    // Rule 20: «Não se considera blackjack, mas sim o total de 21, se aquela combinação resultar do desdobramento de um par».
    assert.deepEqual(mains(split)[0], [0, 1000, 'portugal-2001 rules 20, 23']);
  });

  it('rule 17: hole card dealt face down; rule 22: no third dealer card when every hand is lost', () => {
    const out = play('portugal-2001', 1000, 'TS 6H 6D 9C KC', [[1, 0, 'hit']]);
    assert.deepEqual(out.dealer.cards, ['6H', '9C']);
    assert.deepEqual(mains(out), [[0, -1000, 'portugal-2001 rule 22']]);
  });

  it('rule 18: a player may stand only above 11', () => {
    assert.throws(() => play('portugal-2001', 1000, '5S 9H 6D 9C', [[1, 0, 'stand']]), /not legal/);
  });

  it('rules 29, 32: doubles on 9–11; A-8 doubled as 9 keeps the ace at 1', () => {
    const out = play('portugal-2001', 1000, 'AS 9H 8D 8C 2C', [[1, 0, 'double']]);
    assert.equal(out.hands[0]?.total, 11);
    assert.deepEqual(mains(out), [[0, -2000, 'portugal-2001 rule 23']]);
    assert.throws(() => play('portugal-2001', 1000, 'TS 9H 2D 7C', [[1, 0, 'double']]), /not legal/);
  });

  it('rule 21: no limitation on a dealer Black Jack found after a double; rule 34: even money only against an ace', () => {
    const out = play('portugal-2001', 1000, '6S TH 5D AD 9C', [[1, 0, 'double']]);
    assert.deepEqual(mains(out), [[0, -2000, 'portugal-2001 rule 23']]);
    const bj = play('portugal-2001', 1000, 'AS TH KD 7C');
    assert.deepEqual(mains(bj), [[0, 1500, 'portugal-2001 rule 21']]);
  });

  it('rule 33: insurance up to half the bet', () => {
    assert.throws(() => play('portugal-2001', 1000, 'TS AH QD 7C', [[1, 0, 'insurance:501']]), /from 1 to 500 \(portugal-2001 rule 33\)/);
  });

  it('rule 35: the 6-7-8 prize comes on top of the main result', () => {
    const out = play('portugal-2001', 1000, '6H 9S 7H 8C 8H', [[1, 0, 'hit']]);
    assert.deepEqual(
      out.settlements.map((l) => [l.bet, l.net, l.rule]),
      [
        ['bonus678', 3000, 'portugal-2001 rule 35'],
        ['main', 1000, 'portugal-2001 rule 23'],
      ],
    );
  });

  it('rules 14, 37: bets in multiples of the minimum, up to 30 times it', () => {
    const o = { minBet: 100 };
    assert.throws(() => play('portugal-2001', 3100, 'TS 9H QD 8C', [[1, 0, 'stand']], o), /30× the minimum/);
    assert.throws(() => play('portugal-2001', 150, 'TS 9H QD 8C', [[1, 0, 'stand']], o), /multiple of the minimum/);
    assert.doesNotThrow(() => play('portugal-2001', 3000, 'TS 9H QD 8C', [[1, 0, 'stand']], o));
    // Each refusal cites its profile's article: Portugal's rules, and on a Macau table (the house's
    // choices there) no rule of another text (a review: "(rule 14)" was quoted at Macau tables).
    assert.throws(() => play('portugal-2001', 150, 'TS 9H QD 8C', [[1, 0, 'stand']], o), /\(portugal-2001 rule 14\)/);
    const macau = { minBet: 100, betInMultiplesOfMinimum: true, maxBetMultiple: 5 };
    for (const [amount, says] of [
      [150, /multiple of the minimum 100 \(macau-2009 \(not in the text\)\)$/],
      [600, /above 5× the minimum \(macau-2009 \(not in the text\)\)$/],
    ] as const)
      assert.throws(
        () => play('macau-2009', amount, 'TS 9H QD 8C', [[1, 0, 'stand']], macau),
        (e: Error) => says.test(e.message) && !/rule \d/.test(e.message),
      );
  });

  it('rules 15, 28, 30: a back bet that does not follow the split rides on the first hand', () => {
    const seats: SeatEntry[] = [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'b', main: 500, followSplit: false }] }];
    const out = play('portugal-2001', seats, '8S 9H 8D 7C AC 5C 2D', [
      [1, 0, 'split'],
      [1, 0, 'stand'],
      [1, 1, 'stand'],
    ]);
    assert.deepEqual(
      out.settlements.map((l) => [l.hand, l.owner ?? 'seat', l.stake, l.net]),
      [
        [0, 'seat', 1000, 1000],
        [0, 'b', 500, 500],
        [1, 'seat', 1000, -1000],
      ],
    );
  });
});

describe('bets behind and doubles (Portugal rule 30)', () => {
  it('a back bettor may double with the holder, or stay at the original bet', () => {
    const seats: SeatEntry[] = [
      {
        seat: 2,
        bets: { main: 1000 },
        behind: [
          { owner: 'b', main: 400, followDouble: true },
          { owner: 'c', main: 200 },
        ],
      },
    ];
    const out = play('portugal-2001', seats, '6S 9H 4D 8C TC', [[2, 0, 'double']]);
    assert.deepEqual(
      out.settlements.map((l) => [l.owner ?? 'seat', l.stake, l.net]),
      [
        ['seat', 2000, 2000],
        ['b', 800, 800],
        ['c', 200, 200],
      ],
    );
    // Macau (Art. 20, interpretation): the bets behind follow the seat's decisions.
    const macau = play('macau-2009', seats, '6S 9H 4D TC 8C', [[2, 0, 'double']]);
    assert.deepEqual(
      macau.settlements.map((l) => l.stake),
      [2000, 800, 400],
    );
  });
});

describe('bets behind that do not follow a double or split for want of credit (Portugal rules 28, 30; Macau Art. 20 silent, read alike)', () => {
  const rows = (out: ScriptOutput) => out.settlements.filter((l) => l.bet === 'main').map((l) => [l.hand ?? 0, l.owner ?? 'seat', l.stake, l.net, l.rule]);

  for (const profile of ['macau-2009', 'macau-2004'] as const) {
    it(`${profile}: the seat doubles; a follower doubles its bet, one listed as not following stays at its stake and cites rule 30`, () => {
      const seats: SeatEntry[] = [
        {
          seat: 2,
          bets: { main: 1000 },
          behind: [
            { owner: 'b', main: 400 },
            { owner: 'c', main: 200 },
          ],
        },
      ];
      // Seat 2: 6 + 4 = 10, doubles, draws a ten: 20. Dealer 9 then 8: 17.
      const out = runScript(resolveRules(profile), {
        seats,
        cards: ['6S', '9H', '4D', 'TC', '8C'],
        decisions: [{ seat: 2, hand: 0, action: 'double', notFollowing: ['c'] }],
      });
      assert.deepEqual(rows(out), [
        [0, 'seat', 2000, 2000, `${profile} art.9`],
        [0, 'b', 800, 800, `${profile} art.9`],
        [0, 'c', 200, 200, `${profile} art.9; art.20 silent, as portugal-2001 rule 30`],
      ]);
    });

    it(`${profile}: the seat splits; a follower stakes again on the second hand, one not following rides on the first hand only and cites rule 28`, () => {
      const seats: SeatEntry[] = [
        {
          seat: 1,
          bets: { main: 1000 },
          behind: [
            { owner: 'b', main: 500 },
            { owner: 'c', main: 300 },
          ],
        },
      ];
      // 8-8 split: hand 0 draws 7 (15), hand 1 draws an ace (19); the dealer makes 9+5+4 = 18.
      const out = runScript(resolveRules(profile), {
        seats,
        cards: ['8S', '9H', '8D', '7C', 'AC', '5C', '4D'],
        decisions: [
          { seat: 1, hand: 0, action: 'split', notFollowing: ['c'] },
          { seat: 1, hand: 0, action: 'stand' },
          { seat: 1, hand: 1, action: 'stand' },
        ],
      });
      assert.deepEqual(rows(out), [
        [0, 'seat', 1000, -1000, `${profile} art.9`],
        [0, 'b', 500, -500, `${profile} art.9`],
        [0, 'c', 300, -300, `${profile} art.9; art.20 silent, as portugal-2001 rule 28`],
        [1, 'seat', 1000, 1000, `${profile} art.9`],
        [1, 'b', 500, 500, `${profile} art.9`],
      ]);
    });
  }

  it('macau-2009: against a dealer Black Jack the doubled seat loses its original bet, the bet that stayed out its own stake', () => {
    const seats: SeatEntry[] = [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'c', main: 200 }] }];
    const out = runScript(resolveRules('macau-2009'), {
      seats,
      cards: ['6S', 'TH', '5D', '2C', 'AD'],
      decisions: [{ seat: 1, hand: 0, action: 'double', notFollowing: ['c'] }],
    });
    assert.deepEqual(rows(out), [
      [0, 'seat', 2000, -1000, 'macau-2009 art.17 n.3'],
      [0, 'c', 200, -200, 'macau-2009 art.12 n.2; art.20 silent, as portugal-2001 rule 30'],
    ]);
  });

  it('portugal-2001: a bettor who chose to double but cannot is kept out like one who chose not to (rule 30)', () => {
    const seats: SeatEntry[] = [
      {
        seat: 2,
        bets: { main: 1000 },
        behind: [
          { owner: 'b', main: 400, followDouble: true },
          { owner: 'c', main: 200 },
        ],
      },
    ];
    const out = runScript(resolveRules('portugal-2001'), {
      seats,
      cards: ['6S', '9H', '4D', '8C', 'TC'],
      decisions: [{ seat: 2, hand: 0, action: 'double', notFollowing: ['b'] }],
    });
    assert.deepEqual(rows(out), [
      [0, 'seat', 2000, 2000, 'portugal-2001 rule 23'],
      [0, 'b', 400, 400, 'portugal-2001 rule 23; rule 30'],
      [0, 'c', 200, 200, 'portugal-2001 rule 23; rule 30'],
    ]);
    // Only a bet that would follow can be listed: c chose not to double already.
    assert.throws(
      () =>
        runScript(resolveRules('portugal-2001'), {
          seats,
          cards: ['6S', '9H', '4D', '8C', 'TC'],
          decisions: [{ seat: 2, hand: 0, action: 'double', notFollowing: ['c'] }],
        }),
      /"c" has no bet behind on seat 2 hand 0 that would follow the double/,
    );
  });

  it("a stake that stayed out of a split and then out of that hand's double cites both rules", () => {
    const seats: SeatEntry[] = [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'c', main: 300 }] }];
    // 5-5 split; hand 0 draws a 6 (11) and doubles (a ten: 21); hand 1 draws a 5 (10) and stands; dealer 9+8 = 17.
    const out = runScript(resolveRules('macau-2009'), {
      seats,
      cards: ['5S', '9H', '5D', '6C', 'TC', '5C', '8D'],
      decisions: [
        { seat: 1, hand: 0, action: 'split', notFollowing: ['c'] },
        { seat: 1, hand: 0, action: 'double', notFollowing: ['c'] },
        { seat: 1, hand: 1, action: 'stand' },
      ],
    });
    assert.deepEqual(rows(out), [
      [0, 'seat', 2000, 2000, 'macau-2009 art.10 n.4'],
      [0, 'c', 300, 300, 'macau-2009 art.10 n.4; art.20 silent, as portugal-2001 rules 28, 30'],
      [1, 'seat', 1000, -1000, 'macau-2009 art.9'],
    ]);
  });

  it('refuses a list that names the seat, a stranger, or goes with another action; the log replays the same round', () => {
    const seats: SeatEntry[] = [{ seat: 2, bets: { main: 1000 }, behind: [{ owner: 'b', main: 400 }] }];
    const cards = ['6S', '9H', '4D', 'TC', '8C'];
    const run = (d: ScriptDecision) => runScript(resolveRules('macau-2009'), { seats, cards, decisions: [d] });
    assert.throws(() => run({ seat: 2, hand: 0, action: 'double', notFollowing: ['seat:2'] }), /"seat:2" has no bet behind/);
    assert.throws(() => run({ seat: 2, hand: 0, action: 'double', notFollowing: ['x'] }), /"x" has no bet behind/);
    assert.throws(() => run({ seat: 2, hand: 0, action: 'double', notFollowing: ['b', 'b'] }), /"b" has no bet behind/);
    assert.throws(() => run({ seat: 2, hand: 0, action: 'hit', notFollowing: ['b'] }), /notFollowing goes with a double or a split/);
    const setup = { rules: resolveRules('macau-2009'), seats };
    let round = openRound(setup);
    for (const c of cards.slice(0, 3)) round = dealCard(round, parseCard(c));
    const list = ['b'];
    round = decideRound(round, { type: 'double', notFollowing: list });
    list.length = 0; // the round kept its own copy
    for (const c of cards.slice(3)) round = dealCard(round, parseCard(c));
    assert.equal(round.done, true);
    assert.deepEqual(
      round.lines.map((l) => [l.owner ?? 'seat', l.stake]),
      [
        ['seat', 2000],
        ['b', 400],
      ],
    );
    assert.deepEqual(replayRound(setup, round.log).lines, round.lines);
  });
});

describe('bets behind and insurance (Portugal rule 15)', () => {
  it('when the seat holder insures, each bettor behind is asked for their own insurance', () => {
    const seats: SeatEntry[] = [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'b', main: 400 }] }];
    const out = runScript(resolveRules('portugal-2001'), {
      seats,
      cards: ['TS', 'AH', 'QD', 'KC'],
      decisions: [
        { seat: 1, hand: 0, action: 'insurance:500', owner: 'seat:1' },
        { seat: 1, hand: 0, action: 'insurance:200', owner: 'b' },
        { seat: 1, hand: 0, action: 'stand' },
      ],
    });
    assert.deepEqual(
      out.settlements.map((l) => [l.bet, l.owner ?? 'seat', l.stake, l.net]),
      [
        ['insurance', 'seat', 500, 1000],
        ['insurance', 'b', 200, 400],
        ['main', 'seat', 1000, -1000],
        ['main', 'b', 400, -400],
      ],
    );
    assert.throws(
      () =>
        runScript(resolveRules('portugal-2001'), {
          seats,
          cards: ['TS', 'AH', 'QD', 'KC'],
          decisions: [{ seat: 1, hand: 0, action: 'insurance:500', owner: 'b' }],
        }),
      /"seat:1" must answer/,
    );
    // Without the holder's insurance, nobody behind is asked.
    const none = runScript(resolveRules('portugal-2001'), {
      seats,
      cards: ['TS', 'AH', 'QD', '7C'],
      decisions: [
        { seat: 1, hand: 0, action: 'decline-insurance' },
        { seat: 1, hand: 0, action: 'stand' },
      ],
    });
    assert.equal(none.settlements.filter((l) => l.bet === 'insurance').length, 0);
  });
});

describe('the most bettors on one seat: what fixes the number (Macau Art. 20 n.1 2); the house elsewhere)', () => {
  const over = (profile: ProfileId, behind: number, options: Record<string, unknown>) => () =>
    openRound({
      rules: resolveRules(profile, { authorisation: 'TEST-DICJ', ...options }),
      seats: [{ seat: 1, bets: { main: 100 }, behind: Array.from({ length: behind }, (_, j) => ({ owner: `b${j}`, main: 100 })) }],
    });
  it('alternative 2) («no máximo três jogadores», the director may reduce it) cites art.20 n.1 2)', () => {
    assert.throws(over('macau-2009', 3, { betBehind: 'seated-or-nearest' }), { message: 'seat 1: at most 3 bettors per seat (macau-2009 art.20 n.1 2))' });
    assert.throws(over('macau-2004', 2, { betBehind: 'seated-or-nearest', maxBettorsPerSeat: 2 }), {
      message: 'seat 1: at most 2 bettors per seat (macau-2004 art.20 n.1 2))',
    });
  });
  it("alternatives 1) and 3) set no number: the cap is the house's option, and the line says so", () => {
    assert.throws(over('macau-2009', 3, {}), {
      message: "seat 1: at most 3 bettors per seat (the house's maxBettorsPerSeat=3; macau-2009 art.20 n.1 1) sets no number)",
    });
    assert.throws(over('macau-2004', 2, { betBehind: 'highest-bet', maxBettorsPerSeat: 2 }), {
      message: "seat 1: at most 2 bettors per seat (the house's maxBettorsPerSeat=2; macau-2004 art.20 n.1 3) sets no number)",
    });
  });
  it('a house on alternative 1) or 3) may take four or more on a seat; alternative 2) alone is held to three, citing 2) (a review of 4 December)', () => {
    assert.deepEqual(checkRules('macau-2009', { authorisation: 'TEST-DICJ', betBehind: 'highest-bet', maxBettorsPerSeat: 5 }), []);
    assert.deepEqual(checkRules('macau-2004', { maxBettorsPerSeat: 4 }), []);
    assert.doesNotThrow(over('macau-2009', 3, { betBehind: 'highest-bet', maxBettorsPerSeat: 4 }));
    const refused = checkRules('macau-2009', { authorisation: 'TEST-DICJ', betBehind: 'seated-or-nearest', maxBettorsPerSeat: 4 });
    assert.deepEqual(
      refused.map((r) => [r.option, r.article]),
      [['maxBettorsPerSeat', 'macau-2009 art.20 n.1 2)']],
    );
    // What the option itself cites names no alternative as fixing the number for all three.
    const info = ruleOptionInfos('macau-2009').find((i) => i.key === 'maxBettorsPerSeat');
    assert.ok(info && !/art\.20 n\.1 2\)/.test(info.article ?? ''), JSON.stringify(info));
    const follows = ruleOptionInfos('macau-2004').find((i) => i.key === 'behindFollows');
    assert.ok(follows && !/n\.1 1\)$/.test(follows.article ?? ''), JSON.stringify(follows));
  });
  it('Portugal rule 15 limits a seat only by the table maximum: the cap is the house option, never Art. 20', () => {
    assert.throws(over('portugal-2001', 2, { maxBettorsPerSeat: 2 }), {
      message: "seat 1: at most 2 bettors per seat (the house's maxBettorsPerSeat=2; portugal-2001 rule 15 limits a seat only by the table maximum)",
    });
    assert.doesNotThrow(over('portugal-2001', 1, { maxBettorsPerSeat: 2 }));
  });
});

describe("additional bets on another player's hand (Art. 13 1))", () => {
  it('a standing bettor may bet any pair on a seat without a main bet', () => {
    const seats: SeatEntry[] = [{ seat: 4, bets: { main: 1000 }, behind: [{ owner: 'p', main: 0, anyPair: 50 }] }];
    const out = runScript(resolveRules('macau-2009'), {
      seats,
      cards: ['8S', '9H', '8D', 'TC', '9C', 'QS'],
      decisions: [
        { seat: 4, hand: 0, action: 'split' },
        { seat: 4, hand: 0, action: 'stand' },
        { seat: 4, hand: 1, action: 'stand' },
      ],
    });
    assert.deepEqual(
      out.settlements.filter((l) => l.bet === 'anyPair').map((l) => [l.owner, l.stake, l.net]),
      [['p', 50, 550]],
    );
    assert.equal(out.settlements.filter((l) => l.bet === 'main' && l.owner === 'p').length, 0);
    assert.throws(
      () => runScript(resolveRules('macau-2004'), { seats: [{ seat: 1, bets: { main: 100 }, behind: [{ owner: 'p', main: 0, perfectPairs: 5 }] }], cards: [] }),
      /not offered/,
    );
  });
});

describe('the scripted-round runner refuses what cannot be played', () => {
  it('illegal, missing and misdirected decisions, left-over, missing and impossible cards', () => {
    assert.throws(() => play('macau-2009', 1000, 'TS 9H 8D 8C', [[1, 0, 'split']]), /"split" is not legal/);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H QD 8C'), /missing decision 1: seat 1 hand 0/);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H QD 8C 2D', [[1, 0, 'stand']]), /1 card\(s\) left over/);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H QD', [[1, 0, 'stand']]), /missing card: card 4 is needed for dealer/);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H QD 8C', [[1, 1, 'stand']]), /is for seat 1 hand 1/);
    assert.throws(
      () =>
        play('macau-2009', 1000, 'TS 9H QD 8C', [
          [1, 0, 'stand'],
          [1, 0, 'hit'],
        ]),
      /decision\(s\) left over/,
    );
    assert.throws(() => play('macau-2009', 1000, 'AS AS AS', [], { decks: 2 }), /impossible/);
    assert.throws(() => play('macau-2009', 1000, 'XX'), /not a card/);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H QD 8C', [[1, 0, 'fly']]), /not an action/);
  });
});

describe('the generic profile (analysis)', () => {
  it('takes overrides a text forbids, and its lines cite no article', () => {
    const out = play(
      'generic',
      1000,
      'TS AH 6D',
      [
        [1, 0, 'decline-insurance'],
        [1, 0, 'surrender'],
      ],
      { surrender: 'late' },
    );
    assert.deepEqual(mains(out), [[0, -500, 'generic']]);
    assert.throws(() => play('macau-2009', 1000, 'TS 9H 6D', [[1, 0, 'surrender']], { surrender: 'late' }), /not allowed by macau-2009 art\.18/);
    assert.throws(() => resolveRules('macau-2009', { evenMoney: 'none' }), /fixed at "vs-ace-or-ten" by macau-2009 art\.10 n\.3/);
    assert.throws(() => resolveRules('macau-2009', { fiveCardHalfPay: false }), /fixed at true by macau-2009 art\.19/);
    assert.throws(() => resolveRules('macau-2009', { surrender: 'none' }), /needs the regulator's authorisation reference \(macau-2009 art\.21 n\.2\)/);
    assert.equal(
      resolveRules('macau-2009', { surrender: 'none', bonus678: 'none', authorisation: 'DICJ-1' }).surrender,
      'none',
      'Art. 21 n.2 lets Arts. 15 and 18 be waived',
    );
  });
});

describe('rounding at the money boundary: exactly 3:2 and half, a fraction of a unit to the player', () => {
  const blackjack = (stake: number): number => line(play('macau-2009', stake, 'AS 9H KD'), 'main').net;
  const surrender = (stake: number): number => line(play('macau-2009', stake, 'TS 9H 6D', [[1, 0, 'surrender']]), 'main').net;
  const fiveCard = (stake: number): number =>
    line(
      play('macau-2009', stake, '2S 9H 3D 2C 3C 4D', [
        [1, 0, 'hit'],
        [1, 0, 'hit'],
        [1, 0, 'hit'],
        [1, 0, 'take-five-card-half'],
      ]),
      'main',
    ).net;

  it('a 1001 stake: Black Jack wins 1502 (1501.5 up), surrender loses 500 (500.5 down), five cards win 501', () => {
    assert.equal(blackjack(1001), 1502);
    assert.equal(surrender(1001), -500);
    assert.equal(fiveCard(1001), 501);
  });

  it('a 1 unit stake: Black Jack wins 2, surrender loses nothing, five cards win 1', () => {
    assert.equal(blackjack(1), 2);
    assert.equal(surrender(1), 0);
    assert.equal(fiveCard(1), 1);
  });

  it('every stake from 1 to 400: never less than the exact payout, never more than half a unit over it', () => {
    for (let stake = 1; stake <= 400; stake++) {
      for (const [net, exact] of [
        [blackjack(stake), 1.5 * stake],
        [surrender(stake), -0.5 * stake],
        [fiveCard(stake), 0.5 * stake],
      ] as const) {
        assert.ok(net >= exact && net - exact <= 0.5, `stake ${stake}: ${net} against exactly ${exact}`);
        assert.ok(Number.isInteger(net));
      }
    }
  });
});

describe("Macau 2009 Art. 21: the house's options and their authorisation", () => {
  it('n.1: every choice is an option of the articles it lists (1–6, 10 n.7, 12 n.1, 13, 14, 16, 17, 20) and needs the reference; n.2: only Arts. 15 and 18 are waived; n.3: perfect pairs and the streak', () => {
    const infos = ruleOptionInfos('macau-2009');
    const listed = /^macau-2009 art\.(?:(?:1|2|3|4|5|6|13|14|16|17|20)\b|10 n\.7|12 n\.1)/;
    const choices = infos.filter((i) => i.class === 'choice');
    for (const c of choices) {
      assert.match(c.article ?? '', listed, `${c.key}: a choice of an article Art. 21 n.1 lists`);
      const n3 = c.key === 'perfectPairs' || c.key === 'winningStreak';
      assert.equal(c.authorisation?.article, n3 ? 'macau-2009 art.21 n.3' : 'macau-2009 art.21 n.1', c.key);
      // Any value but the default is refused without the reference, naming the article that requires it.
      const other = c.alternatives[0]?.value ?? (c.range ? (c.default === c.range.max ? c.range.min : c.range.max) : undefined);
      assert.notEqual(other, undefined, c.key);
      const refused = checkRules('macau-2009', { [c.key]: other });
      assert.ok(
        refused.some((r) => r.option === c.key && r.reason === 'needs-authorisation' && r.article === c.authorisation?.article),
        `${c.key}=${JSON.stringify(other)}: ${JSON.stringify(refused)}`,
      );
    }
    // «n.º 7 do artigo 10.º»: the bank's offer of a limited loss has its option (issue 51).
    assert.deepEqual(
      choices.filter((c) => c.article?.startsWith('macau-2009 art.10 n.7')).map((c) => c.key),
      ['elevenDoubleOriginalOnly'],
    );
    const waivable = infos.filter((i) => i.class === 'waivable');
    assert.deepEqual(waivable.map((w) => [w.key, w.article, w.authorisation?.article]).sort(), [
      ['bonus678', 'macau-2009 art.15', 'macau-2009 art.21 n.2'],
      ['surrender', 'macau-2009 art.18 n.1', 'macau-2009 art.21 n.2'],
    ]);
  });
});
