import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { Ledger, LedgerRefusal } from './ledger.js';
import { redeemApproved, redeemRequest, redeemReturned, redeemStacked, ticketIssue, ticketPrinted, ticketVoided } from './ticket-fixtures.js';
import type { NewEntry } from './entries.js';
import { TICKET_ACCOUNTS, ticketInTxId, ticketStackedTxId } from './ticket-postings.js';
import { validationNumber, type ValidationNumber } from '../terms/validation-number.js';
import { verifyLedger } from './verify.js';
import { lastMachineTicket, lastTicketIssued, ticketMachineIds } from './ticket-queries.js';

const N1 = validationNumber(7, 1);
const N2 = validationNumber(7, 2);
const FOREIGN = validationNumber(9, 40);

function fresh(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
  l.append(billCredit(1, 100_000, 'bill-1'));
  l.append(billCredit(2, 50_000, 'bill-2'));
  return l;
}

function refusal(fn: () => unknown, code: string): void {
  assert.throws(fn, (e: unknown) => e instanceof LedgerRefusal && e.code === code);
}

describe('ledger: a ticket out', () => {
  it('takes the credit off the meter at issue and counts the ticket out once printed (GLI-11 ticket meters)', () => {
    const l = fresh();
    l.append(ticketIssue(N1, 1, 30_000));
    assert.equal(l.credit(1), 70_000);
    assert.equal(l.balance(TICKET_ACCOUNTS.printing), -30_000);
    assert.equal(l.meters('station:1').ticketsOut, undefined, 'not on paper yet: not a ticket out');
    l.append(ticketPrinted(N1));
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
    l.append(ticketIssue(N1, 1, 30_000));
    l.append(ticketVoided(N1, 1, 'paper jam'));
    assert.equal(l.credit(1), 100_000);
    assert.equal(l.balance(TICKET_ACCOUNTS.printing), 0);
    assert.equal(l.meters('station:1').ticketsVoided, 1);
    refusal(() => l.append(ticketPrinted(N1)), 'tx-id-conflict');
    l.append(ticketIssue(N2, 2, 10_000));
    l.append(ticketPrinted(N2));
    refusal(() => l.append(ticketVoided(N2, 1, 'paper jam')), 'tx-id-conflict');
    assert.equal(l.credit(1), 90_000);
    assert.ok(verifyLedger(l).ok);
  });

  it('refuses a ticket above the credit, an end of a ticket never issued here, and an end at another station', () => {
    const l = fresh();
    refusal(() => l.append(ticketIssue(N1, 1, 100_001)), 'insufficient-credit');
    refusal(() => l.append(ticketPrinted(FOREIGN)), 'ticket-mismatch');
    l.append(ticketIssue(N1, 1, 1_000));
    refusal(() => l.append(ticketVoided(N1, 2, 'paper jam')), 'ticket-mismatch');
  });

  it('refuses a ticket entry under any other transaction id than its step’s', () => {
    const l = fresh();
    refusal(() => l.append({ ...ticketIssue(N1, 1, 1_000), txId: 'cashout-1' }), 'bad-tx-id');
    l.append(ticketIssue(N1, 1, 1_000));
    refusal(() => l.append({ ...ticketPrinted(N1), txId: 'printed-1' }), 'bad-tx-id');
  });
});

