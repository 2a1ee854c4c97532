import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesOfTypes, Ledger, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { ALARM_BUDGET, TransferHost } from './transfer-host.js';

// A host's alarms at a lying peer are security events: journalled (synced upstream, kept for
// ever), so a flood of lies is kept to a budget per link between two ticks, and what the budget
// left out is counted on the next one journalled.

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

  it('a flood between two ticks journals only the budget; the next one journalled counts the rest', () => {
    const { h, raised, alarms } = host();
    for (let i = 0; i < 1000; i++) h.receive(WAR, { kind: 'junk', i });
    assert.equal(raised.length, 1000);
    assert.equal(alarms().length, ALARM_BUDGET);
    h.tick();
    h.receive(WAR, null);
    const all = alarms();
    assert.equal(all.length, ALARM_BUDGET + 1);
    assert.equal(all[ALARM_BUDGET]?.suppressed, 1000 - ALARM_BUDGET);
  });
});
