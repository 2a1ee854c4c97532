// The ledger file's check in the background (ledger-file-watch.ts): at the start, then a day after
// each check ends; a failure raises the ledger-integrity fault, which stops bets; a stop ends a
// check running and starts none after it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileCheckResult } from '../../ledger/index.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { silent, testTable } from '../testing/table-kit.js';
import { LEDGER_FILE_CHECK_EVERY_MS, LedgerFileWatch } from './ledger-file-watch.js';

/** A check the test answers by hand, counting the calls and whether each was told to stop. */
function handCheck() {
  const calls: { answer: (r: FileCheckResult) => void; signal: AbortSignal }[] = [];
  const check = (_file: string, signal: AbortSignal) => new Promise<FileCheckResult>((answer) => calls.push({ answer, signal }));
  return { calls, check };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('the ledger file watch', () => {
  it('checks at the start and a day after each check; one that could not run raises nothing; a failure halts the table', async () => {
    const t = testTable();
    const { calls, check } = handCheck();
    const watch = new LedgerFileWatch({ file: 'ledger.sqlite', tilts: t.tilts, log: silent, timers: t.clock.timers, check });
    try {
      watch.start();
      assert.equal(calls.length, 1, 'one check at the start');
      calls[0]?.answer({ ok: true, ran: true, problems: [] });
      assert.deepEqual(await watch.first, { ok: true, ran: true, problems: [] });
      await settle();
      t.clock.advance(LEDGER_FILE_CHECK_EVERY_MS - 1);
      assert.equal(calls.length, 1, 'none before a day has passed');
      t.clock.advance(1);
      assert.equal(calls.length, 2, 'the next a day later');
      assert.equal(t.tilts.list().length, 0);
      calls[1]?.answer({ ok: false, ran: false, problems: ['the check could not run: database is locked'] });
      await settle();
      assert.equal(t.tilts.list().length, 0, 'a check that could not run raises nothing');
      t.clock.advance(LEDGER_FILE_CHECK_EVERY_MS);
      calls[2]?.answer({ ok: false, ran: true, problems: ['row 2 missing from index journal_type'] });
      await settle();
      const fault = t.tilts.list().find((f) => f.kind === 'ledger-integrity');
      assert.ok(fault, 'the ledger-integrity fault');
      assert.ok(t.tilts.refusal(1, 'bet'), 'bets stop');
    } finally {
      await watch.stop();
      t.close();
    }
  });

  it('a failure whose fault the journal refuses (the disk full): the fault held, the next check still set, nothing unhandled (a review of 2 December, L1)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const t = testTable();
    const { calls, check } = handCheck();
    const watch = new LedgerFileWatch({ file: 'ledger.sqlite', tilts: t.tilts, log: silent, timers: t.clock.timers, check });
    try {
      watch.start();
      refusingOnce(t.ledger, 'tilt.raise');
      calls[0]?.answer({ ok: false, ran: true, problems: ['row 2 missing from index journal_type'] });
      await settle();
      await settle();
      assert.ok(
        t.tilts.list().some((f) => f.kind === 'ledger-integrity'),
        'held though unjournalled',
      );
      assert.ok(t.tilts.refusal(1, 'bet'), 'bets stop');
      t.clock.advance(LEDGER_FILE_CHECK_EVERY_MS);
      assert.equal(calls.length, 2, 'the next check a day later');
      calls[1]?.answer({ ok: true, ran: true, problems: [] });
      await settle();
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await watch.stop();
      t.close();
    }
  });

  it('a stop ends the check running and starts none after it', async () => {
    const t = testTable();
    const { calls, check } = handCheck();
    const watch = new LedgerFileWatch({ file: 'ledger.sqlite', tilts: t.tilts, log: silent, timers: t.clock.timers, check });
    try {
      watch.start();
      const stopping = watch.stop();
      assert.equal(calls[0]?.signal.aborted, true, 'the running check is told to stop');
      calls[0]?.answer({ ok: false, ran: false, problems: ['the check could not run: its process ended (1)'] });
      await stopping;
      t.clock.advance(2 * LEDGER_FILE_CHECK_EVERY_MS);
      assert.equal(calls.length, 1, 'no check after the stop');
      assert.equal(t.tilts.list().length, 0, 'and no fault for the check ended');
    } finally {
      t.close();
    }
  });
});
