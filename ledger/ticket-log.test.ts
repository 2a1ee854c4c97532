import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';
import { ticketLog } from './ticket-log.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted, ticketVoided } from './ticket-fixtures.js';
import { validationNumber } from '../terms/validation-number.js';

const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the ticket log (service mode, GLI-11 voucher recall)', () => {
  it('says where each ticket out and each attempt in stands, newest first, with its amount and why it ended', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(billCredit(1, 100_000, 'b1'));
    const [a, b, c, theirs] = [validationNumber(7, 1), validationNumber(7, 2), validationNumber(7, 3), validationNumber(9, 40)];
    l.append(ticketIssue(a, 1, 30_000));
    l.append(ticketPrinted(a));
    l.append(ticketIssue(b, 2, 20_000));
    l.append(ticketVoided(b));
    l.append(ticketIssue(c, 3, 50_000));
    l.append(redeemRequest(rid(1), theirs, 2));
    l.append(redeemApproved(rid(1), theirs, 2, 12_500));
    l.append(redeemStacked(rid(1), theirs, 2, 12_500));
    l.append(redeemRequest(rid(2), theirs, 3));
    l.append(redeemReturned(rid(2), theirs, 3));
    l.append(redeemRequest(rid(3), a, 4));
    const log = ticketLog(l);
    assert.deepEqual(
      log.out.map((r) => [r.validation, r.station, r.amount, r.state, r.reason]),
      [
        [c, 1, 50_000, 'printing', undefined],
        [b, 1, 20_000, 'voided', 'not printed: paper-jam'],
        [a, 1, 30_000, 'printed', undefined],
      ],
    );
    assert.deepEqual(
      log.in.map((r) => [r.validation, r.station, r.amount, r.state, r.reason]),
      [
        [a, 4, null, 'checking', undefined],
        [theirs, 3, null, 'returned', 'already-paid'],
        [theirs, 2, 12_500, 'redeemed', undefined],
      ],
    );
    l.close();
  });

  it('keeps the last 35 each way (GLI-11), and an old issue’s amount when only its end is among the newest entries', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(billCredit(1, 10_000_000, 'b1'));
    const first = validationNumber(7, 1);
    l.append(ticketIssue(first, 1, 1_000));
    for (let i = 0; i < 300; i++) {
      const v = validationNumber(9, i + 1);
      l.append(redeemRequest(rid(i + 1), v, 2));
      l.append(redeemReturned(rid(i + 1), v, 2));
    }
    l.append(ticketPrinted(first));
    for (let s = 2; s <= 41; s++) {
      const v = validationNumber(7, s);
      l.append(ticketIssue(v, s, 100 * s));
      l.append(ticketPrinted(v));
    }
    const log = ticketLog(l);
    assert.equal(log.out.length, 35);
    assert.equal(log.in.length, 35);
    assert.equal(log.out[0]?.validation, validationNumber(7, 41));
    assert.equal(log.in[0]?.validation, validationNumber(9, 300));
    // With a limit that reaches it, the ticket whose issue is far older still has its amount.
    const deep = ticketLog(l, 41).out.at(-1);
    assert.deepEqual([deep?.validation, deep?.amount, deep?.state], [first, 1_000, 'printed']);
    l.close();
  });
});
