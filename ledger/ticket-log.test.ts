import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewEntry } from './entries.js';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';
import { ticketLog } from './ticket-log.js';
import { ticketInTxId, ticketOutTxId, ticketStackedTxId } from './ticket-postings.js';
import { validationNumber, type ValidationNumber } from './validation-number.js';

const issue = (validation: ValidationNumber, sequence: number, amount: number, station = 1): NewEntry => ({
  type: 'ticket.issue',
  payload: {
    validation,
    machineId: 7,
    sequence,
    station,
    amount,
    currency: 'MOP',
    issuedAt: '2026-11-26T10:00:00.000Z',
    expiresAt: '2027-02-24T10:00:00.000Z',
  },
  txId: ticketOutTxId(validation, 'issue'),
});
const end = (validation: ValidationNumber, printed: boolean, station = 1): NewEntry =>
  printed
    ? { type: 'ticket.printed', payload: { validation, station }, txId: ticketOutTxId(validation, 'end') }
    : { type: 'ticket.void', payload: { validation, station, reason: 'not printed: paper-jam' }, txId: ticketOutTxId(validation, 'end') };
const ask = (requestId: string, validation: ValidationNumber, station: number): NewEntry => ({
  type: 'ticket.redeem.request',
  payload: { requestId, validation, station },
  txId: ticketInTxId(requestId, 'request'),
});
const approve = (requestId: string, validation: ValidationNumber, station: number, amount: number): NewEntry => ({
  type: 'ticket.redeem.approved',
  payload: { requestId, validation, station, amount, currency: 'MOP' },
  txId: ticketInTxId(requestId, 'approved'),
});
const stack = (requestId: string, validation: ValidationNumber, station: number, amount: number): NewEntry => ({
  type: 'ticket.redeem.stacked',
  payload: { requestId, validation, station, amount, currency: 'MOP' },
  txId: ticketStackedTxId(validation),
});
const giveBack = (requestId: string, validation: ValidationNumber, station: number): NewEntry => ({
  type: 'ticket.redeem.returned',
  payload: { requestId, validation, station, reason: 'already-paid' },
  txId: ticketInTxId(requestId, 'end'),
});
const rid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the ticket log (service mode, GLI-11 voucher recall)', () => {
  it('says where each ticket out and each attempt in stands, newest first, with its amount and why it ended', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    l.append(billCredit(1, 100_000, 'b1'));
    const [a, b, c, theirs] = [validationNumber(7, 1), validationNumber(7, 2), validationNumber(7, 3), validationNumber(9, 40)];
    l.append(issue(a, 1, 30_000));
    l.append(end(a, true));
    l.append(issue(b, 2, 20_000));
    l.append(end(b, false));
    l.append(issue(c, 3, 50_000));
    l.append(ask(rid(1), theirs, 2));
    l.append(approve(rid(1), theirs, 2, 12_500));
    l.append(stack(rid(1), theirs, 2, 12_500));
    l.append(ask(rid(2), theirs, 3));
    l.append(giveBack(rid(2), theirs, 3));
    l.append(ask(rid(3), a, 4));
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
    l.append(issue(first, 1, 1_000));
    for (let i = 0; i < 300; i++) {
      const v = validationNumber(9, i + 1);
      l.append(ask(rid(i + 1), v, 2));
      l.append(giveBack(rid(i + 1), v, 2));
    }
    l.append(end(first, true));
    for (let s = 2; s <= 41; s++) {
      const v = validationNumber(7, s);
      l.append(issue(v, s, 100 * s));
      l.append(end(v, true));
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
