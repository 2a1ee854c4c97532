// The ledger's check of a `jackpot.settle` (Portugal rules 40, 44, 50): a pool shared by several
// holders is paid in equal shares rounded up, the house adding the units that do not divide
// (`rounding`) before the award. The ledger takes that top-up as house money into the pool, counts
// it, and refuses one it cannot account for: as large as the hits, or one the level's sum does not add.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, type NewEntry } from './entries.js';
import { billCredit, settledRound } from './fixtures.js';
import { Ledger, LedgerRefusal } from './ledger.js';
import { verifyLedger } from './verify.js';

type Level = { before: number; funded: number; contribution: number; award: number; hits: number; rounding?: number; seed: number; after: number };

const settle = (roundId: string, l: Level, shares: readonly number[], txId = `${roundId}:jackpot`): NewEntry => ({
  type: 'jackpot.settle',
  txId,
  payload: {
    roundId,
    tableId: 'T1',
    reference: 'TEST',
    levels: [{ level: 'main', ...l }],
    hits: shares.map((amount, i) => ({ station: 1, seat: 1, hand: i, combination: 'four-aces-suited', level: 'main', amount })),
  },
});

/** A ledger with round r1 settled (a jackpot settles after its round) and its pool not yet funded. */
function withRound(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
  l.append(billCredit(1, 100_000, 'b1'));
  const r = settledRound('r1', [1], 100);
  l.appendMany([...r.bets, r.settle]);
  return l;
}

// 1,000,021 shared by two: 500,011 each; the house adds 1 unit before the award, 1,000,000 after it.
const SHARED: Level = { before: 1_000_021, funded: 1_000_021, contribution: 0, award: 1_000_022, hits: 2, rounding: 1, seed: 1_000_000, after: 1_000_000 };

describe('jackpot.settle: a shared award rounded up by the house (rule 50 b))', () => {
  it('posts the rounding as house money into the pool, counts it on its own meter, and the journal verifies', () => {
    const l = withRound();
    try {
      const house = l.balance(account.house);
      l.append(settle('r1', SHARED, [500_011, 500_011]));
      assert.equal(-l.balance(account.jackpotPool('main')), 1_000_000, 'the pool at its reset value');
      // funded + rounding + seed − award: all the house moved into the pool, net of the award it paid.
      assert.equal(l.balance(account.house) - house, 1_000_021 + 1 + 1_000_000 - 1_000_022);
      const m = l.meters('table');
      assert.equal(m['progressiveRounding.main'], 1);
      assert.equal(m['progressiveSeeds.main'], 1_000_021 + 1_000_000, 'the start value and the reset seed, not the rounding');
      assert.equal(m['progressiveWins.main'], 1_000_022);
      // A level's pool is seeds + rounding + contributions − wins.
      assert.equal(m['progressiveSeeds.main']! + m['progressiveRounding.main']! - m['progressiveWins.main']!, 1_000_000);
      // An older settlement, without the field, still journals and verifies beside it.
      const r2 = settledRound('r2', [1], 100, 7);
      l.appendMany([...r2.bets, r2.settle]);
      l.append(settle('r2', { before: 1_000_000, funded: 0, contribution: 20, award: 0, hits: 0, seed: 0, after: 1_000_020 }, []));
      assert.equal(l.meters('table')['progressiveRounding.main'], 1);
      const v = verifyLedger(l);
      assert.equal(v.ok, true, v.problems.join('; '));
    } finally {
      l.close();
    }
  });

  it('refuses a rounding as large as the hits (the house rounds less than a unit a sharer)', () => {
    const l = withRound();
    try {
      // Adds up (1,000,021 + 2 − 1,000,022 + 1,000,000 = 1,000,001), but 2 units for 2 hits is not a rounding.
      assert.throws(
        () => l.append(settle('r1', { ...SHARED, rounding: 2, after: 1_000_001 }, [500_011, 500_011])),
        (e: unknown) => e instanceof LedgerRefusal && e.code === 'jackpot-mismatch' && /rounding of 2 for 2 hits/.test(e.message),
      );
      assert.throws(
        () => l.append(settle('r1', { ...SHARED, award: 1_000_021, hits: 0, rounding: 1, after: 1_000_001 }, [])),
        (e: unknown) => e instanceof LedgerRefusal && /rounding of 1 for 0 hits/.test(e.message),
        'no hit, no rounding',
      );
      assert.equal(l.balance(account.jackpotPool('main')), 0, 'nothing posted');
    } finally {
      l.close();
    }
  });

  it("refuses a rounding the level's sum does not add up to, and one beyond what the awards need", () => {
    const l = withRound();
    try {
      // The shares rounded down with a rounding named: the pool would end a unit above the reset value.
      assert.throws(
        () => l.append(settle('r1', { ...SHARED, award: 1_000_020 }, [500_010, 500_010])),
        (e: unknown) => e instanceof LedgerRefusal && e.code === 'jackpot-mismatch' && /1000021 \+ 0 \+ 1 − 1000020 \+ 1000000 is not 1000000/.test(e.message),
      );
      // The rounding left out: the award exceeds what the pool holds.
      const { rounding: _, ...without } = SHARED;
      assert.throws(
        () => l.append(settle('r1', without, [500_011, 500_011])),
        (e: unknown) => e instanceof LedgerRefusal && /awards 1000022 exceed the pool/.test(e.message),
      );
      // A rounding of 0 is written by leaving the field out.
      assert.throws(() => l.append(settle('r1', { ...SHARED, rounding: 0, award: 1_000_021 }, [500_011, 500_010])));
      assert.equal(l.balance(account.jackpotPool('main')), 0, 'nothing posted');
    } finally {
      l.close();
    }
  });
});
