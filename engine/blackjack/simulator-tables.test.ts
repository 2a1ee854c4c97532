// The simulator's tables are filled before play over ranges of hard sums; an entry the fill
// missed would read 0 and the hand would silently draw. Here the states are reached by dealing
// cards instead, and every one the simulator can read must have been filled.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RANKS, SUITS, type Card } from '../cards/card.js';
import { isSpecial678 } from './hand.js';
import { resolveRules, type ProfileId } from './rules.js';
import { isSpecial678Ids } from './simulator-cards.js';
import { HIT, STAND, SimTables, firstKey, fiveKey, laterKey } from './simulator-tables.js';

const CASES: [ProfileId, Record<string, unknown>][] = [
  ['macau-2009', {}],
  ['generic', { doubleOn: 'eleven', surrender: 'late', dealerSoft17: 'hit' }],
  ['macau-2004', {}],
  ['portugal-2001', {}],
  ['generic', { dealProcedure: 'portugal-17', holeCard: 'no-peek', doubleOn: 'nine-to-eleven', softDoubleAceLocked: true, doubleAfterSplit: false }],
];

describe('simulator tables', () => {
  for (const [profile, overrides] of CASES) {
    it(`have an entry for every state a hand can reach: ${profile} ${JSON.stringify(overrides)}`, () => {
      const rules = resolveRules(profile, overrides);
      const t = new SimTables(rules);
      const seen = new Set<number>();
      // Hits from (hard, ace, n) while the hand is under 21; n beyond 8 reads the same entries.
      const hitFrom = (u: number, hard: number, ace: number, n: number): void => {
        const key = (hard * 2 + ace) * 16 + Math.min(n, 8);
        if (seen.has(key)) return;
        seen.add(key);
        for (let v = 1; v <= 10; v++) {
          const h = hard + v;
          const a = v === 1 ? 1 : ace;
          const m = n + 1;
          if (h > 21 || (a === 1 && h + 10 === 21) || h === 21) continue;
          const act = t.later[laterKey(u, h, a, m)];
          assert.ok(act === HIT || act === STAND, `later ${u} hard ${h} ace ${a} cards ${m}: ${act}`);
          if (m === 5 && rules.fiveCardHalfPay) assert.equal(t.takeFive[fiveKey(u, h, a)] === 1, t.strategy.takeFiveCardHalf(u, h, a === 1));
          hitFrom(u, h, a, m);
        }
      };
      for (let u = 1; u <= 10; u++) {
        seen.clear();
        for (let v1 = 1; v1 <= 10; v1++) {
          for (let v2 = 1; v2 <= 10; v2++) {
            const ace = v1 === 1 || v2 === 1 ? 1 : 0;
            if (ace === 1 && v1 + v2 === 11) continue;
            for (let fromSplit = 0; fromSplit < 2; fromSplit++) {
              for (const pair of v1 === v2 ? [0, v1] : [0])
                assert.ok((t.first[firstKey(u, v1 + v2, ace, pair, fromSplit)] as number) > 0, `first ${u} ${v1},${v2} pair ${pair} split ${fromSplit}`);
            }
            hitFrom(u, v1 + v2, ace, 2);
          }
        }
      }
    });
  }

  it('later decisions do not depend on whether the hand came from a split (so their key leaves it out)', () => {
    for (const profile of ['macau-2009', 'macau-2004', 'portugal-2001'] as const) {
      const s = new SimTables(resolveRules(profile)).strategy;
      for (let u = 1; u <= 10; u++) {
        for (let hard = 4; hard <= 20; hard++) {
          for (const ace of [false, true]) {
            for (let n = 3; n <= 7; n++) assert.deepEqual(s.ranked(u, hard, ace, n, 0, false, true), s.ranked(u, hard, ace, n, 0, false, false));
          }
        }
      }
    }
  });

  it('reads the 6-7-8 bonus from card ids as the round does from cards, for every three cards', () => {
    const card = (id: number): Card => ({ rank: RANKS[id >> 2] as Card['rank'], suit: SUITS[id & 3] as Card['suit'] });
    for (let a = 0; a < 52; a++) {
      for (let b = 0; b < 52; b++) {
        for (let c = 0; c < 52; c++) assert.equal(isSpecial678Ids(a, b, c), isSpecial678([card(a), card(b), card(c)]), `${a} ${b} ${c}`);
      }
    }
  });
});
