// The station credit limit ordered from the back office (docs/backoffice.md): an order the upstream
// signed, proposed and approved by two people, checked by the table's own guard, is made when it
// arrives — a round in play or not, no shoe awaited: it bears on credit in, never on a bet — and
// journalled as `config.change` naming the order. The upstream lies within the order's wire: a
// value that is negative, not whole, above what SAS 0x1A can say, a string; each is journalled
// refused with words a person reads, and the running limit stays.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger } from '../../ledger/index.js';
import { ORDER_KEYS } from '../../terms/config-order-terms.js';
import { ConfigChanges } from '../config/config-changes.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { configRefusals, signOrder } from '../testing/remote-orders.js';
import { RemoteConfig } from './remote-config.js';

const TERMINAL = 'T-LIMIT';
const upstream = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

function order(id: number, after: unknown, over: Record<string, unknown> = {}) {
  const o = {
    v: 1,
    id,
    terminalId: TERMINAL,
    key: 'creditLimit',
    after,
    authorisation: 'DICJ-2026/CL',
    proposedBy: 'ana',
    proposedAt: '2026-12-01T10:00:00.000Z',
    approvedBy: 'rui',
    approvedAt: '2026-12-01T10:05:00.000Z',
    ...over,
  };
  return signOrder(o, upstream.privateKey, TERMINAL);
}

function table() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  const config = TableConfig.parse({ ...simulatedTableConfig('baccarat'), creditLimit: 1_000_000 });
  const changes = new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['banker', 'player', 'tie'], betweenRounds: () => false });
  const alarms: string[] = [];
  const remote = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes, log: pino({ level: 'silent' }), onAlarm: (m) => alarms.push(m) });
  return { ledger, config, remote, alarms, close: () => (remote.close(), ledger.close()) };
}

describe('the credit limit ordered from the back office', () => {
  it('is a setting an order may carry', () => {
    assert.ok((ORDER_KEYS as readonly string[]).includes('creditLimit'));
  });

  it('made as it arrives, mid-round, no shoe awaited: journalled with the order and its two people, the running limit changed', (t) => {
    const x = table();
    t.after(x.close);
    x.remote.receive({ orders: [order(7, 400_000)] });
    assert.deepEqual(configRefusals(x.ledger), []);
    assert.deepEqual(
      configChanges(x.ledger).map((c) => [c.key, c.before, c.after, c.who, c.witness]),
      [['creditLimit', 1_000_000, 400_000, 'ana', 'rui']],
    );
    assert.equal(x.config.creditLimit, 400_000);
    assert.deepEqual(x.remote.pending(), []);
    // Delivered again at the next heartbeat (the upstream has not read the journal yet): made once.
    x.remote.receive({ orders: [order(7, 400_000)] });
    assert.equal(configChanges(x.ledger).length, 1);
  });

  for (const [what, after] of [
    ['negative', -100],
    ['not whole', 1.5],
    ['above what SAS 0x1A can say', 100_000_000],
    ['absurd', 1e300],
    ['a string', '400000'],
    ['zero', 0],
    ['null (back to no limit but SAS’s)', null],
  ] as const) {
    it(`refused and journalled as refused, the limit kept: ${what}`, (t) => {
      const x = table();
      t.after(x.close);
      x.remote.receive({ orders: [order(9, after)] });
      const refused = configRefusals(x.ledger);
      assert.equal(refused.length, 1);
      assert.equal(refused[0]?.say?.key, 'configRefusal.creditLimitNotAmount');
      assert.match(refused[0]?.reason ?? '', /creditLimit/);
      assert.equal(configChanges(x.ledger).length, 0);
      assert.equal(x.config.creditLimit, 1_000_000);
    });
  }

  it('approved by its own author: refused, never made', (t) => {
    const x = table();
    t.after(x.close);
    x.remote.receive({ orders: [order(11, 400_000, { approvedBy: 'ana' })] });
    assert.equal(configRefusals(x.ledger).length, 1);
    assert.equal(x.config.creditLimit, 1_000_000);
  });
});
