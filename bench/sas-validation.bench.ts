// SAS long poll 0x58's lookup (issue 48): before it is answered the station asks whether the
// casino system's validation number was seen before (validationNumberSeen,
// ledger/system-validation-queries.ts). It read every `ticket.validation.end` and
// `ticket.redeem.request` entry's body (a JSON read of each); migration 9 indexes the number over
// those two types (`journal_validation`). On one in-memory ledger of ~50,000 entries (two in five
// of them ticket redemptions, the rest notes), the same lookups, in the same run: first with the
// index dropped (the query before migration 9, the baseline), then with it made again. Half the
// numbers asked were seen (spread through the journal), half never (the common 0x58: a new number).
// The rest of 0x58's answer (the journalled end, the reply's bytes) is not in these figures.
import { performance } from 'node:perf_hooks';
import { Ledger } from '../ledger/ledger.js';
import { billCredit } from '../ledger/fixtures.js';
import { validationNumberSeen } from '../ledger/system-validation-queries.js';
import { redeemRequest } from '../ledger/ticket-fixtures.js';
import { dropValidationIndex, makeValidationIndex } from '../ledger/testing/validation-index.js';
import { validationNumber } from '../terms/validation-number.js';
import { figure, loadAverage, QUICK } from './report.js';

const ENTRIES = QUICK ? 5_000 : 50_000;
const LOOKUPS = QUICK ? 50 : 200;
const MACHINE = 4242;

const ledger = Ledger.open({ file: ':memory:', terminalId: 'T-BENCH' });
const t0 = performance.now();
const batch = [];
let tickets = 0;
for (let i = 0; i < ENTRIES; i++) {
  if (i % 5 < 2) batch.push(redeemRequest(`request-${i}`, validationNumber(MACHINE, ++tickets), 1 + (i % 6)));
  else batch.push(billCredit(1 + (i % 6), 100, `note-${i}`));
  if (batch.length === 500) ledger.appendMany(batch.splice(0));
}
if (batch.length > 0) ledger.appendMany(batch.splice(0));
const head = ledger.headOf().seq;
console.log(`load average ${loadAverage()}`);
console.log(`journal: ${head} entries (${tickets} ticket redemptions) made in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

/** The numbers asked: alternately one seen (spread over the journal) and one never issued. */
const asked = Array.from({ length: LOOKUPS }, (_, i) =>
  i % 2 === 0 ? validationNumber(MACHINE, 1 + Math.floor((i / LOOKUPS) * tickets)) : validationNumber(MACHINE + 1, i + 1),
);

function run(): { perLookupMs: number; p99Ms: number; seen: number } {
  const each: number[] = [];
  let seen = 0;
  for (const v of asked) {
    const t = performance.now();
    if (validationNumberSeen(ledger, v)) seen++;
    each.push(performance.now() - t);
  }
  each.sort((a, b) => a - b);
  const sum = each.reduce((a, b) => a + b, 0);
  return { perLookupMs: sum / each.length, p99Ms: each[Math.floor(each.length * 0.99)] ?? 0, seen };
}

dropValidationIndex(ledger);
const before = run();
makeValidationIndex(ledger);
const after = run();
if (before.seen !== after.seen || before.seen !== LOOKUPS / 2) throw new Error(`the lookups disagree: ${before.seen} seen before, ${after.seen} after`);

const baseline = { name: 'scan (no index, before migration 9)', value: before.perLookupMs };
figure({ name: '0x58 lookup, mean', unit: 'ms', value: after.perLookupMs, better: 'lower', baseline, note: `${head} entries, ${tickets} redemptions` });
console.log(`0x58's lookup over ${head} entries, ${LOOKUPS} numbers (half seen):`);
console.log(`  before (scan):  mean ${before.perLookupMs.toFixed(4)} ms, p99 ${before.p99Ms.toFixed(4)} ms`);
console.log(`  after (index):  mean ${after.perLookupMs.toFixed(4)} ms, p99 ${after.p99Ms.toFixed(4)} ms`);
console.log(`  the index answers ${(before.perLookupMs / after.perLookupMs).toFixed(0)}× sooner (mean)`);
ledger.close();
