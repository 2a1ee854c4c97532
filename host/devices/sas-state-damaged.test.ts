// The SAS state files other than sas-reported.json (a review): a damaged one (cut by a power loss,
// overwritten, not ours) was read as missing without a word, so a table that stopped printing
// tickets (no validation id), or whose system read its tickets again, said nothing of why. Each
// now logs an error naming the file, why it was not believed and what follows; a missing file
// (a first use) says nothing. (`sas-validation.json` was one of them until 8 December: the id 0x4C
// set is journalled now, and the file is not read: tests/tickets/sas-validation-swapped.test.ts.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { Ledger } from '../../ledger/index.js';
import { HANDPAY_NOTE_FILE, HandpayNotes } from './sas-handpay-note.js';
import { VALIDATION_READ_FILE, ValidationRecords } from './sas-validation-info.js';

describe('SAS state files found damaged at start', () => {
  let dir: string;
  const errors: { detail: Record<string, unknown>; message: string }[] = [];
  const log = { error: (detail: object, message: string) => void errors.push({ detail: { ...detail }, message }) };
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sas-state-damaged-'));
    errors.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cases = [
    { file: HANDPAY_NOTE_FILE, open: () => new HandpayNotes(dir, log).of(1), empty: null },
    {
      file: VALIDATION_READ_FILE,
      open: () => {
        const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
        try {
          return new ValidationRecords(ledger, dir, log).of(1, 'current');
        } finally {
          ledger.close();
        }
      },
      empty: null,
    },
  ];

  for (const c of cases) {
    it(`${c.file}: cut short, it is logged as an error naming the file; missing, nothing is said`, () => {
      assert.equal(c.open(), c.empty);
      assert.equal(errors.length, 0, 'a first use says nothing');
      writeFileSync(path.join(dir, c.file), '{"v":1,"mach');
      assert.equal(c.open(), c.empty, 'a damaged file is not believed');
      assert.equal(errors.length, 1, 'one error (before: none)');
      assert.equal(errors[0]?.detail['file'], path.join(dir, c.file));
      assert.match(String(errors[0]?.detail['why']), /JSON/);
      writeFileSync(path.join(dir, c.file), '{"v":2}');
      c.open();
      assert.match(String(errors[1]?.detail['why']), /not ours/);
    });
  }
});
