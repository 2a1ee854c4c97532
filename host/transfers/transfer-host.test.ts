import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesOfTypes, Ledger, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { ALARM_BUDGET, TransferHost } from './transfer-host.js';

// A host's alarms at a lying peer are security events: journalled (synced upstream, kept for
// ever), so a flood of lies is kept to a budget per link between two ticks, and what the budget
// left out is summed up at the next tick, each reason named.

const HOME = TableId.parse('home');
const WAR = TableId.parse('war');

function host() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'home' });
  const raised: string[] = [];
  const h = new TransferHost({
    self: HOME,
    currency: 'MOP',
    homes: { 3: HOME },
    journal: new LedgerTransferJournal(ledger),
    send: () => {},
    alarm: (a) => raised.push(a.reason),
  });
  const alarms = () => [...entriesOfTypes(ledger, ['transfer.alarm'])].map((e) => (JSON.parse(e.body) as EntryBody).payload);
  return { ledger, h, raised, alarms };
}

describe('transfers: a host journals its alarms', () => {
  it('a lie is journalled as a transfer.alarm naming the link, the reason and the id', () => {
    const { ledger, h, alarms } = host();
    h.receive(WAR, { kind: 'taken', transfer: { id: { origin: HOME, serial: 5 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 100 } });
    assert.deepEqual(
      alarms().map((p) => [p.link, p.reason, p.id]),
      [[WAR, 'unknown-transfer', { origin: HOME, serial: 5 }]],
    );
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });

  it('a flood between two ticks journals only the budget; the tick journals one more that counts the rest, each reason named', () => {
    const { h, raised, alarms } = host();
    for (let i = 0; i < 1000; i++) h.receive(WAR, { kind: 'junk', i });
    // After the junk, a lie of another kind: past the budget too.
    h.receive(WAR, { kind: 'taken', transfer: { id: { origin: HOME, serial: 9 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 100 } });
    assert.equal(raised.length, 1001);
    assert.equal(alarms().length, ALARM_BUDGET);
    // The peer says nothing more: the tick alone sums up what was left out.
    h.tick();
    const all = alarms();
    assert.equal(all.length, ALARM_BUDGET + 1);
    const sum = all[ALARM_BUDGET];
    assert.equal(sum?.suppressed, 1001 - ALARM_BUDGET);
    assert.equal(sum?.reason, 'unknown-transfer', 'the last left out');
    assert.match(String(sum?.detail), /malformed 980, unknown-transfer 1/);
    // A new budget after the tick; a quiet tick journals nothing.
    h.receive(WAR, null);
    h.tick();
    assert.equal(alarms().length, ALARM_BUDGET + 2);
    assert.equal(alarms()[ALARM_BUDGET + 1]?.suppressed, undefined);
  });
});
