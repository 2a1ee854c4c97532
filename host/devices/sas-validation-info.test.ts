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
import { validationNumber } from '../../terms/validation-number.js';
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
