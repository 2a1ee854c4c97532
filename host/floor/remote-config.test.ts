import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import pino from 'pino';
import { configChanges, Ledger, PAYLOADS } from '../../ledger/index.js';
import { ConfigChanges } from '../config/config-changes.js';
import { simulatedTableConfig } from '../config/table-config.js';
import { orderStatement, RemoteConfig } from './remote-config.js';
import { configRefusals, journalOf, signOrder } from '../testing/remote-orders.js';

// Issue 49 item 6, the table's end: an order from the back office is the upstream's word only if
// signed by its key for this terminal, names two people, passes the table's own guard, and is made
// at the next shoe, never mid-round. The upstream here is a hostile one that lies every way the
// order's wire allows: forged, unsigned, altered, for another table, approved by its own author.

const TERMINAL = 'T-REMOTE';
const upstream = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const publicKey = upstream.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

function order(id: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    id,
    terminalId: TERMINAL,
    key: 'limits',
    after: { min: 20_000, max: 1_000_000 },
    authorisation: 'DICJ-2026/49',
    proposedBy: 'ana',
    proposedAt: '2026-11-26T10:00:00.000Z',
    approvedBy: 'rui',
    approvedAt: '2026-11-26T10:05:00.000Z',
    ...over,
  };
}

function signed(o: Record<string, unknown>, key: KeyObject = upstream.privateKey, terminal = TERMINAL) {
  return signOrder(o, key, terminal);
}

const journal = journalOf;

const refusals = configRefusals;

function table() {
  const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
  const config = simulatedTableConfig('blackjack');
  let between = true;
  const changes = new ConfigChanges({ config, ledger, log: pino({ level: 'silent' }), bets: ['main'], betweenRounds: () => between });
  const alarms: string[] = [];
  const remote = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger, changes, log: pino({ level: 'silent' }), onAlarm: (m) => alarms.push(m) });
  const types = () => journal(ledger).map((e) => e.type);
  /** The table's state changes as LiveTable.onChange would tell ConfigChanges. */
  const round = (inPlay: boolean) => {
    between = !inPlay;
    changes.applyQueued();
  };
  const newShoe = async () => {
    ledger.append({ type: 'shoe.change', payload: { tableId: config.tableId, event: 'loaded' } });
    await new Promise((r) => setImmediate(r));
  };
  return { ledger, config, changes, remote, alarms, types, round, newShoe, close: () => (remote.close(), ledger.close()) };
}

