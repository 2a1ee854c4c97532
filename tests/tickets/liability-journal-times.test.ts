// A past gaming day's ticket liability when a ticket's end reached the upstream after the day was
// over. The register's `voided_at` and `redeemed_at` are when the upstream heard: a table whose
// words were not taken (the upstream unreachable a moment, a confirm lost) tells it by its journal
// when it syncs, and until 7 December the liability at a day's end counted such a ticket as owed:
// one voided in the day (its paper never came out, its credit back on the station) and one stacked
// and credited in the day at another table were both in that day's liability, while the same report's
// ticket meters, read by each entry's own time, count the void and the ticket in within the day.
// Now a ticket's end is also read from the journal that ends it, at the entry's own time: the
// issuing table's `ticket.void` of a voided ticket, the redeeming table's `ticket.redeem.stacked`
// of the attempt the register approved. Another table's word ends nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enrolTerminal, ingest, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';
import { gamingDayReport, gamingDayWindow } from '../../upstream/backoffice/gaming-day.js';
import { machineIdOf, redeem } from '../../upstream/tickets.js';
import { txIdOfTicketEntry } from '../../ledger/ticket-postings.js';
import { parseTicketEntry, type TicketEntryType } from '../../terms/ticket-terms.js';
import { DAY, FakeJournal, requestId, ticket } from './kit.js';

/** A ticket entry as a ledger journals it: under its transaction id, at `ts`. */
function entry(type: TicketEntryType, payload: unknown, ts: Date) {
  const e = parseTicketEntry(type, payload);
  assert.ok(e, `${type} reads as a ticket entry`);
  return { type, payload, ts, txId: txIdOfTicketEntry(e) };
}

describe("a past gaming day's ticket liability: the ends the journals brought after the day", () => {
  let db: Db;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    for (const t of ['T-1', 'T-2', 'T-3']) await enrolTerminal(db, t);
  });
  after(async () => db.close());

  it('leaves out a ticket voided and one stacked within the day, synced after it; a ticket still owed, and one another table claims it stacked, stay', async () => {
    const day = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const window = { ...gamingDayWindow(day, 6), startHour: 6 };
    const at = (hours: number) => new Date(window.from.getTime() + hours * 3_600_000);
    const m = await machineIdOf(db, 'T-1');
    const issuer = new FakeJournal('T-1');
    const voided = ticket(m, 1, 100, { issuedAt: at(2).getTime() });
    const paid = ticket(m, 2, 200, { issuedAt: at(3).getTime() });
    const owed = ticket(m, 3, 400, { issuedAt: at(4).getTime() });
    const printedAt = (t: typeof paid, h: number) => entry('ticket.printed', { validation: t.validation, station: 1 }, at(h));
    // The issuing table's journal, synced now: the first ticket's printer failed, its credit given back, within the day.
    const r = await ingest(
      db,
      issuer.batch([
        entry('ticket.issue', voided, at(2)),
        entry('ticket.void', { validation: voided.validation, station: 1, reason: 'not printed: printer-fault' }, at(2.01)),
        entry('ticket.issue', paid, at(3)),
        printedAt(paid, 3.01),
        entry('ticket.issue', owed, at(4)),
        printedAt(owed, 4.01),
      ]),
    );
    assert.equal(r.status, 200);
    // The second ticket approved at T-2 in the evening; its confirm lost, T-2's journal synced now.
    const q = { requestId: requestId(), validation: paid.validation, station: 5, currency: 'MOP', limit: 1_000_000 };
    assert.equal((await redeem(db, 'T-2', q)).kind, 'approved');
    await db.query('UPDATE ticket_redemptions SET asked_at = $2 WHERE request_id = $1', [q.requestId, at(20)]);
    await db.query('UPDATE tickets SET pending_at = $2 WHERE validation = $1', [paid.validation, at(20)]);
    const attempt = { requestId: q.requestId, validation: paid.validation, station: 5 };
    const credit = { ...attempt, amount: 200, currency: 'MOP' };
    const r2 = await ingest(
      db,
      new FakeJournal('T-2').batch([
        entry('ticket.redeem.request', attempt, at(20)),
        entry('ticket.redeem.approved', credit, at(20)),
        entry('ticket.redeem.stacked', credit, at(20.01)),
      ]),
    );
    assert.equal(r2.status, 200);
    // A third table's journal says it stacked the ticket still owed (never approved for it): alarmed, and it ends nothing.
    const r3 = await ingest(
      db,
      new FakeJournal('T-3').batch([
        entry('ticket.redeem.stacked', { requestId: requestId(), validation: owed.validation, station: 1, amount: 400, currency: 'MOP' }, at(21)),
      ]),
    );
    assert.equal(r3.status, 200);
    const report = await gamingDayReport(db, day, window);
    assert.deepEqual(report.liability.currencies, [{ currency: 'MOP', tickets: 1, amount: 400 }]);
  });
});
