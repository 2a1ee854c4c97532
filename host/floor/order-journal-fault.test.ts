// A back-office order is made once: the journal is the answer (`answeredOrders`), and the upstream
// sends its answer again at every heartbeat until the synced journal tells it the order was made.
// A journal that refuses a write in the middle of making an order (a disk filling up: the
// order's `config.change` taken, its `rules.record` refused (a rule set's two are one write: both
// refused); or the `config.change` itself refused) must not make the order twice when it comes again, nor lose it: an order the journal
// holds is answered; one it does not hold is made when it comes again (the credit limit) or at
// the next shoe (the others), once.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger, PAYLOADS } from '../../ledger/index.js';
import { ConfigChanges, restoreRestartChanges } from '../config/config-changes.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { refusingOnce } from '../testing/refusing-ledger.js';
import { journalOf, signOrder } from '../testing/remote-orders.js';
import { RemoteConfig } from './remote-config.js';

const TERMINAL = 'T-ORDER-FAULT';
const upstream = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

function answer(id: number, key: 'creditLimit' | 'limits' | 'profile', after: unknown) {
  const o = {
    v: 1,
    id,
    terminalId: TERMINAL,
    key,
    after,
    authorisation: 'DICJ-2026/F',
    proposedBy: 'ana',
    proposedAt: '2026-12-02T10:00:00.000Z',
    approvedBy: 'rui',
    approvedAt: '2026-12-02T10:05:00.000Z',
  };
  return { orders: [signOrder(o, upstream.privateKey, TERMINAL)] };
}

function table(build: () => void = () => undefined) {
  const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  const config = TableConfig.parse({ ...simulatedTableConfig('baccarat', 'macau-commission'), creditLimit: 1_000_000 });
  const log = pino({ level: 'silent' });
  /** The rule sets the table was switched to, in order (the game rebuilt under each). */
  const switched: string[] = [];
  const ruleSwitch = { refusal: () => null, switchTo: (c: TableConfig) => (build(), void switched.push(c.profile)) };
  const changes = new ConfigChanges({ config, ledger, log, bets: ['banker', 'player', 'tie'], betweenRounds: () => true, ruleSwitch });
  /** The alarms raised (the `config-order` fault's), in order. */
  const alarms: string[] = [];
  const remote = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes, log, onAlarm: (m) => void alarms.push(m) });
  /** How many `config.change` entries name order `id`. */
  const made = (id: number) =>
    journalOf(ledger).filter((e) => e.type === 'config.change' && PAYLOADS['config.change'].parse(JSON.parse(e.body).payload).order === id).length;
  const newShoe = async () => {
    ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
    await new Promise((r) => setImmediate(r));
  };
  /** The heartbeat's answer handed over as the sync client hands it: a throw out of it is the client's to log. */
  const deliver = (a: unknown) => {
    try {
      remote.receive(a);
    } catch {
      // Before the mend the refusal came out of `receive`; what counts is what the journal and table hold after.
    }
  };
  /** The profile a start over this journal would open under, the file still naming the old one. */
  const restarted = () => {
    const fresh = TableConfig.parse({ ...simulatedTableConfig('baccarat', 'macau-commission'), creditLimit: 1_000_000 });
    restoreRestartChanges(ledger, fresh, log);
    return fresh.profile;
  };
  return { ledger, config, remote, made, newShoe, deliver, switched, restarted, alarms, close: () => (remote.close(), ledger.close()) };
}

