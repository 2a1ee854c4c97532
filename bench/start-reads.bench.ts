// The reads a table host makes once at its start over every entry of a type (a review of what
// grows over weeks, L5): the tickets in print, the open faults, SAS system validation's last
// requests, the back office's orders and the configuration changes, the credentials of remote
// stations and peers, the transfers, and the others of their kind. Each walks its type's entries
// through the type index, so its cost is the count of its type, not of the journal. On a journal
// such as bench/ticket-log.bench.ts keeps (BENCH_START_READS_FILE; else a small synthetic one), a
// month of each type is added once (a busy table's, generously: 50 faults a day, 250 SAS system
// validations, 10 setting changes, 100 transfers out, a few credentials), then each read is timed
// on a ledger opened afresh (its first read, as at a start) and again (warm), mean of 5.
// Baseline in the same run: a bare SQLite scan of the whole journal (every row, no parsing), the
// floor of anything that reads it all; each read is printed as a share of it, so a read that grows
// with the journal rather than its own type shows as a share near 1. The figures decide whether a
// read needs an index (docs/ledger.md).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NewEntry } from '../ledger/entries.js';
import {
  answeredOrders,
  configChanges,
  newestOrderMade,
  openServiceSessions,
  openTilts,
  pendingHandpays,
  pendingTableHold,
  serviceDisabledDevices,
  unresolvedEscrows,
} from '../ledger/floor-queries.js';
import { entryCount } from '../ledger/journal-queries.js';
import { Ledger } from '../ledger/ledger.js';
import { bareScanRowsPerSecond } from '../ledger/testing/bare-commits.js';
import { lastValidationRequests } from '../ledger/system-validation-queries.js';
import { systemEnd, systemRequest } from '../ledger/ticket-fixtures.js';
import { ticketMachineIds, ticketsInOpenWalked, ticketsInPrint } from '../ledger/ticket-queries.js';
import { appendSynthetic } from '../ledger/testing/synthetic.js';
import { journalledPeers, offerHistory } from '../host/peers/peer-journal.js';
import { ledgerStationJournal } from '../host/stadium/credential-journal.js';
import { LedgerTransferJournal } from '../host/transfers/ledger-journal.js';
import { TableId, transferTxId, type Transfer } from '../terms/transfer-terms.js';
import { loadAverage, QUICK } from './report.js';

const DAYS = QUICK ? 1 : 30;
const given = process.env.BENCH_START_READS_FILE;
const dir = given ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-start-reads-'));
const file = given ?? path.join(dir ?? '', 'ledger.db');
const rid = (n: number) => `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`;
const hex = (s: string, n: number) => createHash('sha256').update(s).digest('hex').slice(0, n);
const HOME = TableId.parse('home');
const WAR = TableId.parse('war');

/** A month of each type the start reads, in batches of a day. */
function addMonth(ledger: Ledger): void {
  for (let d = 0; d < DAYS; d++) {
    const day: NewEntry[] = [];
    for (let i = 0; i < 50; i++) {
      const seq = ledger.headOf().seq + day.length + 1;
      day.push({ type: 'tilt.raise', payload: { kind: 'bill-jam', station: 1 + (i % 6) } });
      day.push({ type: 'tilt.clear', payload: { kind: 'bill-jam', station: 1 + (i % 6), raisedSeq: seq, automatic: true } });
    }
    for (let i = 0; i < 250; i++) {
      const n = d * 250 + i + 1;
      day.push(systemRequest(rid(n), 1 + (i % 6), 1_000), systemEnd(rid(n), 'denied', undefined, 1 + (i % 6)));
    }
    for (let i = 0; i < 10; i++)
      day.push({ type: 'config.change', payload: { who: 'tech-1', authorisation: 'DICJ-42', key: 'minBet', before: 1000 + i, after: 1001 + i } });
    for (let i = 0; i < 100; i++) {
      const t: Transfer = { id: { origin: HOME, serial: d * 100 + i + 1 }, currency: 'MOP', station: 1 + (i % 6), from: HOME, to: WAR, amount: 10 };
      day.push({ type: 'transfer.out', txId: transferTxId('out', t.id), payload: { transfer: t } });
      day.push({ type: 'transfer.complete', txId: transferTxId('close', t.id), payload: { transfer: t } });
    }
    if (d % 10 === 0) {
      day.push({ type: 'station.credential', payload: { station: 1 + d / 10, action: 'enrol', by: ['Bo Chan'], credential: hex(`s${d}`, 64) } });
      day.push({ type: 'peer.credential', payload: { table: WAR, action: 'enrol', by: ['Bo Chan'], digest: hex(`p${d}`, 64) } });
    }
    ledger.appendMany(day);
  }
  // A few left open, as a start may find them.
  ledger.appendMany([{ type: 'tilt.raise', payload: { kind: 'bill-jam', station: 2 } }, systemRequest(rid(999_999), 3, 500)]);
}

