// The drivers over the raw TCP transport against simulators served by serveDevice, including a
// dropped connection in the middle of stacking a note.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Id003Simulator } from '../billacceptor/id003/simulator.js';
import { SspSimulator } from '../billacceptor/ssp/simulator.js';
import type { BillAcceptorEvent, Credit } from '../billacceptor/types.js';
import { openBillAcceptor, openShoe } from '../open.js';
import { ShoeSimulator, shuffledShoe } from '../shoe/simulator.js';
import type { ShoeEvent } from '../shoe/types.js';
import { runBillCommand, runShoeCommand } from './commands.js';
import { EventRecorder } from './recorder.js';
import { serveDevice } from './tcp-server.js';

const FAST = { pollIntervalMs: 2, replyTimeoutMs: 80, reconnectBaseMs: 5, reconnectMaxMs: 40, escrowTimeoutMs: 500 };

describe('drivers over TCP (serial device server)', () => {
  for (const protocol of ['id003', 'ssp'] as const) {
    it(`${protocol}: a connection dropped mid-stack is resolved after reconnecting, credited once`, async () => {
      const sim = protocol === 'id003' ? new Id003Simulator() : new SspSimulator();
      const server = await serveDevice(sim);
      const credits: Credit[] = [];
      const dev = openBillAcceptor(`tcp:127.0.0.1:${server.port}`, {
        protocol,
        currency: 'HKD',
        enabled: true,
        ...FAST,
        onCredit: (c) => void credits.push(c),
      });
      const rec = new EventRecorder<BillAcceptorEvent>();
      dev.on(rec.listener);
      await rec.until(() => rec.of('idle').some((e) => e.enabled));
      assert.equal(runBillCommand(sim, 'insert 100'), 'ok inserted 100');
      await rec.untilCount('stacking');
      assert.equal(runBillCommand(sim, 'drop', { dropClient: () => server.dropClient() }), 'ok dropped');
      await rec.untilCount('disconnected');
      await rec.untilCount('reconnected');
      await rec.until(() => sim.cashbox.length === 1 && credits.length === 1);
      assert.deepEqual(
        credits.map((c) => c.amount),
        [10000],
      );
      await dev.close();
      await server.close();
    });
  }

  it('framed shoe: events drawn while the connection is down arrive after it is back', async () => {
    const sim = new ShoeSimulator({ protocol: 'framed', seed: 3, retransmitMs: 40 });
    const server = await serveDevice(sim);
    const shoe = openShoe(`tcp:127.0.0.1:${server.port}`, { protocol: 'framed', replyTimeoutMs: 80, heartbeatMs: 100, reconnectBaseMs: 5, reconnectMaxMs: 40 });
    const rec = new EventRecorder<ShoeEvent>();
    shoe.on(rec.listener);
    await rec.untilCount('connected');
    runShoeCommand(sim, 'load 8 5');
    runShoeCommand(sim, 'draw');
    await rec.untilCount('card');
    server.dropClient();
    runShoeCommand(sim, 'draw');
    runShoeCommand(sim, 'draw');
    await rec.untilCount('card', 3);
    assert.deepEqual(
      rec.of('card').map((c) => c.card),
      shuffledShoe(8, 5).slice(0, 3),
    );
    assert.ok(rec.of('disconnected').length >= 1);
    await shoe.close();
    await server.close();
  });

  it('command language: errors and help', () => {
    const sim = new Id003Simulator();
    assert.match(runBillCommand(sim, 'bogus'), /^error/);
    assert.match(runBillCommand(sim, 'insert'), /^error/);
    assert.match(runBillCommand(sim, 'help'), /insert <value>/);
    assert.equal(runBillCommand(sim, 'power-cut escrow 50'), 'ok power cut armed after escrow');
    const shoe = new ShoeSimulator({ protocol: 'ascii' });
    assert.match(runShoeCommand(shoe, 'draw'), /^error/);
    assert.match(runShoeCommand(shoe, 'unreadable'), /^error: nothing drawn/, 'no card to misread in a shoe not loaded');
    runShoeCommand(shoe, 'load 1 1');
    assert.match(runShoeCommand(shoe, 'draw'), /^ok drew [A2-9TJQK][SHDC]$/);
    assert.equal(runShoeCommand(shoe, 'draw QS'), 'ok drew QS');
    assert.match(runShoeCommand(shoe, 'draw ZZ'), /^error/);
    assert.equal(runShoeCommand(shoe, 'unreadable'), 'ok unreadable');
    shoe.powerCut();
    assert.match(runShoeCommand(shoe, 'unreadable'), /^error: nothing drawn/, 'an unpowered shoe draws no card, misread or not');
  });
});