describe('a back-office order the journal refuses half way', () => {
  it('the credit limit, its rules record refused: made once however often it comes again, and in effect', () => {
    const t = table();
    try {
      refusingOnce(t.ledger, 'rules.record');
      t.deliver(answer(1, 'creditLimit', 300_000));
      t.deliver(answer(1, 'creditLimit', 300_000));
      t.deliver(answer(1, 'creditLimit', 300_000));
      assert.equal(t.made(1), 1);
      assert.equal(t.config.creditLimit, 300_000);
    } finally {
      t.close();
    }
  });

  it('the credit limit, its change refused: made when it comes again, once', () => {
    const t = table();
    try {
      refusingOnce(t.ledger, 'config.change');
      t.deliver(answer(2, 'creditLimit', 300_000));
      assert.equal(t.made(2), 0);
      assert.equal(t.config.creditLimit, 1_000_000);
      t.deliver(answer(2, 'creditLimit', 300_000));
      t.deliver(answer(2, 'creditLimit', 300_000));
      assert.equal(t.made(2), 1);
      assert.equal(t.config.creditLimit, 300_000);
    } finally {
      t.close();
    }
  });

  it('the limits at a shoe, the rules record refused: made once, never again at the next shoes', async () => {
    const t = table();
    try {
      const after = { min: t.config.limits.min * 2, max: t.config.limits.max };
      t.deliver(answer(3, 'limits', after));
      refusingOnce(t.ledger, 'rules.record');
      await t.newShoe();
      t.deliver(answer(3, 'limits', after));
      await t.newShoe();
      assert.equal(t.made(3), 1);
      assert.deepEqual(t.config.limits, after);
      assert.deepEqual(t.remote.pending(), []);
    } finally {
      t.close();
    }
  });

  it('the limits at a shoe, the change refused: it waits for the next shoe and is made there, once', async () => {
    const t = table();
    try {
      const after = { min: t.config.limits.min * 2, max: t.config.limits.max };
      t.deliver(answer(4, 'limits', after));
      refusingOnce(t.ledger, 'config.change');
      await t.newShoe();
      assert.equal(t.made(4), 0);
      assert.deepEqual(
        t.remote.pending().map((o) => o.id),
        [4],
      );
      await t.newShoe();
      assert.equal(t.made(4), 1);
      assert.deepEqual(t.config.limits, after);
    } finally {
      t.close();
    }
  });

  it('a rule set at a shoe, its rules record refused: not switched without it, so made again at the next shoe; the table then plays what a start would', async () => {
    const t = table();
    try {
      t.deliver(answer(5, 'profile', 'macau-no-commission'));
      refusingOnce(t.ledger, 'rules.record');
      await t.newShoe();
      assert.deepEqual(t.switched, [], 'a switch is made after its record (the rebuilt game reads it)');
      t.deliver(answer(5, 'profile', 'macau-no-commission'));
      await t.newShoe();
      assert.deepEqual(t.switched, ['macau-no-commission']);
      assert.equal(t.config.profile, 'macau-no-commission');
      assert.equal(t.restarted(), 'macau-no-commission');
      assert.deepEqual(t.remote.pending(), []);
      await t.newShoe();
      assert.deepEqual(t.switched, ['macau-no-commission'], 'once made, never again');
    } finally {
      t.close();
    }
  });

  it('a rule set at a shoe, its rules record refused: its change not journalled either (one write), made at the next shoe with its record', async () => {
    const t = table();
    try {
      t.deliver(answer(7, 'profile', 'macau-no-commission'));
      refusingOnce(t.ledger, 'rules.record');
      await t.newShoe();
      assert.equal(t.made(7), 0, 'no change journalled without its record');
      assert.equal(t.restarted(), 'macau-commission', 'a start opens the rule set in force');
      assert.deepEqual(
        t.remote.pending().map((o) => o.id),
        [7],
      );
      await t.newShoe();
      assert.equal(t.made(7), 1);
      assert.deepEqual(t.switched, ['macau-no-commission']);
    } finally {
      t.close();
    }
  });

  it('a rule set whose new game cannot be built: answered as journalled, a restart needed (an alarm says so), never made again', async () => {
    let fail = true;
    const t = table(() => {
      if (fail) throw new Error('SQLITE_FULL: database or disk is full');
    });
    try {
      t.deliver(answer(8, 'profile', 'macau-no-commission'));
      await t.newShoe();
      fail = false;
      assert.equal(t.made(8), 1);
      assert.deepEqual(t.remote.pending(), []);
      assert.equal(t.alarms.filter((a) => /restart/.test(a)).length, 1, t.alarms.join('; '));
      assert.equal(t.restarted(), 'macau-no-commission');
      t.deliver(answer(8, 'profile', 'macau-no-commission'));
      await t.newShoe();
      assert.equal(t.made(8), 1, 'once');
    } finally {
      t.close();
    }
  });

  it('a refusal the journal does not take is journalled when the order comes again', () => {
    const t = table();
    try {
      refusingOnce(t.ledger, 'config.refused');
      t.deliver(answer(6, 'creditLimit', -5));
      t.deliver(answer(6, 'creditLimit', -5));
      t.deliver(answer(6, 'creditLimit', -5));
      assert.equal(journalOf(t.ledger).filter((e) => e.type === 'config.refused').length, 1);
    } finally {
      t.close();
    }
  });
});