const setup = Ledger.open({ file, terminalId: 'T-BENCH' });
if (setup.headOf().seq === 0) appendSynthetic(setup, QUICK ? 5_000 : 50_000);
if (entryCount(setup, ['ticket.validation.request']) === 0) addMonth(setup);
const head = setup.headOf().seq;
const counts = Object.fromEntries(
  (['ticket.issue', 'ticket.redeem.request', 'tilt.raise', 'ticket.validation.request', 'config.change', 'transfer.out', 'bill.escrow'] as const).map((t) => [
    t,
    entryCount(setup, [t]),
  ]),
);
setup.close();
console.log(`load average ${loadAverage()}`);
console.log(`journal: ${head} entries; of the types read: ${JSON.stringify(counts)}`);

const reads: [string, (l: Ledger) => unknown][] = [
  ['tickets in print (ticketsInPrint)', ticketsInPrint],
  ['ticket machine ids (ticketMachineIds)', ticketMachineIds],
  ['open ticket-in attempts, the whole walk (ticketsInOpenWalked)', ticketsInOpenWalked],
  ['open faults (openTilts)', openTilts],
  ['last SAS validation requests (lastValidationRequests)', lastValidationRequests],
  ['orders answered (answeredOrders)', answeredOrders],
  ['newest order per setting (newestOrderMade)', newestOrderMade],
  ['configuration changes (configChanges)', configChanges],
  ['station credentials (ledgerStationJournal.read)', (l) => ledgerStationJournal(l).read()],
  ['peer credentials (journalledPeers)', journalledPeers],
  ['peer offers (offerHistory)', offerHistory],
  ['transfers (LedgerTransferJournal.entries)', (l) => [...new LedgerTransferJournal(l).entries()]],
  ['open escrows (unresolvedEscrows)', unresolvedEscrows],
  ['pending handpays (pendingHandpays)', pendingHandpays],
  ['open service sessions (openServiceSessions)', openServiceSessions],
  ['devices disabled in service (serviceDisabledDevices)', serviceDisabledDevices],
  ['pending table hold (pendingTableHold)', pendingTableHold],
];

const bare = bareScanRowsPerSecond(file);
console.log(`baseline: a bare SQLite scan of the whole journal, ${bare.rows} rows in ${bare.ms.toFixed(1)} ms`);
const ledger = Ledger.open({ file, terminalId: 'T-BENCH' });
console.log('read                                                            first ms   warm ms (mean of 5)   first / bare scan');
for (const [name, read] of reads) {
  let t = performance.now();
  read(ledger);
  const first = performance.now() - t;
  let warm = 0;
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    read(ledger);
    warm += performance.now() - t;
  }
  const share = `${((first / bare.ms) * 100).toFixed(1)} %`;
  console.log(`  ${name.padEnd(62)} ${first.toFixed(2).padStart(8)} ${(warm / 5).toFixed(2).padStart(9)} ${share.padStart(19)}`);
}
ledger.close();
if (dir) rmSync(dir, { recursive: true, force: true });
