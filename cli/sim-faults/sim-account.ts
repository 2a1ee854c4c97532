import { verifyLedger, type EntryBody, type Ledger } from '../../ledger/index.js';
import type { FakeUpstream } from './fake-upstream.js';
import type { AcceptorTruth } from '../fake-acceptor/fake-acceptor.js';
import { notesConserved, stackedCredited } from '../fake-acceptor/note-invariants.js';
import type { Host, SimResult } from './sim-run.js';

// The end of a fault simulation (cli/sim-faults/simulate.ts): the invariants over the whole
// journal, the devices' truth and the upstream.

/** Rounds settled or voided in the journal. */
export function closedRounds(l: Ledger): number {
  let n = 0;
  const head = l.headOf().seq;
  for (let s = 1; s <= head; s++) {
    const e = l.entry(s);
    if (e && (e.type === 'round.settle' || e.type === 'round.void')) n++;
  }
  return n;
}

/** The invariants over the whole journal, the devices' truth and the upstream. */
export function account(host: Host, truths: Map<number, AcceptorTruth>, upstream: FakeUpstream, violations: string[]): SimResult['notes'] {
  const l = host.ledger;
  const head = l.headOf().seq;
  const settled = new Map<string, number>();
  const credits = new Map<string, number>();
  let creditedAmount = 0;
  for (let s = 1; s <= head; s++) {
    const e = l.entry(s);
    if (!e) {
      violations.push(`journal entry ${s} is missing`);
      continue;
    }
    if ((e.type === 'round.settle' || e.type === 'round.void') && e.roundId) settled.set(e.roundId, (settled.get(e.roundId) ?? 0) + 1);
    // The simulated acceptors are honest: the credit rule refusing one of their notes is a bug of the rule.
    if (e.type === 'bill.refused')
      violations.push(`an honest acceptor's note was refused (entry ${e.seq}): ${JSON.stringify((JSON.parse(e.body) as EntryBody).payload)}`);
    if (e.type === 'bill.credit') {
      const body = JSON.parse(e.body) as EntryBody;
      const key = e.txId ?? `(no txId at ${e.seq})`;
      credits.set(key, (credits.get(key) ?? 0) + 1);
      creditedAmount += typeof body.payload.denomination === 'number' ? body.payload.denomination : 0;
    }
  }
  for (const [round, n] of settled) if (n > 1) violations.push(`round ${round} settled or voided ${n} times`);
  // Every note stacked is credited exactly once; no credit without a stacked note; the money conserved.
  const { stacked, stackedAmount, lost, duplicated } = stackedCredited(truths.values(), credits, violations);
  notesConserved(l, [...truths.keys()], stackedAmount, violations);
  if (!verifyLedger(l).ok) violations.push('the ledger does not verify from its first entry');
  // The upstream holds exactly the local journal.
  if (upstream.entries.length !== head) violations.push(`the upstream holds ${upstream.entries.length} entries, the journal ${head}`);
  for (const u of upstream.entries) {
    const mine = l.entry(u.seq);
    if (!mine || mine.hash !== u.hash) violations.push(`the upstream's entry ${u.seq} is not the journal's`);
  }
  for (const a of upstream.stats.alarms) violations.push(`upstream alarm: ${a}`);
  return { stacked, stackedAmount, credited: [...credits.values()].reduce((a, b) => a + b, 0), creditedAmount, duplicated, lost };
}
