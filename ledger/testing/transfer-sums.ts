// What a ledger's postings say a table (or one station) moved by transfers between tables: the
// figures the back office's gaming-day report is reconciled against (tests/sync/backoffice-report).
// Transfers have no meter of their own, so this reads the postings; here because only ledger/
// prepares SQL over its schema.
import { account } from '../entries.js';
import { connectionOf, type Ledger } from '../ledger.js';

/**
 * A table's (or one station's) transfers in and out as its ledger's postings have them: in, what
 * other tables came to owe it (+ on a settlement account; at a station, what `transfer.in` credited);
 * out, what it came to owe them (− on a settlement account) and what is still in flight (at a
 * station, what `transfer.out` debited less what `transfer.reverse` gave back).
 */
export function ledgerTransfers(ledger: Ledger, station?: number): { in: number; out: number } {
  const db = connectionOf(ledger);
  const sum = (sql: string, ...args: (string | number)[]) => Number((db.prepare(sql).get(...args) as { v: number | null }).v ?? 0);
  if (station === undefined) {
    return {
      in: sum("SELECT SUM(amount) AS v FROM postings WHERE account LIKE 'table:%:settlement' AND amount > 0"),
      out:
        0 -
        sum("SELECT SUM(amount) AS v FROM postings WHERE account LIKE 'table:%:settlement' AND amount < 0") -
        sum("SELECT SUM(amount) AS v FROM postings WHERE account LIKE 'transfer:%:in-flight'"),
    };
  }
  const credit = account.stationCredit(station);
  const of = (types: string) => `SELECT SUM(p.amount) AS v FROM postings p JOIN journal j ON j.seq = p.seq WHERE p.account = ? AND j.type IN (${types})`;
  return { in: 0 - sum(of("'transfer.in'"), credit), out: sum(of("'transfer.out', 'transfer.reverse'"), credit) };
}
