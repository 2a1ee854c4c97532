// A rule set switched at a shoe change (`ConfigChanges.switchRuleSet`) journals its `config.change`
// and the `rules.record` naming it. Written as two appends, a journal that refused the second (a disk
// filling up) left a change with no record of the rule set it put in force; now one batch: both or
// neither. And a switch journalled whose new game cannot be built (the table, stopped, refuses
// every input until it is started again) is answered as what it is: journalled, in force at the
// next start, a restart needed; not as a failure, nor thrown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger, PAYLOADS, type JournalEntry } from '../../ledger/index.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { TiltManager } from '../tilts/tilt-manager.js';
import { journalOf } from '../testing/remote-orders.js';
import { ConfigChanges, restoreRestartChanges } from './config-changes.js';
import { macauDay } from './macau-time.js';
import { simulatedTableConfig, TableConfig } from './table-config.js';

const BY = { who: 'ana', witness: 'rui', authorisation: 'DICJ-2026/R' };
const log = pino({ level: 'silent' });
const fresh = () => TableConfig.parse(simulatedTableConfig('baccarat', 'macau-commission'));

function table(switchTo: (c: TableConfig) => void = () => undefined, ledger = Ledger.open({ file: ':memory:', terminalId: 'T-RULE-SWITCH' })) {
  const config = fresh();
  const tilts = new TiltManager({ ledger, log });
  tilts.restore();
  const changes = new ConfigChanges({
    config,
    ledger,
    log,
    faults: tilts,
    bets: ['banker', 'player', 'tie'],
    betweenRounds: () => true,
    ruleSwitch: { refusal: () => null, switchTo },
  });
  const of = (type: string) => journalOf(ledger).filter((e) => e.type === type);
  /** Every batch the ledger is asked to write from now on, as its entries' types. */
  const seen: string[][] = [];
  const appendMany = ledger.appendMany.bind(ledger);
  ledger.appendMany = (es, then) => {
    const batch = es.map((e): string => e.type);
    seen.push(batch);
    // The entries made inside the transaction from those written are of the same batch.
    return appendMany(
      es,
      then &&
        ((written) => {
          const more = then(written);
          batch.push(...more.map((e) => e.type));
          return more;
        }),
    );
  };
  const append = ledger.append.bind(ledger);
  ledger.append = (e) => {
    seen.push([e.type]);
    return append(e);
  };
  return { ledger, config, changes, of, seen, tilts };
}

const payload = (e: JournalEntry | undefined) => (JSON.parse((e as JournalEntry).body) as { payload: Record<string, unknown> }).payload;

describe('a rule set switched at a shoe: its change and its record in one write', () => {
  it('journalled as one batch, the record naming the change and its day', () => {
    const t = table();
    const r = t.changes.switchRuleSet('profile', 'macau-no-commission', BY);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(t.seen, [['config.change', 'rules.record']]);
    const change = t.of('config.change')[0] as JournalEntry;
    const record = PAYLOADS['rules.record'].parse(payload(t.of('rules.record')[0]));
    assert.equal(record.changeSeq, change.seq);
    assert.equal(record.effective, macauDay(Date.parse(change.ts)));
    assert.equal(t.config.profile, 'macau-no-commission');
    t.ledger.close();
  });

  it('its record refused: neither journalled, the table on its rule set, a start too; asked again, both once', () => {
    const t = table();
    refusingOnce(t.ledger, 'rules.record');
    assert.throws(() => t.changes.switchRuleSet('profile', 'macau-no-commission', BY), /SQLITE_FULL/);
    assert.equal(t.of('config.change').length, 0, 'no change without its record');
    assert.equal(t.of('rules.record').length, 0);
    assert.equal(t.config.profile, 'macau-commission');
    const started = fresh();
    restoreRestartChanges(t.ledger, started, log);
    assert.equal(started.profile, 'macau-commission', 'a start opens the rule set in force');
    const r = t.changes.switchRuleSet('profile', 'macau-no-commission', BY);
    assert.ok(r.ok);
    assert.equal(t.of('config.change').length, 1);
    assert.equal(t.of('rules.record').length, 1);
    t.ledger.close();
  });
});

describe('a rule set switched whose new game cannot be built', () => {
  it('answered as journalled with a restart needed (its words by key), not thrown; a start opens it', () => {
    const t = table(() => {
      throw new Error('SQLITE_FULL: database or disk is full');
    });
    let r: ReturnType<ConfigChanges['switchRuleSet']> | 'threw';
    try {
      r = t.changes.switchRuleSet('profile', 'macau-no-commission', BY);
    } catch {
      r = 'threw';
    }
    assert.ok(r !== 'threw' && r.ok, `answered, not thrown: ${JSON.stringify(r)}`);
    assert.equal(r.status, 'restart-needed');
    assert.equal('say' in r ? r.say?.key : undefined, 'configRefusal.switchNeedsRestart');
    assert.equal(r.seq, (t.of('config.change')[0] as JournalEntry).seq);
    const started = fresh();
    restoreRestartChanges(t.ledger, started, log);
    assert.equal(started.profile, 'macau-no-commission');
    t.ledger.close();
  });
});

describe('a rule set switched whose new game cannot be built: the table faulted until a start', () => {
  const SUPERVISOR = { user: 'sup', role: 'supervisor' } as const;
  it('restart-needed halts the table (bets refused with it), no person clears it, the next start ends it', () => {
    const t = table(() => {
      throw new Error('SQLITE_FULL: database or disk is full');
    });
    const r = t.changes.switchRuleSet('profile', 'macau-no-commission', BY);
    assert.ok(r.ok && r.status === 'restart-needed', JSON.stringify(r));
    assert.deepEqual(
      t.tilts.list().map((f) => f.kind),
      ['restart-needed'],
    );
    const refused = t.tilts.refusal(1, 'bet');
    assert.equal(refused?.refusal, 'table-halted');
    assert.match(refused?.reason ?? '', /restart-needed/);
    assert.equal(t.tilts.clear('restart-needed', undefined, SUPERVISOR).ok, false, 'a person cannot clear it');
    assert.deepEqual(
      t.tilts.list().map((f) => f.kind),
      ['restart-needed'],
    );
    // The start: the faults restored from the journal, then the rule set journalled opened.
    const next = table(undefined, t.ledger);
    assert.deepEqual(
      next.tilts.list().map((f) => f.kind),
      ['restart-needed'],
      'restored from the journal',
    );
    next.changes.restore();
    assert.deepEqual(next.tilts.list(), [], 'gone once the start has built the game');
    assert.equal(next.tilts.refusal(1, 'bet'), null);
    t.ledger.close();
  });
});
