// The casino system's validation id (long poll 0x4C) at a table switched from the upstream to SAS
// (docs/sas.md, "Why one system per table"): an id the table's older tickets were numbered under
// (the upstream's) or its configuration's is not taken — taken, the upstream would register the
// table's new tickets as its own and one number could be paid through each authority. The real
// wiring (sasTicketAuthority) over a real ledger.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { ticketIssue, ticketPrinted } from '../../ledger/ticket-fixtures.js';
import { validationNumber } from '../../terms/validation-number.js';
import { SAS_VALIDATION_FILE } from './sas-authority.js';
import { sasTicketAuthority } from './wiring.js';

const UPSTREAM_ID = 3;
const CONFIGURED_ID = 4801;

describe('0x4C at a table switched to SAS: the upstream’s id and the configuration’s are not the system’s to take', () => {
  it('refuses them (answering 0, none set), takes another, and then keeps it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-authority-'));
    try {
      const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
      const older = validationNumber(UPSTREAM_ID, 1);
      ledger.append(billCredit(1, 5_000, 'b1'));
      ledger.append(ticketIssue(older, 1, 5_000, 1, UPSTREAM_ID));
      ledger.append(ticketPrinted(older));
      const { sas } = sasTicketAuthority(dir, ledger, pino({ level: 'silent' }), CONFIGURED_ID);
      assert.deepEqual(sas.validationId({ machineId: UPSTREAM_ID, sequence: 0 }), { machineId: 0, sequence: 1 }, 'the upstream’s id');
      assert.deepEqual(sas.validationId({ machineId: CONFIGURED_ID, sequence: 0 }), { machineId: 0, sequence: 1 }, 'the configuration’s id');
      assert.equal(existsSync(path.join(dir, SAS_VALIDATION_FILE)), false, 'nothing kept');
      assert.deepEqual(sas.validationId({ machineId: 0x0b_ee_f0, sequence: 0 }), { machineId: 0x0b_ee_f0, sequence: 1 });
      assert.deepEqual(sas.validationId({ machineId: 0x12_34_56, sequence: 0 }), { machineId: 0x0b_ee_f0, sequence: 1 }, 'the first id taken stands');
      assert.equal(existsSync(path.join(dir, SAS_VALIDATION_FILE)), true);
      ledger.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
