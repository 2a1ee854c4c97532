// A rule set switched at a shoe journals its `config.change` and a `rules.record` naming it by seq
// and carrying its authorisation's day. Both used to be predicted before the transaction (the head
// read plus one, the host's `new Date()`): another process writing the journal meanwhile (the
// accounts' command line, its own connection) or midnight passing made the record name another
// entry's seq, or a day its change was not written on. Both are now read from the change as written.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { openLedger, PAYLOADS, verifyLedger, type JournalEntry, type Ledger } from '../../ledger/index.js';
import { journalOf } from '../testing/remote-orders.js';
import { ConfigChanges } from './config-changes.js';
import { macauDay } from './macau-time.js';
import { simulatedTableConfig, TableConfig } from './table-config.js';

const BY = { who: 'ana', witness: 'rui', authorisation: 'DICJ-2026/R' };
const log = pino({ level: 'silent' });
const dir = mkdtempSync(path.join(os.tmpdir(), 'rule-switch-seq-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function switching(ledger: Ledger): ConfigChanges {
  return new ConfigChanges({
    config: TableConfig.parse(simulatedTableConfig('baccarat', 'macau-commission')),
    ledger,
    log,
    bets: ['banker', 'player', 'tie'],
    betweenRounds: () => true,
    ruleSwitch: { refusal: () => null, switchTo: () => undefined },
  });
}

/** The switch's change and the payload of the record that names a change. */
function written(ledger: Ledger) {
  const journal = journalOf(ledger);
  const change = journal.find((e) => e.type === 'config.change') as JournalEntry;
  const entry = journal.find((e) => e.type === 'rules.record' && (JSON.parse(e.body) as { payload: { cause?: string } }).payload.cause === 'config.change');
  const record = PAYLOADS['rules.record'].parse((JSON.parse((entry as JournalEntry).body) as { payload: unknown }).payload);
  return { change, record };
}

describe("a rule set's switch: its record names the change as written", () => {
  it('a second connection writes just before the switch is journalled: the record names the change, not the other entry', () => {
    const sub = mkdtempSync(path.join(dir, 'second-'));
    const host = openLedger(sub, 'T-SWITCH-SEQ');
    const tool = openLedger(sub, 'T-SWITCH-SEQ');
    try {
      // The accounts' command line writes between the host's last look at the head and its write.
      const appendMany = host.appendMany.bind(host);
      host.appendMany = (...args: Parameters<Ledger['appendMany']>) => {
        tool.append({ type: 'service.action', payload: { who: 'tool', action: 'sync-retry', detail: 'meanwhile' } });
        host.appendMany = appendMany;
        return appendMany(...args);
      };
      const r = switching(host).switchRuleSet('profile', 'macau-no-commission', BY);
      assert.ok(r.ok, JSON.stringify(r));
      const { change, record } = written(host);
      assert.equal(r.seq, change.seq);
      assert.equal(record.changeSeq, change.seq, 'the record names its change');
      assert.equal(verifyLedger(host).ok, true);
    } finally {
      tool.close();
      host.close();
    }
  });

  it("the journal's clock past midnight while the host's day is still the one before: the record's day is its change's", () => {
    const sub = mkdtempSync(path.join(dir, 'midnight-'));
    // The entry is stamped one second into tomorrow (Macau's, the day the host reads); the host reads today.
    const tomorrow = new Date(Date.parse(`${macauDay(Date.now())}T00:00:01+08:00`) + 86_400_000);
    const ledger = openLedger(sub, 'T-SWITCH-DAY', { clock: () => tomorrow });
    try {
      const r = switching(ledger).switchRuleSet('profile', 'macau-no-commission', BY);
      assert.ok(r.ok, JSON.stringify(r));
      const { change, record } = written(ledger);
      assert.equal(change.ts, tomorrow.toISOString());
      assert.notEqual(macauDay(Date.parse(change.ts)), macauDay(Date.now()));
      assert.equal(record.effective, macauDay(Date.parse(change.ts)), "the record's day is the day its change was written");
      assert.equal(record.changeSeq, change.seq);
      assert.equal(verifyLedger(ledger).ok, true);
    } finally {
      ledger.close();
    }
  });

  it("a switch at 04:00 in Macau (20:00 UTC the day before): the record's day is Macau's, the day it is checked against", () => {
    const sub = mkdtempSync(path.join(dir, 'macau-day-'));
    // Macau's day is the one a live table's authorisation is checked against (macauDay): a record
    // dated by its entry's UTC date named the day before for the first 8 hours of each day.
    const at = new Date('2026-12-06T20:00:00.000Z');
    const ledger = openLedger(sub, 'T-SWITCH-MACAU', { clock: () => at });
    try {
      const r = switching(ledger).switchRuleSet('profile', 'macau-no-commission', BY);
      assert.ok(r.ok, JSON.stringify(r));
      const { change, record } = written(ledger);
      assert.equal(change.ts, at.toISOString());
      assert.equal(record.effective, '2026-12-07', "the record's day is Macau's day of its change");
      assert.equal(macauDay(Date.parse(change.ts)), '2026-12-07');
    } finally {
      ledger.close();
    }
  });
});
