// A review (1 December) rebuilt the ledger's indexes by hand on a stopped cabinet: the tx_id index
// swapped for one without a note's entry (by root page: the schema rows' type, name and SQL
// unchanged). Past 32 MiB the open checks only the state tables, and the start's verification goes
// on from its checkpoint without integrity_check: the host started, the note's transaction was no
// longer found, and the same note was credited again. The whole file is now checked in the
// background at every start (and every day after), and a failure halts the table through the
// `ledger-integrity` fault, as a failed verification does.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { startHost, type RunningHost } from '../../host/start-host.js';
import { openExistingLedger } from '../../ledger/index.js';
import { padLedgerFile, txIdIndexWithoutInFile } from '../../ledger/testing/tamper.js';

const root = mkdtempSync(path.join(tmpdir(), 'ledger-index-forgery-'));
after(() => rmSync(root, { recursive: true, force: true }));

function start(dataDir: string): Promise<RunningHost> {
  return startHost({ dataDir, terminalId: 'T-FORGE', rendererDir: path.join(dataDir, 'none'), logger: pino({ level: 'silent' }), simulatedDealer: false });
}

const note = { station: 3, device: 'ba-3', denomination: 10_000, currency: 'HKD' };

describe('an index of the journal forged on a stopped cabinet', () => {
  it('halts the table once the background check of the file has read it', async () => {
    const dir = path.join(root, 'tx-id');
    const first = await start(dir);
    first.ledger.append({ type: 'bill.escrow', payload: note });
    first.ledger.append({ type: 'bill.credit', txId: 'forge-note', payload: note });
    assert.ok((await first.ledgerCheck.first).ok, 'the check passes the ledger as the host wrote it');
    await first.close();

    const ledger = openExistingLedger(dir);
    const seq = ledger.byTxId('forge-note')?.seq ?? 0;
    ledger.close();
    padLedgerFile(dir);
    txIdIndexWithoutInFile(dir, seq);

    const running = await start(dir);
    try {
      assert.equal(running.recovery.ledgerVerified, true, 'the start passes it: its checks do not read the indexes');
      assert.equal(running.ledger.byTxId('forge-note'), undefined, 'the note is no longer found by its transaction');
      const check = await running.ledgerCheck.first;
      assert.deepEqual([check.ok, check.ran], [false, true]);
      assert.ok(
        check.problems.some((p) => p.includes('sqlite_autoindex_journal_1')),
        check.problems.join('\n'),
      );
      const fault = running.floor.tilts.list().find((t) => t.kind === 'ledger-integrity');
      assert.ok(fault, 'the ledger-integrity fault');
      assert.ok(running.floor.tilts.refusal(3, 'bet'), 'no bet is taken');
    } finally {
      await running.close();
    }
  });
});
