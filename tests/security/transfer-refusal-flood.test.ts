// A peer floods a table's ledger with id-spending refusals (review, MEDIUM). A recall of an id its
// receiver never saw is refused for ever, journalled (`transfer.refuse`, reason `recalled`) so that
// the offer still on the wire is refused too; so a peer that recalled {origin: itself, serial: n}
// for n = 1, 2, 3… had one durable commit per message (2,000 recalls: 2,000 entries, 0 alarms,
// the event loop blocked 3.9 s), and offers it knew would be refused the same (journalled even when
// the alarm was over budget). Now a link may have at most SPARE_REFUSALS ids refused here beyond the
// transfers it had taken here: past that a recall or an offer this table would refuse is neither
// journalled nor answered (nothing is spent: the honest sender asks again and never reverses
// unanswered), and it is an alarm, within the link's budget. The honest case — a recall of an id
// whose offer was lost on the wire, whatever its serial — still gets its durable refusal. A host
// started again from the same journal gives the same answers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Outbound } from '../../host/transfers/effects.js';
import { LedgerTransferJournal } from '../../host/transfers/ledger-journal.js';
import { SPARE_REFUSALS } from '../../host/transfers/receiver.js';
import { ALARM_BUDGET, TransferHost } from '../../host/transfers/transfer-host.js';
import { entriesOfTypes, Ledger, verifyLedger } from '../../ledger/index.js';
import { TableId, type Transfer } from '../../terms/transfer-terms.js';

const V = TableId.parse('bj-1');
const W = TableId.parse('war-1');
/** Homed at V: its credit may come to W. */
const AT_V = 101;

function victim() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: W });
  const wire: Outbound[] = [];
  const journal = new LedgerTransferJournal(ledger);
  const open = () => new TransferHost({ self: W, currency: 'MOP', homes: { [AT_V]: V }, journal, send: (o) => wire.push(o), alarm: () => {} });
  const count = (type: 'transfer.refuse' | 'transfer.alarm' | 'transfer.in') => [...entriesOfTypes(ledger, [type])].length;
  return { ledger, wire, open, count };
}

const offer = (serial: number, over: Partial<Transfer> = {}): Transfer => ({
  id: { origin: V, serial },
  currency: 'MOP',
  station: AT_V,
  from: V,
  to: W,
  amount: 100,
  ...over,
});

describe('a peer that recalls ids it never offered, or offers what is refused, in bulk', () => {
  it('2,000 recalls of ids never offered: at most SPARE_REFUSALS refusals journalled, the rest unanswered and raised', () => {
    const { ledger, wire, open, count } = victim();
    const w = open();
    const t0 = performance.now();
    for (let n = 1; n <= 2000; n++) w.receive(V, { kind: 'recall', id: { origin: V, serial: n } });
    const ms = performance.now() - t0;
    console.log(`2,000 recalls: ${count('transfer.refuse')} refusals and ${count('transfer.alarm')} alarms journalled in ${ms.toFixed(0)} ms`);
    assert.equal(count('transfer.refuse'), SPARE_REFUSALS);
    assert.equal(wire.length, SPARE_REFUSALS, 'only what was journalled is answered');
    assert.equal(count('transfer.alarm'), ALARM_BUDGET, 'the rest raised, within the budget');
    // A restart gives the same answers: a refused id is refused again, one left unanswered is still unanswered.
    wire.length = 0;
    const again = open();
    again.receive(V, { kind: 'recall', id: { origin: V, serial: 5 } });
    again.receive(V, { kind: 'recall', id: { origin: V, serial: 1500 } });
    assert.deepEqual(wire, [{ to: V, message: { kind: 'refused', id: { origin: V, serial: 5 }, reason: 'recalled' } }]);
    assert.equal(count('transfer.refuse'), SPARE_REFUSALS);
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });

  it('2,000 offers this table refuses (another currency): at most SPARE_REFUSALS journalled, the rest unanswered, never taken', () => {
    const { wire, open, count, ledger } = victim();
    const w = open();
    for (let n = 1; n <= 2000; n++) w.receive(V, { kind: 'offer', transfer: offer(n, { currency: 'HKD' }) });
    assert.equal(count('transfer.refuse'), SPARE_REFUSALS);
    assert.equal(wire.length, SPARE_REFUSALS);
    assert.equal(count('transfer.in'), 0);
    assert.equal(ledger.credit(AT_V), 0);
  });

  it('the honest case: a recall of a lost offer gets its durable refusal, whatever its serial; each transfer taken from the link allows one more', () => {
    const { wire, open, count } = victim();
    const w = open();
    // V's first transfer to W is its 1,000th (its serials are its own, across all its peers); the offer was lost.
    w.receive(V, { kind: 'recall', id: { origin: V, serial: 1000 } });
    assert.deepEqual(wire.splice(0), [{ to: V, message: { kind: 'refused', id: { origin: V, serial: 1000 }, reason: 'recalled' } }]);
    assert.equal(count('transfer.refuse'), 1);
    // The allowance spent by a flood, an honest transfer taken lets one more refusal through.
    for (let n = 1; n < SPARE_REFUSALS; n++) w.receive(V, { kind: 'recall', id: { origin: V, serial: 2000 + n } });
    wire.length = 0;
    w.receive(V, { kind: 'recall', id: { origin: V, serial: 3001 } });
    assert.deepEqual(wire.splice(0), [], 'past the allowance: unanswered');
    w.receive(V, { kind: 'offer', transfer: offer(3002) });
    assert.equal(wire.splice(0)[0]?.message.kind, 'taken');
    w.receive(V, { kind: 'recall', id: { origin: V, serial: 3001 } });
    assert.deepEqual(wire.splice(0), [{ to: V, message: { kind: 'refused', id: { origin: V, serial: 3001 }, reason: 'recalled' } }]);
  });

  it('the alarm budget’s minute is measured on the monotonic clock: a wall clock stepped back an hour at every reading still sums up a flood within the minute', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: W });
    const clock = { ms: 1_000_000 };
    let readings = 0;
    const w = new TransferHost({
      self: W,
      currency: 'MOP',
      homes: { [AT_V]: V },
      journal: new LedgerTransferJournal(ledger),
      send: () => {},
      alarm: () => {},
      now: () => Date.UTC(2026, 11, 5) - 3_600_000 * ++readings,
      monotonic: () => clock.ms,
    });
    const alarms = () => [...entriesOfTypes(ledger, ['transfer.alarm'])].map((e) => (JSON.parse(e.body) as { payload: { suppressed?: number } }).payload);
    try {
      for (let i = 0; i < ALARM_BUDGET + 5; i++) w.receive(V, { kind: 'junk', i });
      assert.equal(alarms().length, ALARM_BUDGET);
      clock.ms += 61_000;
      w.tick();
      assert.equal(alarms().at(-1)?.suppressed, 5, 'the five past the budget, summed up at the minute’s end');
    } finally {
      ledger.close();
    }
  });
});
