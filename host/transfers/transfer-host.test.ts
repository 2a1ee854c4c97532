import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesOfTypes, Ledger, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { TableId } from '../../terms/transfer-terms.js';
import { LedgerTransferJournal } from './ledger-journal.js';
import { ALARM_BUDGET, ALARM_WINDOW_MS, TransferHost } from './transfer-host.js';
import { refusingOnce } from '../testing/refusing-ledger.js';

// A host's alarms at a lying peer are security events: journalled (synced upstream, kept for
// ever), so a flood of lies is kept to a budget per link a minute, and what the budget left out is
// summed up at the first tick after the minute, each reason named.

const HOME = TableId.parse('home');
const WAR = TableId.parse('war');

function host() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: 'home' });
  const raised: string[] = [];
  const sent: unknown[] = [];
  const clock = { ms: 1_000_000 };
  const h = new TransferHost({
    now: () => clock.ms,
    self: HOME,
    currency: 'MOP',
    homes: { 3: HOME },
    journal: new LedgerTransferJournal(ledger),
    send: (out) => void sent.push(out.message),
    alarm: (a) => raised.push(a.reason),
  });
  const alarms = () => [...entriesOfTypes(ledger, ['transfer.alarm'])].map((e) => (JSON.parse(e.body) as EntryBody).payload);
  return { ledger, h, raised, sent, alarms, clock };
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

  it('a flood within a minute journals only the budget; the first tick after the minute journals one more that counts the rest, each reason named', () => {
    const { h, raised, alarms, clock } = host();
    for (let i = 0; i < 1000; i++) h.receive(WAR, { kind: 'junk', i });
    // After the junk, a lie of another kind: past the budget too.
    h.receive(WAR, { kind: 'taken', transfer: { id: { origin: HOME, serial: 9 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 100 } });
    assert.equal(raised.length, 1001);
    assert.equal(alarms().length, ALARM_BUDGET);
    // A tick within the minute: nothing more journalled.
    clock.ms += ALARM_WINDOW_MS - 1;
    h.tick();
    assert.equal(alarms().length, ALARM_BUDGET);
    // The peer says nothing more: the first tick after the minute alone sums up what was left out.
    clock.ms += 1;
    h.tick();
    const all = alarms();
    assert.equal(all.length, ALARM_BUDGET + 1);
    const sum = all[ALARM_BUDGET];
    assert.equal(sum?.suppressed, 1001 - ALARM_BUDGET);
    assert.equal(sum?.reason, 'unknown-transfer', 'the last left out');
    assert.match(String(sum?.detail), /malformed 980, unknown-transfer 1/);
    // A new budget after the minute; a quiet minute journals nothing.
    h.receive(WAR, null);
    clock.ms += ALARM_WINDOW_MS;
    h.tick();
    assert.equal(alarms().length, ALARM_BUDGET + 2);
    assert.equal(alarms()[ALARM_BUDGET + 1]?.suppressed, undefined);
  });

  it('a host stopping within the minute sums up what the budget left out before it goes (the lie after the junk is never lost)', () => {
    const { h, alarms } = host();
    for (let i = 0; i < ALARM_BUDGET; i++) h.receive(WAR, { kind: 'junk', i });
    h.receive(WAR, { kind: 'taken', transfer: { id: { origin: HOME, serial: 9 }, currency: 'MOP', station: 3, from: HOME, to: WAR, amount: 100 } });
    assert.equal(alarms().length, ALARM_BUDGET);
    h.sumUpAll();
    const sum = alarms()[ALARM_BUDGET];
    assert.deepEqual([sum?.reason, sum?.suppressed], ['unknown-transfer', 1]);
    h.sumUpAll();
    assert.equal(alarms().length, ALARM_BUDGET + 1, 'once');
  });

  it('a hostile link that lies on every tick for ten minutes (a tick a second): at most the budget and one summary a minute', () => {
    const { h, raised, alarms, clock } = host();
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 30; i++) h.receive(WAR, { kind: 'junk', i });
      clock.ms += 1_000;
      h.tick();
    }
    assert.equal(raised.length, 600 * 30);
    const all = alarms();
    assert.ok(all.length <= 10 * (ALARM_BUDGET + 1), `${all.length} alarms journalled in ten minutes`);
    // Nothing is lost: the journalled alarms and the summaries' counts are every alarm raised.
    const counted = all.reduce((n, p) => n + (typeof p.suppressed === 'number' ? p.suppressed : 1), 0);
    assert.equal(counted, raised.length);
  });
});

describe('transfers: a step whose alarm the journal refuses (a full disk)', () => {
  // WAR offers the credit of a station this table does not have: the step journals the refusal,
  // answers it and raises `unknown-station`. The alarm goes in the step's own transaction.
  const offer = { kind: 'offer', transfer: { id: { origin: WAR, serial: 7 }, currency: 'MOP', station: 9, from: WAR, to: HOME, amount: 100 } };
  const refusals = (ledger: Ledger) => [...entriesOfTypes(ledger, ['transfer.refuse'])].length;

  it('is the whole step refused, nothing sent; the peer asks again and gets its answer with the alarm journalled, once each', () => {
    const { ledger, h, sent, alarms } = host();
    refusingOnce(ledger, 'transfer.alarm');
    assert.throws(() => h.receive(WAR, offer), /SQLITE_FULL/, 'the journal refused (the link guard logs it: nothing sent)');
    assert.deepEqual([refusals(ledger), alarms().length, sent.length], [0, 0, 0], 'neither the refusal nor its alarm nor its answer');
    h.receive(WAR, offer);
    assert.deepEqual(
      alarms().map((p) => p.reason),
      ['unknown-station'],
      'the alarm journalled',
    );
    assert.equal(refusals(ledger), 1);
    assert.deepEqual(sent, [{ kind: 'refused', id: offer.transfer.id, reason: 'unknown-station' }], 'answered once');
    assert.deepEqual(verifyLedger(ledger).problems, []);
  });
});
