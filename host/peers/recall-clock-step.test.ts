// A transfer's recall, and whether its receiver can still answer, are waits of this run: the offer
// unanswered for the recall time is recalled, and a recall left silent as long again makes the
// transfer one two people may settle by hand (service mode, Peers page). They were measured on the
// wall clock, which steps (NTP at boot, a technician setting the time): a step forward of a day
// recalled a transfer offered a moment before, and made it settleable at the next tick, while its
// receiver, a table restarting or slow, may have taken the credit (settled as returned here, it
// would be the station's at both tables). They are measured on the monotonic clock now.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { billCredit } from '../../ledger/fixtures.js';
import { openLedger } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from '../transfers/ledger-journal.js';
import { HostTransfers } from './host-transfers.js';
import { PeerCredentials } from './peer-credentials.js';

const BJ = TableId.parse('bj-1');
const WAR = TableId.parse('war-1');
const DAY = 86_400_000;

/** bj-1 with war-1 as its peer (never dialled: it answers nothing), a recall after `recallAfterSeconds`. */
function bjHost(dir: string, recallAfterSeconds = 5) {
  const ledger = openLedger(dir, 'BJ-1');
  const transfers = new HostTransfers({
    self: BJ,
    currency: 'HKD',
    journal: new LedgerTransferJournal(ledger),
    peers: {
      v: 1,
      recallAfterSeconds,
      peers: [
        {
          enrolment: {
            table: WAR,
            url: 'https://127.0.0.1:9',
            certificate: 'c'.repeat(100),
            fingerprint: Array(32).fill('AB').join(':'),
            secret: 's'.repeat(32),
          },
          stations: [],
        },
      ],
    },
    stations: [103],
    credentials: PeerCredentials.inDataDir(dir),
    log: pino({ level: 'silent' }),
    betsInPlay: () => false,
    admits: () => true,
  });
  return { ledger, transfers };
}

describe('a transfer’s recall and a wall clock that steps', () => {
  it('a day forward between two ticks neither recalls the transfer just offered nor makes it settleable', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recall-step-'));
    const { ledger, transfers } = bjHost(dir);
    const wall = Date.now;
    try {
      ledger.append(billCredit(103, 10_000, 'note-103', 'HKD'));
      assert.deepEqual(transfers.command(103, { name: 'move-credit', to: WAR, amount: 4_000 }), { ok: true });
      transfers.tick();
      Date.now = () => wall() + DAY;
      transfers.tick();
      Date.now = () => wall() + 2 * DAY;
      transfers.tick();
      assert.equal(transfers.counters.recalledLate, 0);
      assert.deepEqual(
        transfers.openRows().map((o) => [o.phase, o.answers, o.settleable]),
        [['offering', true, false]],
      );
    } finally {
      Date.now = wall;
      transfers.stop();
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recalled, then a day forward: its receiver may still answer, so no person may settle it yet', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'recall-step-'));
    const { ledger, transfers } = bjHost(dir, 0.2);
    const wall = Date.now;
    try {
      ledger.append(billCredit(103, 10_000, 'note-103', 'HKD'));
      assert.deepEqual(transfers.command(103, { name: 'move-credit', to: WAR, amount: 4_000 }), { ok: true });
      transfers.tick();
      await new Promise((r) => setTimeout(r, 300));
      transfers.tick(); // unanswered past the recall time: recalled
      transfers.tick(); // seen recalling
      Date.now = () => wall() + DAY;
      transfers.tick();
      assert.deepEqual(
        transfers.openRows().map((o) => [o.phase, o.answers, o.settleable]),
        [['recalling', true, false]],
      );
    } finally {
      Date.now = wall;
      transfers.stop();
      ledger.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
