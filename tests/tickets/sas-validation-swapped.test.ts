// sas-validation.json holding another machine's id, well formed (written into the data folder while
// the kiosk was off). Until 8 December the file was the table's SAS validation id (long poll 0x4C's)
// at the next start: the table numbered its tickets under whatever id it held, another machine's
// included, so two machines could print one number. The id the casino system sets is now
// journalled (`ticket.machine-id`, `authority: sas`) before 0x4C is answered, and read from the
// journal: the file is not read (docs/security.md, "What the table keeps in its data folder").
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { sasTicketAuthority } from '../../host/tickets/wiring.js';
import { Ledger } from '../../ledger/ledger.js';
import { entriesOfTypes } from '../../ledger/index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sas-validation-swapped-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const OURS = 0x0b_ee_f0;
const ANOTHER_MACHINES = 0x0c_0f_fe;
const log = pino({ level: 'silent' });

describe('sas-validation.json holding another machine’s id', () => {
  it('is not believed: after a restart the table numbers under the id its journal recorded', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
    try {
      const first = sasTicketAuthority(ledger, log);
      assert.deepEqual(first.sas.validationId({ machineId: OURS, sequence: 0 }), { machineId: OURS, sequence: 0 });
      const assignments = () => [...entriesOfTypes(ledger, ['ticket.machine-id'])].map((e) => (JSON.parse(e.body) as { payload: unknown }).payload);
      assert.deepEqual(assignments(), [{ machineId: OURS, authority: 'sas' }], 'journalled before 0x4C is answered');

      // While the table was off, another machine's id was written into its data folder, as an older version kept it.
      writeFileSync(path.join(dir, 'sas-validation.json'), JSON.stringify({ v: 1, machineId: ANOTHER_MACHINES }));
      const next = sasTicketAuthority(ledger, log);
      assert.deepEqual(await next.authority.machineId(), { ok: true, machineId: OURS }, 'the tickets are numbered under the journal’s id');
      assert.deepEqual(next.sas.validationId({ machineId: 0, sequence: 0 }), { machineId: OURS, sequence: 0 }, '0x4C reads the journal’s id');
      assert.deepEqual(next.sas.validationId({ machineId: ANOTHER_MACHINES, sequence: 0 }), { machineId: OURS, sequence: 0 }, 'the first id set stands');
      assert.equal(assignments().length, 1, 'nothing more journalled');
    } finally {
      ledger.close();
    }
  });
});
