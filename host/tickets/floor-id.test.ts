import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { entriesOfTypes } from '../../ledger/index.js';
import { billCredit } from '../../ledger/fixtures.js';
import { Ledger } from '../../ledger/ledger.js';
import { journalledMachineId } from '../../ledger/machine-id-queries.js';
import { ticketIssue } from '../../ledger/ticket-fixtures.js';
import { validationNumber } from '../../terms/validation-number.js';
import { keepingFloorId } from './floor-id.js';
import { upstreamAnswering } from './upstream-test-kit.js';

/** A log that keeps its error lines. */
function errorsLog(): { log: pino.Logger; errors: string[] } {
  const errors: string[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  return { log, errors };
}

const assignments = (ledger: Ledger) => [...entriesOfTypes(ledger, ['ticket.machine-id'])].map((e) => (JSON.parse(e.body) as { payload: unknown }).payload);

describe("the upstream's validation id, journalled", () => {
  it('is journalled when the upstream answers, read by the next run; an answer out of reach, or one the journal holds, adds nothing', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    try {
      const { log } = errorsLog();
      let answer: number | null = 8_388_609;
      const first = keepingFloorId(
        upstreamAnswering(() => answer),
        ledger,
        log,
      );
      assert.equal(first.knownMachineId?.(), null, 'none before the first answer');
      assert.deepEqual(await first.machineId(4242), { ok: true, machineId: 8_388_609 });
      assert.equal(first.knownMachineId?.(), 8_388_609);
      assert.deepEqual(await first.machineId(8_388_609), { ok: true, machineId: 8_388_609 });
      assert.deepEqual(assignments(ledger), [{ machineId: 8_388_609, authority: 'upstream' }], 'one entry: the second answer is the journal’s');
      answer = null;
      const next = keepingFloorId(
        upstreamAnswering(() => answer),
        ledger,
        log,
      );
      assert.equal(next.knownMachineId?.(), 8_388_609, 'read back at the next start');
      assert.deepEqual(await next.machineId(8_388_609), { ok: false, detail: 'offline' });
      assert.equal(next.knownMachineId?.(), 8_388_609, 'an offline answer forgets nothing');
      answer = 8_388_700;
      assert.deepEqual(await next.machineId(8_388_609), { ok: true, machineId: 8_388_700 });
      assert.equal(next.knownMachineId?.(), 8_388_700, 'another answer is journalled and is the newest');
      assert.equal(assignments(ledger).length, 2);
    } finally {
      ledger.close();
    }
  });

  it('the journal’s newest record wins: a ticket numbered after the assignment (by an older version, under another id) names the id', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    try {
      ledger.append({ type: 'ticket.machine-id', payload: { machineId: 500, authority: 'upstream' } });
      ledger.append({ type: 'ticket.machine-id', payload: { machineId: 900, authority: 'sas' } });
      assert.equal(journalledMachineId(ledger, 'upstream'), 500);
      assert.equal(journalledMachineId(ledger, 'sas'), 900);
      ledger.append(billCredit(1, 5_000, 'b1'));
      ledger.append(ticketIssue(validationNumber(600, 1), 1, 5_000, 1, 600));
      assert.equal(journalledMachineId(ledger, 'upstream'), 600, 'the ticket is newer');
      assert.equal(journalledMachineId(ledger, 'sas'), 900, 'an upstream ticket is not the system’s record');
      ledger.append({ type: 'ticket.machine-id', payload: { machineId: 700, authority: 'upstream' } });
      assert.equal(journalledMachineId(ledger, 'upstream'), 700, 'the assignment is newer');
    } finally {
      ledger.close();
    }
  });

  it('an answer the journal could not take is not used: logged, and the journal’s id serves', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    try {
      const broken = errorsLog();
      // A journal that takes nothing more (a full disk alike).
      ledger.append = () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      };
      const a = keepingFloorId(upstreamAnswering(8_388_700), ledger, broken.log);
      assert.deepEqual(await a.machineId(), { ok: false, detail: 'the upstream’s validation id could not be journalled' });
      assert.equal(a.knownMachineId?.(), null, 'nothing journalled');
      assert.ok(
        broken.errors.some((l) => /could not be journalled/.test(l)),
        broken.errors.join('\n'),
      );
    } finally {
      ledger.close();
    }
  });
});
