// The event log of service mode shows each entry's payload: a ticket's validation number is a
// bearer's (whoever types it into a barcode is paid), so the log shows its last four digits only,
// as the Tickets page does (issue 47 item 5, docs/tito.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import { redeemRequest, ticketIssue, ticketPrinted } from '../../../ledger/ticket-fixtures.js';
import { validationNumber } from '../../../terms/validation-number.js';
import { billCredit } from '../../../ledger/fixtures.js';
import { eventLogReader } from './event-log.js';

describe('the event log of service mode', () => {
  it("shows a ticket's entries with its number's last four digits only", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(7, 1);
    const rid = '00000000-0000-4000-8000-000000000001';
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append(ticketIssue(v, 1, 30_000, 1));
    ledger.append(ticketPrinted(v, 1));
    ledger.append(redeemRequest(rid, v, 2));
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const tickets = rows.filter((r) => r.type.startsWith('ticket.'));
    assert.equal(tickets.length, 3);
    for (const r of tickets) {
      assert.equal(r.summary.includes(v), false, `${r.type}: ${r.summary}`);
      assert.ok(r.summary.includes(`…${v.slice(-4)}`), `${r.type}: ${r.summary}`);
    }
    assert.ok(
      tickets.some((r) => r.summary.includes('30000')),
      'the rest of the payload stays',
    );
    ledger.close();
  });

  // The log showed every entry but a fault and a meter clear as its payload's JSON
  // ({"currency":"HKD","denomination":100000,...}) in every language.
  it('says a note, a credit cancelled and a handpay by key with their fields; an entry of another kind keeps its payload only', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append({ type: 'bill.escrow', txId: 'e1', payload: { station: 2, device: 'ba-2', denomination: 50_000, currency: 'MOP' } });
    ledger.append(billCredit(3, 20_000, 'b3'));
    ledger.append({ type: 'credit.cancel', txId: 'c1', payload: { station: 3, amount: 12_345, reason: 'player left' } });
    ledger.append({ type: 'handpay.request', txId: 'h1', payload: { station: 4, amount: 900_000, reason: 'win-limit' } });
    ledger.append({ type: 'handpay.confirm', txId: 'h2', payload: { station: 4, requestTxId: 'h1', amount: 900_000, attendant: 'Ana', witness: 'Bo' } });
    ledger.append({ type: 'door.open', txId: 'd1', payload: { door: 'main' } });
    const rows = eventLogReader({ ledger }).list({ filter: {}, offset: 0, limit: 40 }).entries;
    const said = Object.fromEntries(rows.filter((r) => r.seq !== 3).map((r) => [r.type, r.said ?? null]));
    assert.deepEqual(said['bill.credit'], { key: 'journalSaid.note', values: { station: 1, amount: 100_000, currency: 'HKD' } });
    assert.deepEqual(said['bill.escrow'], { key: 'journalSaid.note', values: { station: 2, amount: 50_000, currency: 'MOP' } });
    assert.deepEqual(said['credit.cancel'], { key: 'journalSaid.creditCancel', values: { station: 3, amount: 12_345, reason: 'player left' } });
    assert.deepEqual(said['handpay.request'], { key: 'journalSaid.handpayWinLimit', values: { station: 4, amount: 900_000 } });
    assert.deepEqual(said['handpay.confirm'], { key: 'journalSaid.handpayConfirm', values: { station: 4, amount: 900_000, attendant: 'Ana', witness: 'Bo' } });
    assert.equal(said['door.open'], null);
    // The payload stays beside the words (the export and a reader of an older screen have it).
    assert.ok(rows.some((r) => r.type === 'bill.credit' && r.summary.includes('100000')));
    ledger.close();
  });
});
