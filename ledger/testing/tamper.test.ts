import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../fixtures.js';
import { Ledger } from '../ledger.js';
import { verifyLedger } from '../verify.js';
import { tamperBalance, tamperJournalBody } from './tamper.js';

const fresh = () => Ledger.open({ file: ':memory:', terminalId: 'T-1' });

describe('tampering (test-only)', () => {
  it('rewrites a body past the append-only trigger, leaving its hashes: verification catches it', () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 50_000, 'n1'));
      l.append(billCredit(1, 50_000, 'n2'));
      assert.equal(tamperJournalBody(l, 2, '"denomination":90000', '"denomination":10000'), false, 'nothing to rewrite');
      assert.equal(verifyLedger(l).ok, true);
      assert.equal(tamperJournalBody(l, 2, '"denomination":50000', '"denomination":90000'), true);
      assert.match(l.entry(2)?.body ?? '', /"denomination":90000/);
      assert.match(verifyLedger(l).problems.join('\n'), /seq 2: content hash does not match the body/);
      l.append(billCredit(1, 50_000, 'n3'));
      assert.equal(l.headOf().seq, 3, 'the ledger still takes entries');
    } finally {
      l.close();
    }
  });

  it('moves a balance with no entry behind it: verification catches it; an account never posted to is refused', () => {
    const l = fresh();
    try {
      l.append(billCredit(1, 50_000, 'n1'));
      tamperBalance(l, 'station:1:credit', -100);
      assert.equal(l.credit(1), 50_100);
      assert.match(verifyLedger(l).problems.join('\n'), /balances: stored and recomputed differ/);
      assert.throws(() => tamperBalance(l, 'station:9:credit', 1), /no balance of station:9:credit/);
    } finally {
      l.close();
    }
  });
});
