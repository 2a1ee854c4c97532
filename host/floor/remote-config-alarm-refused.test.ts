// A configuration order refused at the shoe change while the journal refuses the alarm's fault
// (`config-order`, raised through the tilt manager: SQLITE_FULL). The shoe change is handled in a
// microtask after the append that journalled the new shoe: a throw there ends the host process,
// and the orders after the refused one waited another shoe. The alarm's failure is logged; the
// orders after it are made; the alarm is tried again when its cause comes again.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import pino from 'pino';
import { Ledger } from '../../ledger/index.js';
import { ConfigChanges } from '../config/config-changes.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { configRefusals, signOrder } from '../testing/remote-orders.js';
import { RemoteConfig } from './remote-config.js';

const TERMINAL = 'T-REMOTE';
const upstream = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
const order = (id: number, key: string, after: unknown) =>
  signOrder(
    {
      v: 1,
      id,
      terminalId: TERMINAL,
      key,
      after,
      authorisation: 'DICJ-2026/49',
      proposedBy: 'ana',
      proposedAt: '2026-11-26T10:00:00.000Z',
      approvedBy: 'rui',
      approvedAt: '2026-11-26T10:05:00.000Z',
    },
    upstream.privateKey,
    TERMINAL,
  );

describe('a configuration order refused at the shoe change while its alarm cannot be raised', () => {
  it('nothing is thrown, the failure is logged, the next order is made at that shoe', async () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
    const config = simulatedTableConfig('blackjack');
    const log = pino({ level: 'silent' });
    const changes = new ConfigChanges({ config, ledger, log, bets: ['main'], betweenRounds: () => true });
    const newShoe = async () => {
      ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
      await new Promise((r) => setImmediate(r));
    };
    const first = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes, log });
    first.receive({ orders: [order(51, 'limits', { min: 50_000, max: 2_000_000 })] });
    await newShoe();
    first.close();
    const errors: string[] = [];
    const errorLog = Object.assign(pino({ level: 'silent' }), { error: (_f: object, m: string) => void errors.push(m) });
    let raised = 0;
    const remote = new RemoteConfig({
      terminalId: TERMINAL,
      publicKey,
      ledger,
      changes,
      log: errorLog as never,
      onAlarm: () => {
        raised++;
        throw new Error('SQLITE_FULL: database or disk is full');
      },
    });
    const thrown: unknown[] = [];
    const caught = (e: unknown) => void thrown.push(e);
    process.prependListener('uncaughtException', caught);
    try {
      // 50 is older than 51, made: superseded, refused at the shoe, its alarm refused. 52 comes after it.
      remote.receive({ orders: [order(50, 'limits', { min: 10_000, max: 100_000 }), order(52, 'betLimits', { main: { min: 20_000, max: 500_000 } })] });
      await newShoe();
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.removeListener('uncaughtException', caught);
      remote.close();
    }
    assert.deepEqual(thrown, [], 'thrown out of the shoe change');
    assert.deepEqual(
      configRefusals(ledger).map((p) => p.order),
      [50],
    );
    assert.deepEqual(config.betLimits.main, { min: 20_000, max: 500_000 }, 'the order after the refused one waited');
    assert.equal(raised, 1);
    assert.ok(
      errors.some((m) => /alarm/.test(m)),
      errors.join('\n'),
    );
    // An answer that is none: its alarm refused, tried again at the next heartbeat that brings it.
    assert.doesNotThrow(() => remote.receive('not an answer'));
    assert.doesNotThrow(() => remote.receive('not an answer'));
    assert.equal(raised, 3);
    ledger.close();
  });
});
