import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewEntry } from './entries.js';
import { bet, billCredit, settledRound } from './fixtures.js';
import {
  closedRoundCount,
  entriesOfTypes,
  entryCount,
  journalBodyBytes,
  newestEntriesOfType,
  roundEntriesOfTypes,
  roundEntriesSql,
} from './journal-queries.js';
import { connectionOf, Ledger } from './ledger.js';
import { postingsAfter } from './postings-queries.js';

const fresh = () => Ledger.open({ file: ':memory:', terminalId: 'T-1' });
const voidOf = (roundId: string): NewEntry => ({
  type: 'round.void',
  txId: `${roundId}:void`,
  payload: { roundId, tableId: 'T1', game: 'blackjack', profile: 'macau-2009', cards: [], decisions: [], reason: 'test', authorisedBy: ['a', 'b'] },
});

describe('journal queries', () => {
  it('reads a round’s entries through the round index, not every entry of their type (a review: each bet a walk of every bet journalled)', () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 1_000_000, 'n1'));
      for (let r = 0; r < 50; r++) {
        const { bets, settle } = settledRound(`r${r}`, [1], 1_000);
        bets.forEach((b) => l.append(b));
        l.append(settle);
      }
      const plan = (
        connectionOf(l)
          .prepare(`EXPLAIN QUERY PLAN ${roundEntriesSql(1)}`)
          .all('r7', 'bet.place') as { detail: string }[]
      )
        .map((p) => p.detail)
        .join('; ');
      assert.match(plan, /USING INDEX journal_round/, plan);
      const got = roundEntriesOfTypes(l, 'r7', ['bet.place', 'round.settle']);
      assert.deepEqual(
        got.map((e) => e.type),
        ['bet.place', 'round.settle'],
      );
      assert.deepEqual(roundEntriesOfTypes(l, 'r7', ['round.void']), []);
    } finally {
      l.close();
    }
  });

  it('reads entries of some types in order, past a page, from a seq on', () => {
    const l = fresh();
    try {
      for (let i = 0; i < 1100; i++) {
        l.append(billCredit(1 + (i % 3), 1000, `n${i}`));
        if (i % 100 === 0) l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 't' } });
      }
      const credits = [...entriesOfTypes(l, ['bill.credit'])];
      assert.equal(credits.length, 1100);
      assert.ok(credits.every((e, i) => e.type === 'bill.credit' && (i === 0 || e.seq > (credits[i - 1]?.seq ?? 0))));
      const both = [...entriesOfTypes(l, ['bill.credit', 'power.reset'])];
      assert.deepEqual(
        both.map((e) => e.seq),
        [...l.entries()].map((e) => e.seq),
      );
      assert.deepEqual(
        [...entriesOfTypes(l, ['power.reset'], 500)].map((e) => e.seq),
        [...l.entries(500)].filter((e) => e.type === 'power.reset').map((e) => e.seq),
      );
      assert.deepEqual([...entriesOfTypes(l, [])], []);
    } finally {
      l.close();
    }
  });

  it('the newest entries of a type, newest first; counts of types and of closed rounds', () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 100_000, 'n1'));
      const r1 = settledRound('R-1', [1], 1000);
      l.appendMany([...r1.bets, r1.settle]);
      l.append(bet(1, 'R-2', 1000, 'R-2:bet:1'));
      l.append(voidOf('R-2'));
      l.append(bet(1, 'R-3', 1000, 'R-3:bet:1'));
      assert.deepEqual(
        newestEntriesOfType(l, 'bet.place', 2).map((e) => e.roundId),
        ['R-3', 'R-2'],
      );
      assert.deepEqual(newestEntriesOfType(l, 'credit.cancel', 5), []);
      assert.equal(entryCount(l, ['bet.place']), 3);
      assert.equal(entryCount(l, ['bill.credit', 'round.void']), 2);
      assert.equal(entryCount(l, []), 0);
      assert.equal(closedRoundCount(l), 2, 'R-1 settled, R-2 voided, R-3 open');
    } finally {
      l.close();
    }
  });

  it("the bodies' size in UTF-8 bytes", () => {
    const l = fresh();
    try {
      assert.equal(journalBodyBytes(l), 0);
      l.append(billCredit(1, 1000, 'n1'));
      l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '版本 1' } });
      assert.equal(
        journalBodyBytes(l),
        [...l.entries()].reduce((a, e) => a + Buffer.byteLength(e.body), 0),
      );
    } finally {
      l.close();
    }
  });

  it('what the postings table moved after a seq, per entry', () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 100_000, 'n1'));
      const head = l.headOf().seq;
      l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: 't' } });
      const r = settledRound('R-1', [1, 2], 1000);
      l.append(billCredit(2, 100_000, 'n2'));
      l.appendMany([...r.bets, r.settle]);
      const moved = postingsAfter(l, head);
      assert.deepEqual(
        moved.map((m) => [m.type, m.roundId, m.total]),
        [
          ['bill.credit', null, 0],
          ['bet.place', 'R-1', 0],
          ['bet.place', 'R-1', 0],
          ['round.settle', 'R-1', 0],
        ],
      );
      const bodies = [...l.entries(head + 1)].map((e) => (JSON.parse(e.body) as { postings: unknown[] }).postings.length).reduce((a, n) => a + n, 0);
      assert.equal(
        moved.reduce((a, m) => a + m.lines, 0),
        bodies,
        'every posting row counted once',
      );
      assert.deepEqual(postingsAfter(l, l.headOf().seq), []);
    } finally {
      l.close();
    }
  });

  it("every account's balance, summing to zero", () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 100_000, 'n1'));
      const r = settledRound('R-1', [1], 1000);
      l.appendMany([...r.bets, r.settle]);
      const b = l.balances();
      assert.equal(b['station:1:credit'], -l.credit(1));
      assert.equal(
        Object.values(b).reduce((a, x) => a + x, 0),
        0,
      );
      assert.deepEqual(Object.keys(b), Object.keys(b).sort());
    } finally {
      l.close();
    }
  });
});
