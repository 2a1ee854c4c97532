// A past gaming day's ticket liability read again later (a review of 4 December). An expired ticket
// counts while a redemption of it is pending (an approved attempt the acceptor has not yet stacked
// or returned): the register's `pending_at` said so, and it is cleared when the attempt is
// returned. So a ticket that expired during the day, whose redemption was pending at the day's
// end and returned the next day, was in the day's liability when read before the return and out
// of it when read after: a past day's figure changed. Now the liability at an instant reads the
// attempts' own times (asked, closed), which do not change after.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { enrolTerminal, migrateUpstream, openPglite, type Db } from '../../upstream/index.js';
import { gamingDayReport, gamingDayWindow } from '../../upstream/backoffice/gaming-day.js';
import { cancel, machineIdOf, redeem, registerIssue, registerPrinted } from '../../upstream/tickets.js';
import { DAY, requestId, ticket } from './kit.js';

describe("a past gaming day's ticket liability", () => {
  let db: Db;
  before(async () => {
    db = await openPglite();
    await migrateUpstream(db);
    await enrolTerminal(db, 'L');
  });
  after(async () => db.close());

  it('counts a ticket expired in the day whose redemption was pending at its end, read before and after the attempt is returned', async () => {
    const m = await machineIdOf(db, 'L');
    const t = ticket(m, 1, 1_600, { currency: 'SGD' });
    await registerIssue(db, 'L', t);
    await registerPrinted(db, 'L', t);
    const rq = requestId();
    assert.equal((await redeem(db, 'L', { requestId: rq, validation: t.validation, station: 3, currency: 'SGD', limit: 1_000_000 })).kind, 'approved');
    // Yesterday's gaming day: the ticket expired at its 10:00, the redemption asked at its 20:00 and
    // still pending at its end (as a station whose acceptor jammed overnight holds it).
    const day = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    const window = { ...gamingDayWindow(day, 6), startHour: 6 };
    const at = (hours: number) => new Date(window.from.getTime() + hours * 3_600_000);
    await db.query(`UPDATE tickets SET issued_at = $2, expires_at = $3, pending_at = $4 WHERE validation = $1`, [t.validation, at(-48), at(4), at(14)]);
    await db.query(`UPDATE ticket_redemptions SET asked_at = $2 WHERE request_id = $1`, [rq, at(14)]);
    const liability = async () => (await gamingDayReport(db, day, window)).liability.currencies.find((c) => c.currency === 'SGD');
    assert.deepEqual(await liability(), { currency: 'SGD', tickets: 1, amount: 1_600 }, 'read while the attempt is pending');
    // The acceptor gives the ticket back today: the register no longer holds it pending (it has expired).
    assert.deepEqual(await cancel(db, 'L', rq, { validation: t.validation, station: 3 }), { ok: true });
    assert.deepEqual(await liability(), { currency: 'SGD', tickets: 1, amount: 1_600 }, 'read after the return: the same past day, the same figure');
  });
});