describe('ledger: a ticket in', () => {
  it('credits the station only when stacked after an approval of the same terms', () => {
    const l = fresh();
    l.append(redeemRequest('req-00001', FOREIGN, 2));
    refusal(() => l.append(redeemStacked('req-00001', FOREIGN, 2, 20_000)), 'ticket-mismatch');
    l.append(redeemApproved('req-00001', FOREIGN, 2, 20_000));
    refusal(() => l.append({ ...redeemStacked('req-00001', FOREIGN, 2, 20_001) }), 'ticket-mismatch');
    l.append(redeemStacked('req-00001', FOREIGN, 2, 20_000));
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
    l.appendMany([redeemRequest('req-00001', FOREIGN, 2), redeemApproved('req-00001', FOREIGN, 2, 20_000), redeemStacked('req-00001', FOREIGN, 2, 20_000)]);
    l.appendMany([redeemRequest('req-00002', FOREIGN, 2), redeemApproved('req-00002', FOREIGN, 2, 20_000)]);
    refusal(() => l.append(redeemStacked('req-00002', FOREIGN, 2, 20_000)), 'tx-id-conflict');
    assert.equal(l.credit(2), 70_000);
  });

  it('never has an attempt both stacked and returned', () => {
    const l = fresh();
    l.appendMany([
      redeemRequest('req-00001', FOREIGN, 2),
      redeemApproved('req-00001', FOREIGN, 2, 20_000),
      redeemReturned('req-00001', FOREIGN, 2, 'acceptor-returned'),
    ]);
    refusal(() => l.append(redeemStacked('req-00001', FOREIGN, 2, 20_000)), 'ticket-mismatch');
    // Inserted again: a new attempt may be approved and stacked.
    l.appendMany([redeemRequest('req-00002', FOREIGN, 2), redeemApproved('req-00002', FOREIGN, 2, 20_000), redeemStacked('req-00002', FOREIGN, 2, 20_000)]);
    refusal(() => l.append(redeemReturned('req-00002', FOREIGN, 2, 'acceptor-returned')), 'ticket-mismatch');
    assert.equal(l.credit(2), 70_000);
  });

  // A ticket in the acceptor left without an end after its approval is settled by a person
  // (host/devices/ticket-in.ts settleByHand): the same ends, naming who, under the same rules.
  it('takes a person’s settlement of a held attempt (settledBy) under the same rules: stacked once, never both stacked and returned', () => {
    const l = fresh();
    const by = ['Ana Lei (1001)', 'Bo Chan (1002)'];
    const stacked = (requestId: string, validation: ValidationNumber, amount: number): NewEntry => ({
      type: 'ticket.redeem.stacked',
      payload: { requestId, validation, station: 2, amount, currency: 'MOP', settledBy: by },
      txId: ticketStackedTxId(validation),
    });
    const returned = (requestId: string, validation: ValidationNumber, settledBy: string[] = by): NewEntry => ({
      type: 'ticket.redeem.returned',
      payload: { requestId, validation, station: 2, reason: 'acceptor-fault', settledBy },
      txId: ticketInTxId(requestId, 'end'),
    });
    l.appendMany([redeemRequest('req-00001', FOREIGN, 2), redeemApproved('req-00001', FOREIGN, 2, 20_000)]);
    l.append(stacked('req-00001', FOREIGN, 20_000));
    assert.equal(l.credit(2), 70_000);
    refusal(() => l.append(returned('req-00001', FOREIGN)), 'ticket-mismatch');
    l.appendMany([redeemRequest('req-00002', N2, 2), redeemApproved('req-00002', N2, 2, 5_000)]);
    l.append(returned('req-00002', N2));
    refusal(() => l.append(stacked('req-00002', N2, 5_000)), 'ticket-mismatch');
    l.append(redeemRequest('req-00003', N2, 2));
    refusal(() => l.append(returned('req-00003', N2, [])), 'invalid-payload');
    assert.equal(l.credit(2), 70_000, 'credited once');
    assert.ok(verifyLedger(l).ok);
  });

  it('refuses an approval or a return of an attempt never asked, or asked for another ticket or station', () => {
    const l = fresh();
    refusal(() => l.append(redeemApproved('req-00009', FOREIGN, 2, 1_000)), 'ticket-mismatch');
    l.append(redeemRequest('req-00009', FOREIGN, 2));
    refusal(() => l.append(redeemApproved('req-00009', N1, 2, 1_000)), 'ticket-mismatch');
    refusal(() => l.append(redeemReturned('req-00009', FOREIGN, 1, 'acceptor-returned')), 'ticket-mismatch');
  });

  it('keeps an attempt with the system it was asked of: a label added or dropped after the request is refused (the upstream reads it)', () => {
    const l = fresh();
    l.append(redeemRequest('req-00001', FOREIGN, 2, 'sas'));
    refusal(() => l.append(redeemApproved('req-00001', FOREIGN, 2, 20_000)), 'ticket-mismatch');
    l.append(redeemApproved('req-00001', FOREIGN, 2, 20_000, 'sas'));
    refusal(() => l.append(redeemStacked('req-00001', FOREIGN, 2, 20_000)), 'ticket-mismatch');
    l.append(redeemStacked('req-00001', FOREIGN, 2, 20_000, 'sas'));
    assert.equal(l.credit(2), 70_000);
    l.append(redeemRequest('req-00002', N1, 2));
    refusal(() => l.append(redeemReturned('req-00002', N1, 2, 'unknown', 'sas')), 'ticket-mismatch');
    l.append(redeemReturned('req-00002', N1, 2, 'unknown'));
    assert.ok(verifyLedger(l).ok);
  });
});

describe("ledger: the validation ids of a table's own tickets", () => {
  it("leaves out the casino system's (labelled sas): the upstream's id is numbered under again, and 0x4C may set the system's again", () => {
    const l = fresh();
    l.append(ticketIssue(N1, 1, 1_000, 1, 7));
    l.append(ticketPrinted(N1));
    const bySystem = validationNumber(4_242, 2);
    l.append(ticketIssue(bySystem, 2, 1_000, 1, 4_242, undefined, 'sas'));
    l.append(ticketPrinted(bySystem));
    assert.equal(lastMachineTicket(l)?.terms.machineId, 7);
    assert.equal(lastMachineTicket(l, 'sas')?.terms.machineId, 4_242);
    assert.deepEqual(ticketMachineIds(l), [7]);
    assert.equal(lastTicketIssued(l)?.authority, 'sas');
    assert.equal(lastTicketIssued(l)?.terms.sequence, 2);
  });
});
