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

const handpayOf = (l: Ledger, requestId: string): { amount: number } | undefined =>
  (JSON.parse(l.byTxId(validationTxId(requestId, 'handpay'))?.body ?? 'null') as { payload: { amount: number } } | null)?.payload;

describe('the restart rule (endOpenValidations)', () => {
  it('a wait with no end is ended `restart` and paid by handpay in the same transaction, for the amount it held; one with a number and no issue is paid too', () => {
    const l = fresh();
    l.append(request('req-00000010'));
    l.append(request('req-00000011', 2));
    l.append(end('req-00000011', 'number', NUMBER, 2));
    // A note that came in while station 1 waited: the wait held 10,000, not it.
    l.append(billCredit(1, 5_000, 'bill-3'));
    const head = l.headOf().seq;
    assert.deepEqual(
      endOpenValidations(l).sort((a, b) => a.station - b.station),
      [
        { station: 1, requestId: 'req-00000010', amount: 10_000 },
        { station: 2, requestId: 'req-00000011', amount: 10_000 },
      ],
    );
    const ended = l.byTxId(validationTxId('req-00000010', 'end'));
    assert.match(ended?.body ?? '', /"outcome":"restart"/);
    assert.equal(l.byTxId(validationTxId('req-00000010', 'handpay'))?.seq, (ended?.seq ?? 0) + 1, 'the end and its handpay, one after the other');
    assert.equal(l.headOf().seq, head + 3, 'one end and two handpays, nothing else');
    assert.equal(handpayOf(l, 'req-00000010')?.amount, 10_000);
    assert.equal(l.credit(1), 5_000, 'the note that came in meanwhile stays on the meter');
    assert.equal(handpayOf(l, 'req-00000011')?.amount, 10_000);
    assert.equal(l.credit(2), 0);
    // A second start: nothing more, even with credit on the meters again.
    l.append(billCredit(2, 20_000, 'bill-4'));
    assert.deepEqual(endOpenValidations(l), []);
    assert.equal(l.headOf().seq, head + 4);
  });

  it('a wait ended by a denial, or whose number was issued, or that its handpay followed, is not a handpay again', () => {
    const l = fresh();
    l.append(request('req-00000020'));
    l.append(end('req-00000020', 'number', NUMBER));
    l.append(issue('req-00000020', NUMBER));
    l.append(request('req-00000021', 2));
    l.append(end('req-00000021', 'denied', undefined, 2));
    l.append({
      type: 'credit.cancel',
      payload: { station: 2, amount: 10_000, reason: 'cash-out by handpay' },
      txId: validationTxId('req-00000021', 'handpay'),
    });
    assert.deepEqual(endOpenValidations(l), []);
  });

  it('a denial, a timeout or a number the kill left without its handpay: the handpay, once (never asked again)', () => {
    const l = fresh();
    l.append(request('req-00000040'));
    l.append(end('req-00000040', 'timeout'));
    l.append(request('req-00000041', 2));
    l.append(end('req-00000041', 'number', NUMBER, 2));
    assert.deepEqual(
      endOpenValidations(l)
        .map((p) => [p.station, p.amount])
        .sort(),
      [
        [1, 10_000],
        [2, 10_000],
      ],
    );
    assert.deepEqual(endOpenValidations(l), []);
  });

  it('a journal from before the handpay had its id: any handpay of the station after the end counts', () => {
    const l = fresh();
    l.append(request('req-00000050'));
    l.append(end('req-00000050', 'denied'));
    l.append({ type: 'credit.cancel', payload: { station: 1, amount: 10_000, reason: 'cash-out by handpay' }, txId: 'cashout-1' });
    l.append(billCredit(1, 10_000, 'bill-5'));
    assert.deepEqual(endOpenValidations(l), []);
    assert.equal(l.credit(1), 10_000);
  });

  it('no credit left to pay (never when the hold held): the end alone, and nothing later', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(request('req-00000060'));
    assert.deepEqual(endOpenValidations(l), [{ station: 1, requestId: 'req-00000060', amount: 0 }]);
    assert.equal(l.byTxId(validationTxId('req-00000060', 'handpay')), undefined);
    assert.match(l.byTxId(validationTxId('req-00000060', 'end'))?.body ?? '', /"outcome":"restart"/);
    l.append(billCredit(1, 10_000, 'bill-7'));
    assert.deepEqual(endOpenValidations(l), [], 'a later start pays nothing nobody asked for');
  });

  it("only a station's last wait counts: an earlier one, ended, does not hide a later one left open", () => {
    const l = fresh();
    l.append(request('req-00000030'));
    l.append(end('req-00000030', 'denied'));
    l.append({
      type: 'credit.cancel',
      payload: { station: 1, amount: 10_000, reason: 'cash-out by handpay' },
      txId: validationTxId('req-00000030', 'handpay'),
    });
    l.append(billCredit(1, 10_000, 'bill-6'));
    l.append(request('req-00000031'));
    assert.deepEqual(endOpenValidations(l), [{ station: 1, requestId: 'req-00000031', amount: 10_000 }]);
    assert.match(l.byTxId(validationTxId('req-00000031', 'end'))?.body ?? '', /"outcome":"restart"/);
  });

  // The handpay named no currency: after a change of the table's, the event log said it in the new one.
  it("the restart rule's handpay names the table's currency", () => {
    const l = fresh();
    l.append(request('req-00000020'));
    endOpenValidations(l, 'HKD');
    const p = JSON.parse(l.byTxId(validationTxId('req-00000020', 'handpay'))?.body ?? 'null') as { payload: { currency?: string } } | null;
    assert.equal(p?.payload.currency, 'HKD');
  });
});
