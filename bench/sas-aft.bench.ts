// SAS long poll 0x72's interrogation (a review: F1): a transfer's position in the history buffer
// and its direction's cumulative amount. Before migration 10 each row counted and summed every AFT
// entry of the journal (two subqueries reading each body), and an absolute index (01–7F) read the
// newest 127 rows: ~2 s a poll at 10,000 AFT entries, in the port's data handler. Migration 10
// keeps both per transfer (`aft_transfers`, ledger/aft-index.ts). On one in-memory ledger of
// 10,000 AFT entries of one station (and as many notes of others), in the same run: the scan's
// query as it was (ledger/testing/aft-scan.ts, the baseline) and the station's interrogation now,
// for an absolute index (FF 01) and the deepest relative one (FF FF). Both give the same rows.
import { performance } from 'node:perf_hooks';
import { StationAft } from '../host/devices/sas-aft.js';
import { billCredit } from '../ledger/fixtures.js';
import { Ledger } from '../ledger/ledger.js';
import { aftTransfersByScan } from '../ledger/testing/aft-scan.js';
import { figure, loadAverage, QUICK } from './report.js';

const TRANSFERS = QUICK ? 1_000 : 10_000;
const ROUNDS = QUICK ? 2 : 5;
const STATION = 1;

const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-BENCH' });
const batch = [];
for (let i = 0; i < TRANSFERS; i++) {
  const type = i % 3 === 2 ? ('aft.out' as const) : ('aft.in' as const);
  batch.push({ type, payload: { station: STATION, transactionId: `T${i}`, amount: 100, requested: 100, assetNumber: 7 }, txId: `aft:${STATION}:T${i}` });
  batch.push(billCredit(2 + (i % 5), 100, `note-${i}`));
  if (batch.length >= 500) ledger.appendMany(batch.splice(0));
}
if (batch.length > 0) ledger.appendMany(batch.splice(0));
console.log(`load average ${loadAverage()}`);
console.log(`journal: ${ledger.headOf().seq} entries, ${TRANSFERS} AFT transfers of station ${STATION}`);

const aft = new StationAft({
  ledger,
  station: STATION,
  assetNumber: 7,
  limit: 1_000_000,
  refuseIn: () => null,
  refuseOut: () => null,
  local: () => ({ year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0 }),
});

function mean(fn: () => unknown): number {
  const t = performance.now();
  for (let i = 0; i < ROUNDS; i++) fn();
  return (performance.now() - t) / ROUNDS;
}

// The same answers first: the deepest relative index and the absolute index 1.
const scanDeep = aftTransfersByScan(ledger, STATION, 126, 1)[0];
const deep = aft.interrogate(0xff);
if (!scanDeep || deep?.cumulative !== scanDeep.cumulative) throw new Error('the scan and the index disagree at FF');

const before = { absolute: mean(() => aftTransfersByScan(ledger, STATION, 0, 127)), relative: mean(() => aftTransfersByScan(ledger, STATION, 126, 1)) };
const after = { absolute: mean(() => aft.interrogate(0x01)), relative: mean(() => aft.interrogate(0xff)) };
const note = `${TRANSFERS} AFT entries`;
figure({
  name: '0x72 interrogation, absolute index',
  unit: 'ms',
  value: after.absolute,
  better: 'lower',
  baseline: { name: 'scan (before migration 10)', value: before.absolute },
  note,
});
figure({
  name: '0x72 interrogation, relative FF',
  unit: 'ms',
  value: after.relative,
  better: 'lower',
  baseline: { name: 'scan (before migration 10)', value: before.relative },
  note,
});
// The ratio (after ÷ before) is thousands of times below 1: said the other way round, it reads.
const faster = (was: number, now: number) => `${Math.round(was / Math.max(now, 1e-6)).toLocaleString('en')}× faster than the scan`;
console.log(`0x72 interrogation over ${TRANSFERS} AFT entries (mean of ${ROUNDS}):`);
console.log(
  `  absolute index (01): before ${before.absolute.toFixed(1)} ms, after ${after.absolute.toFixed(3)} ms; ${faster(before.absolute, after.absolute)}`,
);
console.log(
  `  relative index (FF): before ${before.relative.toFixed(1)} ms, after ${after.relative.toFixed(3)} ms; ${faster(before.relative, after.relative)}`,
);
ledger.close();
