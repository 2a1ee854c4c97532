// A refused decision says why, with the article of its profile's text (or the house's option where
// the text fixes nothing), and the reason is the one the legality function left the move out for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard, type Card } from '../cards/card.js';
import { freshCards, shuffled } from '../cards/shoe.js';
import { Rng } from '../random/seeded-rng.js';
import { ACTION_TYPES, dealCard, decideRound, openRound, type Action, type RoundState } from './round.js';
import { whyIllegal } from './round-step.js';
import { resolveRules, type ProfileId } from './rules.js';
import { runScript } from './script.js';

function refused(profile: ProfileId, cards: string, decisions: [number, number, string][], overrides: Record<string, unknown> = {}): string {
  const authorised = Object.keys(overrides).length > 0 ? { ...overrides, authorisation: 'TEST-DICJ' } : overrides;
  try {
    runScript(resolveRules(profile, authorised), {
      seats: [{ seat: 1, bets: { main: 1000 } }],
      cards: cards.split(/\s+/).filter(Boolean),
      decisions: decisions.map(([seat, hand, action]) => ({ seat, hand, action })),
    });
  } catch (e) {
    const m = /is not legal for seat \d+ hand \d+ now \([a-z-]+\)(?:: (.*))?; legal: /.exec((e as Error).message);
    assert.ok(m, `not a refused decision: ${(e as Error).message}`);
    return m[1] ?? '';
  }
  assert.fail('the decision was taken');
}

describe('a refused decision names why, with its article (Macau 2009)', () => {
  it('art.18 n.1: no surrender against an ace; art.21 n.2: a table that waived it', () => {
    assert.equal(
      refused('macau-2009', 'TS AH 6D', [
        [1, 0, 'decline-insurance'],
        [1, 0, 'surrender'],
      ]),
      "no surrender against the dealer's ace (macau-2009 art.18 n.1)",
    );
    assert.equal(
      refused('macau-2009', 'TS 9H 6D', [[1, 0, 'surrender']], { surrender: 'none' }),
      "no surrender at this table (the house's surrender=none; macau-2009 art.21 n.2)",
    );
  });

  it('art.18 n.2: surrender after an additional card is dealt', () => {
    assert.equal(
      refused('macau-2009', '2S 9H 3D 2C', [
        [1, 0, 'hit'],
        [1, 0, 'surrender'],
      ]),
      'surrender only before the dealer deals any additional card (macau-2009 art.18 n.2)',
    );
  });

  it('art.17 n.1: a double on the first two cards only; n.1 3) on 11 only where the house plays it', () => {
    assert.equal(
      refused('macau-2009', '2S 9H 3D 2C', [
        [1, 0, 'hit'],
        [1, 0, 'double'],
      ]),
      'a double only on the first two cards of a hand (macau-2009 art.17 n.1)',
    );
    assert.equal(
      refused('macau-2009', '6S TH 4D 9C', [[1, 0, 'double']], { doubleOn: 'eleven' }),
      'a double only on a total of 11 (doubleOn=eleven; macau-2009 art.17 n.1 3))',
    );
  });

  it("art.16 n.1: a split of a pair only; at most the house's number of hands; n.5: not after declining one", () => {
    assert.equal(refused('macau-2009', 'TS 9H 8D', [[1, 0, 'split']]), 'a split only of a pair of the same value (macau-2009 art.16 n.1)');
    assert.equal(
      refused('macau-2009', 'JS 9H QD', [[1, 0, 'split']], { splitPairsBy: 'rank' }),
      'a split only of a pair of the same rank (splitPairsBy=rank; macau-2009 art.16 n.1)',
    );
    const four: [number, number, string][] = [
      [1, 0, 'split'],
      [1, 0, 'split'],
      [1, 0, 'split'],
      [1, 0, 'split'],
    ];
    assert.equal(refused('macau-2009', '8S 9H 8D 8C 8H 8S 2C', four), "at most 4 hands by splitting (the house's maxHands=4; macau-2009 art.16 n.1)");
    assert.equal(
      refused('macau-2009', '8S 9H 8D 8C 8H', [
        [1, 0, 'split'],
        [1, 0, 'stand'],
        [1, 1, 'split'],
      ]),
      'no split after the player declined one (macau-2009 art.16 n.5)',
    );
  });

  it('art.16 n.3, art.6 4)(3): one card to each split ace; another question is answered first', () => {
    assert.equal(
      refused('macau-2009', 'AS 9H AD AC', [
        [1, 0, 'split'],
        [1, 0, 'hit'],
      ]),
      'one card only to each split ace (macau-2009 art.16 n.3, art.6 4)(3))',
    );
    assert.equal(refused('macau-2009', 'TS AH 6D', [[1, 0, 'hit']]), 'another question is open: it is answered first');
    assert.equal(refused('macau-2009', 'TS 9H 6D', [[1, 0, 'decline-insurance']]), 'no such question is open');
  });
});

