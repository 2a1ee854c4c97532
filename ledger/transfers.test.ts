import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';
import { TableId, transferTxId, type Transfer } from '../terms/transfer-terms.js';
import { verifyLedger } from './verify.js';

// The ledger's own line behind the transfer protocol (docs/transfers.md): whatever the code above
// it asks, an id is decided once at the receiver and closed once at the sender, on the terms debited.

const HOME = TableId.parse('home');
const WAR = TableId.parse('war');
const t: Transfer = { id: { origin: HOME, serial: 1 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 4_000 };
const fromWar: Transfer = { id: { origin: WAR, serial: 1 }, currency: 'MOP', station: 3, from: WAR, to: HOME, amount: 2_500 };

function ledger(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-transfers' });
  l.append(billCredit(3, 10_000, 'b1'));
  return l;
}

const out = (x = t) => ({ type: 'transfer.out' as const, txId: transferTxId('out', x.id), payload: { transfer: x } });
const complete = (x = t) => ({ type: 'transfer.complete' as const, txId: transferTxId('close', x.id), payload: { transfer: x } });
const reverse = (x = t) => ({ type: 'transfer.reverse' as const, txId: transferTxId('close', x.id), payload: { transfer: x, reason: 'recalled' as const } });
const taken = (x = fromWar) => ({ type: 'transfer.in' as const, txId: transferTxId('decide', x.id), payload: { transfer: x } });
const refuse = (x = fromWar) => ({ type: 'transfer.refuse' as const, txId: transferTxId('decide', x.id), payload: { id: x.id, reason: 'recalled' as const } });

describe('ledger: transfers between table hosts', () => {
  it('the debit takes the credit into flight; completion owes it to the other table; a reversal gives it back', () => {
    const l = ledger();
    l.append(out());
    assert.equal(l.credit(3), 6_000);
    assert.equal(l.balance('transfer:war:in-flight'), -4_000);
    l.append(complete());
    assert.deepEqual([l.balance('transfer:war:in-flight'), l.balance('table:war:settlement')], [0, -4_000]);
    const u = { ...t, id: { origin: HOME, serial: 2 }, amount: 1_000 };
    l.append(out(u));
    l.append(reverse(u));
    assert.equal(l.credit(3), 6_000);
    assert.deepEqual(verifyLedger(l).problems, []);
  });

  it('a credit from another table is owed by it', () => {
    const l = ledger();
    l.append(taken());
    assert.equal(l.credit(3), 12_500);
    assert.equal(l.balance('table:war:settlement'), 2_500);
  });

  it('refuses a debit above the credit', () => {
    const l = ledger();
    assert.throws(() => l.append(out({ ...t, amount: 10_001 })), /insufficient-credit|has 10000/);
  });

  it('an id is decided once: a second credit, a refusal after a credit, a credit after a refusal are refused', () => {
    const l = ledger();
    l.append(taken());
    // The very same entry again is a duplicate: nothing written, nothing credited twice.
    assert.equal(l.append(taken()).status, 'duplicate');
    assert.equal(l.credit(3), 12_500);
    assert.throws(() => l.append(taken({ ...fromWar, amount: 9_999 })), /tx-id-conflict|other content/);
    assert.throws(() => l.append(refuse()), /already decided|other content/);
    const other = { ...fromWar, id: { origin: WAR, serial: 2 } };
    l.append(refuse(other));
    assert.throws(() => l.append(taken(other)), /already decided|other content/);
    assert.equal(l.credit(3), 12_500);
  });

  it('a transfer is closed once, on the terms debited, and only one that was debited', () => {
    const l = ledger();
    assert.throws(() => l.append(complete()), /no transfer.out/);
    l.append(out());
    assert.throws(() => l.append(complete({ ...t, amount: 3_999 })), /other terms/);
    l.append(complete());
    assert.throws(() => l.append(reverse()), /already journalled|other content/);
    assert.throws(() => l.append({ type: 'transfer.recall', txId: transferTxId('recall', t.id), payload: { id: t.id } }), /already journalled/);
    assert.equal(l.credit(3), 6_000);
  });

  it('refuses a transfer entry under any other transaction id', () => {
    const l = ledger();
    assert.throws(() => l.append({ ...out(), txId: 'my-own-id' }), /goes under transaction id transfer:out:home:1/);
    assert.throws(() => l.append({ ...taken(), txId: transferTxId('out', fromWar.id) }), /goes under/);
  });
});
