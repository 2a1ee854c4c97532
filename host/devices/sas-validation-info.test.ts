// Long poll 0x4D's amount (docs/sas.md, "Amounts in cents"): SAS 6.02 gives a ticket's amount in
// 0x4D, as in 0x57, 0x70/0x71 and 0x72, in cents — the currency's minor units — not in credits of
// the accounting denomination (the meters' unit). With a denomination of one minor unit the two
// agree; the attack is a denomination of 5 and an amount that is not a multiple of it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketIssue, ticketPrinted } from '../../ledger/ticket-fixtures.js';
import { ticketOutTxId } from '../../ledger/ticket-postings.js';
import { validationNumber } from '../../terms/validation-number.js';
import { ticketPaper } from '../floor/ticket-paper.js';
import { ValidationRecords } from './sas-validation-info.js';

describe('0x4D: the ticket amount in cents, whatever the accounting denomination', () => {
  it('a ticket of 123.47 reads 12347 (cents), never credits of a denomination (5 avos gave 2469)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-4d-'));
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-4D' });
    try {
      l.append(billCredit(1, 12_347, 'bill-1'));
      const v = validationNumber(7, 1);
      l.append(ticketIssue(v, 1, 12_347));
      l.append(ticketPrinted(v));
      // The amount is the ticket's minor units: no accounting denomination goes into it (one of 5
      // avos gave 2,469 credits here before).
      const records = new ValidationRecords(l, dir);
      assert.equal(records.of(1, 'look-ahead')?.record.amount, 12_347);
      assert.equal(records.of(1, 1)?.record.amount, 12_347);
    } finally {
      l.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("0x4D: a ticket's times in Macau's, its expiry its last valid day, whatever zone the cabinet's system was installed with", () => {
  // The paper, the screens and the back office show Macau's time (UTC+8) by name; the record the
  // casino system reads read the process's zone: on a cabinet left in UTC it said a ticket printed
  // 18:00 on its paper was issued at 10:00, and a ticket issued between 00:00 and 08:00 in Macau
  // on the day before. Its expiry is the last day it is valid, as its paper prints it (a ticket
  // expires as a day in Macau ends: the next day's, one day late, was read from it before).
  for (const zone of ['UTC', 'America/New_York', 'Asia/Macau']) {
    it(`with TZ=${zone}: issued 18:00 on 26 November, valid until 24 February, as the paper says`, () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-4d-'));
      const l = Ledger.open({ file: ':memory:', terminalId: 'T-4D' });
      const tz = process.env.TZ;
      process.env.TZ = zone;
      try {
        l.append(billCredit(1, 12_347, 'bill-1'));
        const v = validationNumber(7, 1);
        const terms = {
          validation: v,
          machineId: 7,
          sequence: 1,
          station: 1,
          amount: 12_347,
          currency: 'MOP',
          issuedAt: '2026-11-26T10:00:00.000Z',
          expiresAt: '2027-02-24T16:00:00.000Z',
        };
        const paper = ticketPaper(terms, 'T-4D');
        assert.equal(paper.issuedAt, '2026-11-26 18:00:00');
        assert.equal(paper.expiresOn, '2027-02-24');
        l.append({ type: 'ticket.issue', payload: terms, txId: ticketOutTxId(v, 'issue') });
        l.append(ticketPrinted(v));
        const record = new ValidationRecords(l, dir).of(1, 1)?.record;
        assert.deepEqual(record?.at, { year: 2026, month: 11, day: 26, hour: 18, minute: 0, second: 0 });
        assert.deepEqual(record?.expires, { year: 2027, month: 2, day: 24 });
      } finally {
        if (tz === undefined) delete process.env.TZ;
        else process.env.TZ = tz;
        l.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
