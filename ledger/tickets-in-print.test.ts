// The tickets in print at a start (ticketsInPrint, host/floor/ticket-out.ts asks the printer about
// each): issued and neither printed nor voided. It walked every `ticket.issue` row the table ever
// journalled, each row read to find its transaction id (a review of what grows over weeks, L5:
// 187 ms at the first read on a 30-day journal of 14,152 issues). The issue's id and its end's sit
// side by side in the transaction-id index, so the walk is that index's alone: a row is read only
// for a ticket in print. The answers must stay the anti-join's over every issue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import { IN_PRINT, ticketsInPrint, TICKETS_IN_PRINT_SQL } from './ticket-queries.js';
import { redeemed, ticketIssue, ticketPrinted, ticketVoided } from './ticket-fixtures.js';
import { validationNumber } from '../terms/validation-number.js';

describe('the tickets in print at a start', () => {
  it('are the issues with no end, oldest first, as the walk of every issue found them, read from the transaction-id index', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-7' });
    for (const s of [1, 2, 3]) l.append(billCredit(s, 10_000_000, `b${s}`));
    const open: number[] = [];
    for (let n = 1; n <= 200; n++) {
      const v = validationNumber(7, n);
      l.append(ticketIssue(v, n, 100, 1 + (n % 3)));
      // Every 37th left in print (one long ago, as a printer that never answered leaves it); the rest printed or voided.
      if (n % 37 === 0) open.push(n);
      else l.append(n % 5 ? ticketPrinted(v, 1 + (n % 3)) : ticketVoided(v, 1 + (n % 3)));
      // Tickets in, whose transaction ids sort beside the tickets out's.
      if (n % 10 === 0) l.appendMany(redeemed(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, validationNumber(9, n), 2, 100));
    }
    const db = connectionOf(l);
    const walked = (db.prepare(`SELECT seq FROM journal AS i WHERE ${IN_PRINT} ORDER BY seq`).all() as { seq: number }[]).map((r) => r.seq);
    const inPrint = ticketsInPrint(l);
    assert.deepEqual(
      inPrint.map((t) => t.terms.sequence),
      open,
    );
    assert.deepEqual(
      inPrint.map((t) => t.seq),
      walked,
    );
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${TICKETS_IN_PRINT_SQL}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    // The walk is the transaction-id index's range of tickets out, each end looked up beside it: no issue's row read.
    assert.match(plan, /SEARCH i USING COVERING INDEX sqlite_autoindex_journal_1 \(tx_id>\? AND tx_id<\?\)/);
    assert.doesNotMatch(plan, /journal_type/);
    l.close();
  });
});