describe('a refused decision names why: Macau 2004 numbers its articles its own way', () => {
  it('art.17 1)-2) (no n.), art.18 n.1, art.16 n.1', () => {
    assert.equal(
      refused('macau-2004', '2S 9H 3D 2C', [
        [1, 0, 'hit'],
        [1, 0, 'double'],
      ]),
      'a double only on the first two cards of a hand (macau-2004 art.17)',
    );
    assert.equal(
      refused('macau-2004', '6S TH 4D 9C', [[1, 0, 'double']], { doubleOn: 'eleven' }),
      'a double only on a total of 11 (doubleOn=eleven; macau-2004 art.17 2))',
    );
    assert.equal(
      refused('macau-2004', 'TS AH 6D', [
        [1, 0, 'decline-insurance'],
        [1, 0, 'surrender'],
      ]),
      "no surrender against the dealer's ace (macau-2004 art.18 n.1)",
    );
    assert.equal(refused('macau-2004', 'TS 9H 8D', [[1, 0, 'split']]), 'a split only of a pair of the same value (macau-2004 art.16 n.1)');
  });
});

describe('a refused decision names why (Portugal 2001)', () => {
  it('rule 18: no standing on 11 or less; rule 29: doubles on 9, 10 or 11; rule 36: no surrender against an ace', () => {
    assert.equal(refused('portugal-2001', '5S 9H 6D 9C', [[1, 0, 'stand']]), 'no standing below 12 (portugal-2001 rule 18)');
    assert.equal(refused('portugal-2001', 'TS 9H 2D 7C', [[1, 0, 'double']]), 'a double only on a total of 9, 10 or 11 (portugal-2001 rule 29)');
    assert.equal(
      refused('portugal-2001', 'TS AH 6D 9C', [
        [1, 0, 'decline-insurance'],
        [1, 0, 'surrender'],
      ]),
      "no surrender against the dealer's ace (portugal-2001 rule 36)",
    );
    assert.equal(refused('portugal-2001', 'TS 9H 8D 9C', [[1, 0, 'split']]), 'a split only of a pair of the same value (portugal-2001 rule 26)');
  });
});

/** A round played to its end with seeded cards and choices; at each decision, every action type checked. */
function checkRound(profile: ProfileId, overrides: Record<string, unknown>, seed: number): number {
  const rules = resolveRules(profile, overrides);
  const rng = new Rng([seed, 3, 5, 7]);
  const shoe: Card[] = shuffled(freshCards(rules.decks), rng);
  let r: RoundState = openRound({
    rules,
    seats: [
      { seat: 1, bets: { main: 1000 } },
      { seat: 3, bets: { main: 2000 } },
    ],
  });
  let checked = 0;
  for (let step = 0; r.expected.kind !== 'done'; step++) {
    assert.ok(step < 300, 'the round must end');
    const x = r.expected;
    if (x.kind === 'card') {
      r = dealCard(r, shoe[step] ?? parseCard('2C'));
      continue;
    }
    for (const a of ACTION_TYPES) {
      const why = whyIllegal(r, a);
      assert.equal(why === null, x.legal.includes(a), `${profile} ${a} at ${x.offer}: legal ${x.legal.join(', ')}, why ${String(why)}`);
      checked++;
    }
    const type = x.legal[rng.nextUint32() % x.legal.length] ?? 'stand';
    const action: Action = type === 'insurance' ? { type, amount: x.insurance?.max ?? 1 } : ({ type } as Action);
    r = decideRound(r, action);
  }
  return checked;
}

describe('every move left out of the legal list has a reason, and no legal move has one', () => {
  it('over seeded rounds of every profile and the options that bar moves', () => {
    const variants: [ProfileId, Record<string, unknown>][] = [
      ['macau-2009', {}],
      ['macau-2009', { doubleOn: 'eleven', surrender: 'none', resplit: false, doubleAfterSplit: false, splitPairsBy: 'rank', authorisation: 'TEST-DICJ' }],
      [
        'macau-2009',
        {
          surrenderMoment: 'hand-first-decision',
          dealProcedure: 'macau-3',
          holeCard: 'peek',
          burnBeforeDealerSecond: false,
          maxHands: 5,
          authorisation: 'TEST-DICJ',
        },
      ],
      ['macau-2004', {}],
      ['portugal-2001', {}],
      ['generic', { surrender: 'late', doubleOn: 'ten-eleven', minStandTotal: 13 }],
    ];
    let checked = 0;
    for (const [profile, overrides] of variants) for (let seed = 1; seed <= 150; seed++) checked += checkRound(profile, overrides, seed);
    assert.ok(checked > 10_000, `only ${checked} checks`);
  });
});