describe('configuration orders from the back office at the table (issue 49 item 6)', () => {
  it('a forged, unsigned, altered or misdirected order is refused: nothing waits, nothing is journalled, an alarm says so', async () => {
    const t = table();
    try {
      const limits = { ...t.config.limits };
      const head = t.ledger.headOf().seq;
      t.remote.receive({ orders: [signed(order(1), stranger.privateKey)] });
      t.remote.receive({ orders: [{ order: JSON.stringify(order(2)), signature: '' }] });
      t.remote.receive({ orders: [{ order: JSON.stringify(order(3)) }] });
      const good = signed(order(4));
      t.remote.receive({ orders: [{ order: good.order.replace('1000000', '9000000'), signature: good.signature }] });
      t.remote.receive({ orders: [signed(order(5), upstream.privateKey, 'T-OTHER')] });
      t.remote.receive({ orders: [signed(order(6, { terminalId: 'T-OTHER' }), upstream.privateKey, 'T-OTHER')] });
      t.remote.receive({ orders: [signed(order(7, { terminalId: 'T-OTHER' }))] });
      t.remote.receive('not an answer');
      assert.deepEqual(t.remote.pending(), []);
      await t.newShoe();
      assert.deepEqual(t.config.limits, limits);
      assert.deepEqual(t.types().slice(head), ['shoe.change'], 'nothing of theirs journalled');
      // The two orders that do not fit (an empty signature, none) are one alarm, said once; the answer that is none another.
      assert.equal(t.alarms.length, 7, t.alarms.join('\n'));
      // Said once: the upstream repeats its answer at every heartbeat.
      t.remote.receive({ orders: [signed(order(1), stranger.privateKey)] });
      assert.equal(t.alarms.length, 7);
    } finally {
      t.close();
    }
  });

  it('without the upstream key from the enrolment no order is believed', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: TERMINAL });
    const changes = new ConfigChanges({
      config: simulatedTableConfig('blackjack'),
      ledger,
      log: pino({ level: 'silent' }),
      bets: ['main'],
      betweenRounds: () => true,
    });
    const alarms: string[] = [];
    const remote = new RemoteConfig({
      terminalId: TERMINAL,
      publicKey: undefined,
      ledger,
      changes,
      log: pino({ level: 'silent' }),
      onAlarm: (m) => alarms.push(m),
    });
    try {
      remote.receive({ orders: [signed(order(1))] });
      assert.deepEqual(remote.pending(), []);
      assert.match(alarms[0] ?? '', /no upstream key/);
    } finally {
      remote.close();
      ledger.close();
    }
  });

  it('an order its own author approved, or one the guard refuses, is journalled as refused and never made', async () => {
    const t = table();
    try {
      const limits = { ...t.config.limits };
      t.remote.receive({ orders: [signed(order(10, { approvedBy: 'ana' }))] });
      t.remote.receive({ orders: [signed(order(11, { after: { min: 500_000, max: 100_000 } }))] });
      // A rule the text fixes (Art. 10 n.3): the engine's guard names the article.
      t.remote.receive({ orders: [signed(order(12, { key: 'profileOptions', after: { evenMoney: 'none' } }))] });
      assert.deepEqual(t.remote.pending(), []);
      const payloads = refusals(t.ledger);
      assert.deepEqual(
        payloads.map((p) => p.order),
        [10, 11, 12],
      );
      assert.match(payloads[0]?.reason ?? '', /someone else/);
      assert.match(payloads[1]?.reason ?? '', /limits/);
      assert.match(payloads[2]?.reason ?? '', /art\.10 n\.3/);
      await t.newShoe();
      assert.deepEqual(t.config.limits, limits);
      assert.equal(configChanges(t.ledger).length, 0);
      // Delivered again (the upstream has not seen the journal yet): answered already, nothing more.
      t.remote.receive({ orders: [signed(order(10, { approvedBy: 'ana' })), signed(order(11, { after: { min: 500_000, max: 100_000 } }))] });
      assert.equal(refusals(t.ledger).length, 3);
    } finally {
      t.close();
    }
  });

  it('a good order waits for the next shoe: not at the end of a round, not mid-round, made once no round is in play', async () => {
    const t = table();
    try {
      const before = { ...t.config.limits };
      t.round(true);
      t.remote.receive({ orders: [signed(order(20))] });
      assert.deepEqual(
        t.remote.pending().map((o) => o.id),
        [20],
      );
      t.round(false);
      t.round(true);
      t.round(false);
      assert.deepEqual(t.config.limits, before, 'rounds end and begin: the limits stay until a new shoe');
      assert.equal(configChanges(t.ledger).length, 0);
      // The new shoe comes while a round is in play (the dealer loaded it mid-round): journalled, held.
      t.round(true);
      await t.newShoe();
      const journalled = configChanges(t.ledger);
      assert.equal(journalled.length, 1);
      assert.deepEqual(
        [journalled[0]?.who, journalled[0]?.witness, journalled[0]?.authorisation, journalled[0]?.after],
        ['ana', 'rui', 'DICJ-2026/49', { min: 20_000, max: 1_000_000 }],
      );
      assert.equal(PAYLOADS['config.change'].parse(JSON.parse(t.ledger.entry(journalled[0]?.seq ?? 0)?.body ?? '{}').payload).order, 20);
      assert.deepEqual(t.config.limits, before, 'not mid-round');
      t.round(false);
      assert.deepEqual(t.config.limits, { min: 20_000, max: 1_000_000 });
      // The same order again, and after a restart (the journal is the answer): never made twice.
      t.remote.receive({ orders: [signed(order(20))] });
      const again = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger: t.ledger, changes: t.changes, log: pino({ level: 'silent' }) });
      again.receive({ orders: [signed(order(20))] });
      assert.deepEqual(again.pending(), []);
      again.close();
      await t.newShoe();
      assert.equal(configChanges(t.ledger).length, 1);
    } finally {
      t.close();
    }
  });

  it('a signed order the table cannot read (too long, off its schema, a setting the back office never issues) is journalled refused; the rest of the answer is taken', async () => {
    const t = table();
    try {
      const many: Record<string, { min: number; max: number }> = {};
      for (let i = 0; i < 600; i++) many[`bet${i}`] = { min: 100, max: 200 };
      const tooLong = signed(order(40, { key: 'betLimits', after: many }));
      assert.ok(tooLong.order.length > 16_384);
      const forgedLong = signed(order(45, { key: 'betLimits', after: many }), stranger.privateKey);
      const unsignedLong = { order: tooLong.order.replace('"id":40', '"id":46'), signature: tooLong.signature };
      const noId = signed({ ...order(0), id: 'x' });
      const notJson = { order: '{not json', signature: sign(null, Buffer.from(orderStatement(TERMINAL, '{not json')), upstream.privateKey).toString('base64') };
      t.remote.receive({
        orders: [
          tooLong,
          signed(order(41)),
          signed(order(42, { extra: 'field' })),
          signed(order(43, { key: 'handpayTwoPersonAbove', after: 9_000_000_000_000 })),
          forgedLong,
          unsignedLong,
          noId,
          notJson,
        ],
      });
      const refused = refusals(t.ledger);
      console.log(
        'unreadable signed orders journalled:',
        refused.map((p) => [p.order, p.say?.key]),
        'waiting:',
        t.remote.pending().map((o) => o.id),
      );
      assert.deepEqual(
        refused.map((p) => [p.order, p.key, p.say?.key]),
        [
          [40, 'betLimits', 'configRefusal.orderTooLong'],
          [42, 'limits', 'configRefusal.orderNotValid'],
          [43, 'handpayTwoPersonAbove', 'configRefusal.orderNotValid'],
        ],
      );
      assert.deepEqual([refused[0]?.who, refused[0]?.witness], ['ana', 'rui']);
      assert.deepEqual(
        t.remote.pending().map((o) => o.id),
        [41],
        'the good order beside them is taken',
      );
      // The forged one, the altered one and the signed text naming no order are alarms, journalled nowhere.
      assert.ok(t.alarms.some((m) => /does not carry the upstream's signature/.test(m)));
      assert.ok(
        t.alarms.some((m) => /names no order/.test(m)),
        t.alarms.join('\n'),
      );
      const handpay = t.config.handpayTwoPersonAbove;
      await t.newShoe();
      assert.deepEqual(t.config.limits, { min: 20_000, max: 1_000_000 });
      assert.equal(t.config.handpayTwoPersonAbove, handpay);
      assert.deepEqual(
        configChanges(t.ledger).map((c) => c.key),
        ['limits'],
      );
      // Sent again at the next heartbeat: answered already, nothing more journalled.
      t.remote.receive({ orders: [tooLong, signed(order(42, { extra: 'field' }))] });
      assert.equal(refusals(t.ledger).length, 3);
    } finally {
      t.close();
    }
  });

  it('an older order of a setting delivered after a newer one of it was made is refused as superseded, after a restart too', async () => {
    const t = table();
    try {
      t.remote.receive({ orders: [signed(order(51, { after: { min: 50_000, max: 2_000_000 } }))] });
      await t.newShoe();
      assert.deepEqual(t.config.limits, { min: 50_000, max: 2_000_000 });
      // The path held order 50 back; it comes now, after a restart (the newer one is read from the journal), twice.
      t.remote.close();
      const older = signed(order(50, { after: { min: 10_000, max: 100_000 } }));
      const again = new RemoteConfig({ terminalId: TERMINAL, publicKey, ledger: t.ledger, changes: t.changes, log: pino({ level: 'silent' }) });
      again.receive({ orders: [older] });
      again.receive({ orders: [older] });
      await t.newShoe();
      console.log(
        'limits after the older order came:',
        t.config.limits,
        'refused:',
        refusals(t.ledger).map((p) => [p.order, p.say?.key]),
      );
      assert.deepEqual(t.config.limits, { min: 50_000, max: 2_000_000 });
      assert.deepEqual(
        refusals(t.ledger).map((p) => [p.order, p.say?.key, p.say?.values]),
        [[50, 'configRefusal.orderSuperseded', { newer: 51 }]],
      );
      // An older order of another setting is not superseded by it.
      again.receive({ orders: [signed(order(49, { key: 'betLimits', after: { main: { min: 20_000, max: 500_000 } } }))] });
      await t.newShoe();
      again.close();
      assert.deepEqual(t.config.betLimits.main, { min: 20_000, max: 500_000 });
    } finally {
      t.close();
    }
  });
});
