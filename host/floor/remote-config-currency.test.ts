import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger } from '../../ledger/index.js';
import { minorDigits } from '../../locales/money.js';
import { ConfigChanges } from '../config/config-changes.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { RemoteConfig } from './remote-config.js';
import { configRefusals, signOrder } from '../testing/remote-orders.js';

// A review of 6 December: an order's amounts are minor units, and it named no currency. A table
// whose currency changed (its configuration file, a restart) between the proposal and the order's
// arrival took the amounts in its new currency's units: limits of 20,000–1,000,000 avos (MOP 200–
// 10,000) made HKD 20,000–1,000,000. An order of v2 carries the currency the amounts were proposed
// in; the table refuses one that is not its own, and still reads a v1 order (none named).

const TERMINAL = 'T-CURRENCY';
const upstream = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

function order(id: number, over: Record<string, unknown> = {}): { order: string; signature: string } {
  const o = {
    v: 2,
    id,
    terminalId: TERMINAL,
    key: 'limits',
    after: { min: 20_000, max: 1_000_000 },
    authorisation: 'DICJ-2026/49',
    proposedBy: 'ana',
    proposedAt: '2026-11-26T10:00:00.000Z',
    approvedBy: 'rui',
    approvedAt: '2026-11-26T10:05:00.000Z',
    currency: { code: 'MOP', exponent: minorDigits('MOP') },
    ...over,
  };
  return signOrder(o, upstream.privateKey, TERMINAL);
}

function table() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  const config = simulatedTableConfig('baccarat');
  assert.equal(config.currency, 'MOP');
  const changes = new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['banker', 'player', 'tie'], betweenRounds: () => true });
  const alarms: string[] = [];
  const remote = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes, log: pino({ level: 'silent' }), onAlarm: (m) => alarms.push(m) });
  const newShoe = async () => {
    ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
    await new Promise((r) => setImmediate(r));
  };
  return { ledger, config, remote, alarms, newShoe, close: () => (remote.close(), ledger.close()) };
}

describe("a configuration order's currency", () => {
  it('an order in another currency (or another exponent) is refused in the journal and never made', async () => {
    const t = table();
    try {
      const limits = { ...t.config.limits };
      const credit = t.config.creditLimit;
      t.remote.receive({ orders: [order(1, { currency: { code: 'HKD', exponent: minorDigits('HKD') } })] });
      t.remote.receive({ orders: [order(2, { currency: { code: 'MOP', exponent: minorDigits('MOP') + 1 } })] });
      // The credit limit is made as it arrives: refused as it arrives.
      t.remote.receive({ orders: [order(3, { key: 'creditLimit', after: 1_000, currency: { code: 'HKD', exponent: minorDigits('HKD') } })] });
      assert.deepEqual(t.remote.pending(), []);
      await t.newShoe();
      assert.deepEqual(t.config.limits, limits);
      assert.equal(t.config.creditLimit, credit);
      assert.equal(configChanges(t.ledger).length, 0);
      const refused = configRefusals(t.ledger);
      assert.deepEqual(
        refused.map((p) => [p.order, p.say?.key]),
        [
          [1, 'configRefusal.orderOtherCurrency'],
          [2, 'configRefusal.orderOtherCurrency'],
          [3, 'configRefusal.orderOtherCurrency'],
        ],
      );
      assert.match(refused[0]?.reason ?? '', /HKD/);
      assert.match(refused[0]?.reason ?? '', /MOP/);
    } finally {
      t.close();
    }
  });

  it("an order in the table's own currency is made, and an older order (v1, no currency) is still read", async () => {
    const t = table();
    try {
      t.remote.receive({ orders: [order(10)] });
      const { currency: _none, ...v1 } = JSON.parse(order(11, { key: 'creditLimit', after: 5_000 }).order) as Record<string, unknown>;
      t.remote.receive({ orders: [signOrder({ ...v1, v: 1 }, upstream.privateKey, TERMINAL)] });
      assert.deepEqual(configRefusals(t.ledger), []);
      assert.equal(t.config.creditLimit, 5_000);
      await t.newShoe();
      assert.deepEqual(t.config.limits, { min: 20_000, max: 1_000_000 });
      assert.deepEqual(
        configChanges(t.ledger).map((c) => c.key),
        ['creditLimit', 'limits'],
      );
    } finally {
      t.close();
    }
  });
});
