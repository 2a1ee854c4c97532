// The restart rule of SAS system validation (docs/sas.md, "System validation at a station"): a
// station's last wait for the casino system's number that a kill left open, or that ended with a
// number never issued and no handpay after it, becomes a handpay; nothing else does, and a second
// start finds nothing more.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { systemEnd as end, systemIssue as issue, systemRequest as request } from '../../ledger/ticket-fixtures.js';
import { validationTxId } from '../../terms/system-validation-terms.js';
import type { ValidationNumber } from '../../terms/validation-number.js';
import { endOpenValidations } from './sas-system-validation.js';

const NUMBER = '120000000000004801' as ValidationNumber;

function fresh(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
  l.append(billCredit(1, 10_000, 'bill-1'));
  l.append(billCredit(2, 10_000, 'bill-2'));
  return l;
}

describe('the restart rule (endOpenValidations)', () => {
  it('a wait with no end is ended `restart` and its station named; one with a number and no issue or handpay after it too', () => {
    const l = fresh();
    l.append(request('req-00000010'));
    l.append(request('req-00000011', 2));
    l.append(end('req-00000011', 'number', NUMBER, 2));
    assert.deepEqual(endOpenValidations(l).sort(), [1, 2]);
    assert.match(l.byTxId(validationTxId('req-00000010', 'end'))?.body ?? '', /"outcome":"restart"/);
    // Station 2's handpay, then the rule again (a second restart): nothing more.
    l.append({ type: 'credit.cancel', payload: { station: 2, amount: 10_000, reason: 'cash-out by handpay' }, txId: 'cashout-2' });
    l.append({ type: 'credit.cancel', payload: { station: 1, amount: 10_000, reason: 'cash-out by handpay' }, txId: 'cashout-1' });
    assert.deepEqual(endOpenValidations(l), []);
  });

  it('a wait ended by a denial, or whose number was issued, is not a handpay again', () => {
    const l = fresh();
    l.append(request('req-00000020'));
    l.append(end('req-00000020', 'number', NUMBER));
    l.append(issue('req-00000020', NUMBER));
    l.append(request('req-00000021', 2));
    l.append(end('req-00000021', 'denied', undefined, 2));
    assert.deepEqual(endOpenValidations(l), []);
  });

  it("only a station's last wait counts: an earlier one, ended, does not hide a later one left open", () => {
    const l = fresh();
    l.append(request('req-00000030'));
    l.append(end('req-00000030', 'denied'));
    l.append(request('req-00000031'));
    assert.deepEqual(endOpenValidations(l), [1]);
    assert.match(l.byTxId(validationTxId('req-00000031', 'end'))?.body ?? '', /"outcome":"restart"/);
  });
});
