import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewEntry } from './entries.js';
import { billCredit } from './fixtures.js';
import { Ledger, LedgerRefusal } from './ledger.js';
import { TICKET_ACCOUNTS, ticketInTxId, ticketOutTxId, ticketStackedTxId } from './ticket-postings.js';
import { validationNumber, type ValidationNumber } from './validation-number.js';
import { verifyLedger } from './verify.js';

const N1 = validationNumber(7, 1);
const N2 = validationNumber(7, 2);
const FOREIGN = validationNumber(9, 40);

function fresh(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
  l.append(billCredit(1, 100_000, 'bill-1'));
  l.append(billCredit(2, 50_000, 'bill-2'));
  return l;
}

function issue(validation: ValidationNumber, sequence: number, amount: number, station = 1): NewEntry {
  return {
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
  };
}
const printed = (validation: ValidationNumber, station = 1): NewEntry => ({
  type: 'ticket.printed',
  payload: { validation, station },
  txId: ticketOutTxId(validation, 'end'),
});
const voided = (validation: ValidationNumber, station = 1): NewEntry => ({
  type: 'ticket.void',
  payload: { validation, station, reason: 'paper jam' },
  txId: ticketOutTxId(validation, 'end'),
});
const request = (requestId: string, validation: ValidationNumber, station = 2): NewEntry => ({
  type: 'ticket.redeem.request',
  payload: { requestId, validation, station },
  txId: ticketInTxId(requestId, 'request'),
});
const approved = (requestId: string, validation: ValidationNumber, amount: number, station = 2): NewEntry => ({
  type: 'ticket.redeem.approved',
  payload: { requestId, validation, station, amount, currency: 'MOP' },
  txId: ticketInTxId(requestId, 'approved'),
});
const stacked = (requestId: string, validation: ValidationNumber, amount: number, station = 2): NewEntry => ({
  type: 'ticket.redeem.stacked',
  payload: { requestId, validation, station, amount, currency: 'MOP' },
  txId: ticketStackedTxId(validation),
});
const returned = (requestId: string, validation: ValidationNumber, station = 2): NewEntry => ({
  type: 'ticket.redeem.returned',
  payload: { requestId, validation, station, reason: 'acceptor-returned' },
  txId: ticketInTxId(requestId, 'end'),
});

function refusal(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof LedgerRefusal && e.code === code);
}

describe('ledger: a ticket out', () => {
  it('takes the credit off the meter at issue and counts the ticket out once printed (GLI-11 ticket meters)', () => {
    const l = fresh();
    l.append(issue(N1, 1, 30_000));
    assert.equal(l.credit(1), 70_000);
    assert.equal(l.balance(TICKET_ACCOUNTS.printing), -30_000);
    assert.equal(l.meters('station:1').ticketsOut, undefined, 'not on paper yet: not a ticket out');
    l.append(printed(N1));
    assert.equal(l.balance(TICKET_ACCOUNTS.printing), 0);
    assert.equal(l.balance(TICKET_ACCOUNTS.out), -30_000, 'the floor owes the ticket holder');
    const m = l.meters('station:1');
    assert.equal(m.ticketsOut, 1);
    assert.equal(m.ticketsOutAmount, 30_000);
    assert.equal(m.totalOut, 30_000);
    assert.equal(l.meters('table').ticketsOutAmount, 30_000);
    assert.ok(verifyLedger(l).ok);
  });

  it('gives the credit back for a ticket voided, and never has one printed and voided (one end per ticket)', () => {
    const l = fresh();
    l.append(issue(N1, 1, 30_000));
    l.append(voided(N1));
    assert.equal(l.credit(1), 100_000);
    assert.equal(l.balance(TICKET_ACCOUNTS.printing), 0);
    assert.equal(l.meters('station:1').ticketsVoided, 1);
    refusal(() => l.append(printed(N1)), 'tx-id-conflict');
    l.append(issue(N2, 2, 10_000));
    l.append(printed(N2));
    refusal(() => l.append(voided(N2)), 'tx-id-conflict');
    assert.equal(l.credit(1), 90_000);
    assert.ok(verifyLedger(l).ok);
  });

  it('refuses a ticket above the credit, an end of a ticket never issued here, and an end at another station', () => {
    const l = fresh();
    refusal(() => l.append(issue(N1, 1, 100_001)), 'insufficient-credit');
    refusal(() => l.append(printed(FOREIGN)), 'ticket-mismatch');
    l.append(issue(N1, 1, 1_000));
    refusal(() => l.append(voided(N1, 2)), 'ticket-mismatch');
  });

  it('refuses a ticket entry under any other transaction id than its step’s', () => {
    const l = fresh();
    refusal(() => l.append({ ...issue(N1, 1, 1_000), txId: 'cashout-1' }), 'bad-tx-id');
    l.append(issue(N1, 1, 1_000));
    refusal(() => l.append({ ...printed(N1), txId: 'printed-1' }), 'bad-tx-id');
  });
});

describe('ledger: a ticket in', () => {
  it('credits the station only when stacked after an approval of the same terms', () => {
    const l = fresh();
    l.append(request('req-00001', FOREIGN));
    refusal(() => l.append(stacked('req-00001', FOREIGN, 20_000)), 'ticket-mismatch');
    l.append(approved('req-00001', FOREIGN, 20_000));
    refusal(() => l.append({ ...stacked('req-00001', FOREIGN, 20_001) }), 'ticket-mismatch');
    l.append(stacked('req-00001', FOREIGN, 20_000));
    assert.equal(l.credit(2), 70_000);
    assert.equal(l.balance(TICKET_ACCOUNTS.in), 20_000);
    const m = l.meters('station:2');
    assert.equal(m.ticketsIn, 1);
    assert.equal(m.ticketsInAmount, 20_000);
    assert.equal(m.totalIn, 70_000, 'the note and the ticket');
    assert.ok(verifyLedger(l).ok);
  });

  it('credits one ticket once at this table, whatever a second approval says', () => {
    const l = fresh();
    l.appendMany([request('req-00001', FOREIGN), approved('req-00001', FOREIGN, 20_000), stacked('req-00001', FOREIGN, 20_000)]);
    l.appendMany([request('req-00002', FOREIGN), approved('req-00002', FOREIGN, 20_000)]);
    refusal(() => l.append(stacked('req-00002', FOREIGN, 20_000)), 'tx-id-conflict');
    assert.equal(l.credit(2), 70_000);
  });

  it('never has an attempt both stacked and returned', () => {
    const l = fresh();
    l.appendMany([request('req-00001', FOREIGN), approved('req-00001', FOREIGN, 20_000), returned('req-00001', FOREIGN)]);
    refusal(() => l.append(stacked('req-00001', FOREIGN, 20_000)), 'ticket-mismatch');
    // Inserted again: a new attempt may be approved and stacked.
    l.appendMany([request('req-00002', FOREIGN), approved('req-00002', FOREIGN, 20_000), stacked('req-00002', FOREIGN, 20_000)]);
    refusal(() => l.append(returned('req-00002', FOREIGN)), 'ticket-mismatch');
    assert.equal(l.credit(2), 70_000);
  });

  it('refuses an approval or a return of an attempt never asked, or asked for another ticket or station', () => {
    const l = fresh();
    refusal(() => l.append(approved('req-00009', FOREIGN, 1_000)), 'ticket-mismatch');
    l.append(request('req-00009', FOREIGN));
    refusal(() => l.append(approved('req-00009', N1, 1_000)), 'ticket-mismatch');
    refusal(() => l.append(returned('req-00009', FOREIGN, 1)), 'ticket-mismatch');
  });
});
