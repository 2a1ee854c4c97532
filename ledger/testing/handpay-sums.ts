// What a ledger's postings say a table (or one station) paid by hand of its rounds' payouts: the
// `handpay.request` amounts (a jackpot award or a win above the limit), which the back office's
// gaming-day report takes from the win (tests/sync/backoffice-report). Here because only ledger/
// prepares SQL over its schema.
import { account } from '../entries.js';
import { connectionOf, type Ledger } from '../ledger.js';

/** The round payouts a table (or station) handed to an attendant: what its `handpay.request`s moved to the pending accounts. */
export function ledgerHandpaidWins(ledger: Ledger, station?: number): number {
  const where = station === undefined ? "p.account LIKE 'handpay:%:pending'" : 'p.account = ?';
  const sql = `SELECT SUM(p.amount) AS v FROM postings p JOIN journal j ON j.seq = p.seq WHERE ${where} AND j.type = 'handpay.request'`;
  const args = station === undefined ? [] : [account.handpayPending(station)];
  return (
    0 -
    Number(
      (
        connectionOf(ledger)
          .prepare(sql)
          .get(...args) as { v: number | null }
      ).v ?? 0,
    )
  );
}
