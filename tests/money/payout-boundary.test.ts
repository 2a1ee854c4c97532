import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { runBaccaratScript } from '../../engine/baccarat/script.js';
import { resolveRules } from '../../engine/blackjack/rules.js';
import { runScript } from '../../engine/blackjack/script.js';
import { warProfile } from '../../engine/war/profiles.js';
import { runWarScript } from '../../engine/war/script.js';

// Issue 15, "Done when": every payout ratio of the three games at the money boundary, a 1001
// stake and a 1 unit stake, through each game's scripted round (the engine the table uses). A
// payout is never rounded against the player: the net is an integer, never below the exact
// ratio times the stake, and never more than half a unit above it.

interface Line {
  readonly bet: string;
  readonly net: number;
  readonly stake: number;
  readonly rule: string;
}
const lineOf = (lines: readonly Line[], bet: string): Line => {
  const l = lines.find((x) => x.bet === bet);
  assert.ok(l, `no ${bet} line in ${JSON.stringify(lines)}`);
  return l;
};

/** A payout: its name, the rule its line cites (the pay table of baccarat's other bets is in articles not on file: the regulation alone), its ratio to the amount it is paid on, and the settled line for a stake. */
type Case = readonly [name: string, rule: string, ratio: number, settle: (stake: number) => Line, paidOn?: (stake: number) => number];

const blackjack = (stake: number, cards: string, decisions: string[] = [], bets: Record<string, number> = { main: stake }) =>
  runScript(resolveRules('macau-2009'), {
    seats: [{ seat: 1, bets: { main: stake, ...bets } }],
    cards: cards.split(' '),
    decisions: decisions.map((action) => ({ seat: 1, hand: 0, action })),
  }).settlements;

const baccarat = (profile: 'macau-commission' | 'macau-no-commission', bets: Record<string, number>, cards: string) =>
  runBaccaratScript(baccaratProfile(profile), { seats: [{ seat: 1, bets }], cards: cards.split(' ') }).settlements;

const war = (bets: Record<string, number>, cards: string, decision?: 'war' | 'surrender') =>
  runWarScript(warProfile('macau'), {
    seats: [{ seat: 1, bets }],
    cards: cards.split(' '),
    ...(decision ? { decisions: [{ seat: 1, action: decision }] } : {}),
  }).settlements;

const CASES: readonly Case[] = [
  ['blackjack: Black Jack 3:2 (Art. 10 n.2)', 'macau-2009 art.10 n.2', 1.5, (s) => lineOf(blackjack(s, 'AS 9H KD'), 'main')],
  ['blackjack: surrender, half lost (Art. 18 n.1)', 'macau-2009 art.18 n.1', -0.5, (s) => lineOf(blackjack(s, 'TS 9H 6D', ['surrender']), 'main')],
  [
    'blackjack: five cards, half paid (Art. 19 n.1)',
    'macau-2009 art.19 n.1',
    0.5,
    (s) => lineOf(blackjack(s, '2S 9H 3D 2C 3C 4D', ['hit', 'hit', 'hit', 'take-five-card-half']), 'main'),
  ],
  // Insurance is at least half the bet (Art. 12 n.1): on an odd stake, half rounded up, paid 2:1.
  [
    'blackjack: insurance 2:1 (Art. 12 n.2)',
    'macau-2009 art.12 n.2',
    2,
    (s) => lineOf(blackjack(s, 'TS AH QD KC', [`insurance:${Math.ceil(s / 2)}`, 'stand']), 'insurance'),
    (s) => Math.ceil(s / 2),
  ],
  [
    'baccarat: banker 1:1 less 5% (Art. 18 n.1)',
    'macau-baccarat art.18 n.1',
    0.95,
    (s) => lineOf(baccarat('macau-commission', { banker: s }, '2S 3H 4D 4C'), 'banker'),
  ],
  [
    'baccarat: no commission, banker wins on 6 pays half (Art. 18 n.2)',
    'macau-baccarat art.18 n.2',
    0.5,
    (s) => lineOf(baccarat('macau-no-commission', { banker: s }, 'TS 2H 5D 4C TH'), 'banker'),
  ],
  ['baccarat: tie 8:1', 'macau-baccarat art.13 n.1 3), art.17', 8, (s) => lineOf(baccarat('macau-commission', { tie: s }, '8S 8H KD KC'), 'tie')],
  [
    'baccarat: player pair 11:1',
    'macau-baccarat art.13 n.1 4)(1), art.17',
    11,
    (s) => lineOf(baccarat('macau-commission', { playerPair: s }, '5S 5H 5D 5C 9S 9H'), 'playerPair'),
  ],
  [
    'baccarat: banker pair 11:1',
    'macau-baccarat art.13 n.1 4)(1), art.17',
    11,
    (s) => lineOf(baccarat('macau-commission', { bankerPair: s }, '5S 5H 5D 5C 9S 9H'), 'bankerPair'),
  ],
  ['war: tie bet 10:1 ([art.7] n.3, number reconstructed)', 'macau-war [art.7] n.3', 10, (s) => lineOf(war({ tie: s }, '8S 8H'), 'tie')],
  ['war: surrender at a tie, half lost ([art.7] n.4 al.1)', 'macau-war [art.7] n.4 al.1', -0.5, (s) => lineOf(war({ main: s }, '8S 8H', 'surrender'), 'main')],
  // The war's line carries the raise: its stake is 2B and the player wins B (al.1).
  [
    'war: war won ([art.7] n.5 al.1), on the initial bet',
    'macau-war [art.7] n.5 al.1',
    1,
    (s) => lineOf(war({ main: s }, 'QS QH 2C 2D 2H KS 3C 3D 3H 4S', 'war'), 'main'),
  ],
  [
    'war: tie again at war ([art.7] n.5 al.2), on the initial bet',
    'macau-war [art.7] n.5 al.2',
    2,
    (s) => lineOf(war({ main: s }, 'QS QH 2C 2D 2H KS 3C 3D 3H KD', 'war'), 'main'),
  ],
];

describe('every payout ratio at the money boundary (a 1001 stake, a 1 unit stake)', () => {
  for (const [name, rule, ratio, settle, paidOn = (s: number) => s] of CASES) {
    it(`${name}: exact, or a fraction of a unit to the player`, () => {
      for (const stake of [1001, 1]) {
        const l = settle(stake);
        assert.equal(l.rule, rule);
        const exact = ratio * paidOn(stake);
        assert.ok(Number.isInteger(l.net), `stake ${stake}: ${l.net} is not whole`);
        assert.ok(l.net >= exact && l.net - exact <= 0.5, `stake ${stake}: ${l.net} against exactly ${exact} (${l.rule})`);
      }
    });
  }

  it('the pinned figures: 1001 → 3:2 +1502, surrender −500, 5% commission +951, half on 6 +501, war surrender −500; 1 → +2, 0, +1, +1, 0', () => {
    const at = (stake: number) => CASES.filter(([n]) => /3:2|surrender|5%|on 6/.test(n)).map(([, , , settle]) => settle(stake).net);
    assert.deepEqual(at(1001), [1502, -500, 951, 501, -500]);
    assert.deepEqual(at(1), [2, 0, 1, 1, 0]);
  });
});
