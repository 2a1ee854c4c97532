// The ledger's rules for SAS system validation (terms/system-validation-terms.ts, docs/sas.md
// "System validation at a station"): a ticket the casino's system numbered is issued only under
// the number its request's end gave, for the amount that request held, at that station, once; a
// wait has one end. The restart rule that reads them: host/devices/sas-system-validation.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger, LedgerRefusal } from './ledger.js';
import { TICKET_ACCOUNTS } from './ticket-postings.js';
import { systemEnd, systemIssue, systemRequest, ticketPrinted } from './ticket-fixtures.js';
import { verifyLedger } from './verify.js';
import type { ValidationNumber } from '../terms/validation-number.js';

const NUMBER = '120000000000004801' as ValidationNumber;
const OTHER = '120000000000004802' as ValidationNumber;

function fresh(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
  l.append(billCredit(1, 10_000, 'bill-1'));
  l.append(billCredit(2, 10_000, 'bill-2'));
  return l;
}

const request = systemRequest;
const end = systemEnd;
const issue = (requestId: string, validation: ValidationNumber, amount = 10_000, station = 1, systemId = 12) =>
  systemIssue(requestId, validation, amount, station, systemId);

function refusal(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof LedgerRefusal && e.code === code, code);
}

describe('ledger: a ticket the casino system numbered (SAS system validation)', () => {
  it('request, end with the number, issue under it: the credit leaves once, printed as any ticket, verified', () => {
    const l = fresh();
    l.append(request('req-00000001'));
    assert.equal(l.credit(1), 10_000, 'the wait moves no money');
    l.append(end('req-00000001', 'number', NUMBER));
    l.append(issue('req-00000001', NUMBER));
    assert.equal(l.credit(1), 0);
    l.append(ticketPrinted(NUMBER));
    assert.equal(l.balance(TICKET_ACCOUNTS.out), -10_000);
    assert.equal(l.meters('station:1').ticketsOutAmount, 10_000);
    assert.ok(verifyLedger(l).ok);
    refusal(() => l.append(issue('req-00000001', NUMBER, 9_000)), 'tx-id-conflict');
  });

  it('refuses an issue with no request, no end, a denial, another number, another amount or station', () => {
    const l = fresh();
    refusal(() => l.append(issue('req-00000002', NUMBER)), 'ticket-mismatch');
    l.append(request('req-00000002'));
    refusal(() => l.append(issue('req-00000002', NUMBER)), 'ticket-mismatch');
    l.append(end('req-00000002', 'number', NUMBER));
    refusal(() => l.append(issue('req-00000002', OTHER)), 'ticket-mismatch');
    refusal(() => l.append(issue('req-00000002', NUMBER, 5_000)), 'ticket-mismatch');
    refusal(() => l.append(issue('req-00000002', NUMBER, 10_000, 2)), 'ticket-mismatch');
    refusal(() => l.append(issue('req-00000002', NUMBER, 10_000, 1, 13)), 'ticket-mismatch');
    l.append(request('req-00000003', 2));
    l.append(end('req-00000003', 'denied', undefined, 2));
    refusal(() => l.append(issue('req-00000003', OTHER, 10_000, 2)), 'ticket-mismatch');
    assert.equal(l.credit(1), 10_000);
    assert.equal(l.credit(2), 10_000);
  });

  it('one end per wait; an end needs its request at its station; a number only with `number`, never system id 00', () => {
    const l = fresh();
    refusal(() => l.append(end('req-00000004', 'denied')), 'ticket-mismatch');
    l.append(request('req-00000004'));
    refusal(() => l.append(end('req-00000004', 'denied', undefined, 2)), 'ticket-mismatch');
    refusal(() => l.append(end('req-00000004', 'number')), 'invalid-payload');
    refusal(() => l.append(end('req-00000004', 'denied', NUMBER)), 'invalid-payload');
    refusal(() => l.append(end('req-00000004', 'number', '000000000000004801' as ValidationNumber)), 'invalid-payload');
    l.append(end('req-00000004', 'number', NUMBER));
    refusal(() => l.append(end('req-00000004', 'number', OTHER)), 'tx-id-conflict');
    refusal(() => l.append(end('req-00000004', 'timeout')), 'tx-id-conflict');
    refusal(() => l.append({ ...request('req-00000005'), txId: 'ticket:sys:other' }), 'bad-tx-id');
  });
});
