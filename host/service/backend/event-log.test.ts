// The event log of service mode shows each entry's payload: a ticket's validation number is a
// bearer's (whoever types it into a barcode is paid), so the log shows its last four digits only,
// as the Tickets page does (issue 47 item 5, docs/tito.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../../ledger/ledger.js';
import { ticketInTxId, ticketOutTxId } from '../../../ledger/ticket-postings.js';
import { validationNumber } from '../../../ledger/validation-number.js';
import { billCredit } from '../../../ledger/fixtures.js';
import { eventLogReader } from './event-log.js';

describe('the event log of service mode', () => {
  it("shows a ticket's entries with its number's last four digits only", () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    const v = validationNumber(7, 1);
    const rid = '00000000-0000-4000-8000-000000000001';
    ledger.append(billCredit(1, 100_000, 'b1'));
    ledger.append({
      type: 'ticket.issue',
      payload: {
        validation: v,
        machineId: 7,
        sequence: 1,
        station: 1,
        amount: 30_000,
        currency: 'MOP',
        issuedAt: '2026-11-26T10:00:00.000Z',
        expiresAt: '2027-02-24T10:00:00.000Z',
      },
      txId: ticketOutTxId(v, 'issue'),
    });
    ledger.append({ type: 'ticket.printed', payload: { validation: v, station: 1 }, txId: ticketOutTxId(v, 'end') });
    ledger.append({ type: 'ticket.redeem.request', payload: { requestId: rid, validation: v, station: 2 }, txId: ticketInTxId(rid, 'request') });
    const rows = eventLogReader({ ledger }).events({ filter: {}, offset: 0, limit: 40 }).entries;
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
});
