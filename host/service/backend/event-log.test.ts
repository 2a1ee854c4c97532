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
});
