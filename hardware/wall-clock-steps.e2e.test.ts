// Drivers measure their intervals (a reply's deadline, a quiet stacker, a printer settling, the
// reconnect backoff, the shoe's repeated ACK) on the monotonic clock. The wall clock is the one
// that steps: NTP correcting it at boot, a technician setting the time. Here it jumps an hour at
// every reading, forward or back, and each driver does exactly what it does on a steady clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptorRig, untilEnabled } from './billacceptor/acceptor-rig.js';
import { openShoe, type OpenedShoe } from './open.js';
import { layoutDefined, printerRig, ticketNo } from './printer/printer-rig.js';
import { EventRecorder } from './sim/recorder.js';
import { withSteppingWallClock } from './sim/stepping-wall-clock.js';
import type { ShoeSimulator } from './shoe/simulator.js';
import type { ShoeEvent } from './shoe/types.js';

for (const direction of [1, -1] as const) {
  const way = direction === 1 ? 'forward' : 'back';
  describe(`drivers with a wall clock that jumps an hour ${way} at every reading`, () => {
    for (const protocol of ['id003', 'ssp'] as const)
      it(`${protocol}: a note is taken, stacked and credited once, with no violation and no lost link`, async () => {
        const r = acceptorRig(protocol, 'HKD', { onEscrow: () => 'stack' });
        try {
          await withSteppingWallClock(direction, async () => {
            await untilEnabled(r);
            r.sim.insertNote(100);
            await r.rec.untilCount('stacked', 1, 5000);
          });
          assert.deepEqual(
            r.credits.map((c) => c.amount),
            [10_000],
          );
          assert.deepEqual(r.sim.cashbox, [100]);
          assert.deepEqual(r.rec.of('protocolViolation'), []);
          assert.deepEqual(r.rec.of('disconnected'), []);
        } finally {
          await r.dev.close();
        }
      });

    it('framed shoe: the cards drawn are delivered in order, with no lost link', async () => {
      const rec = new EventRecorder<ShoeEvent>();
      const dev: OpenedShoe = openShoe('sim', {
        protocol: 'framed',
        seed: 42,
        replyTimeoutMs: 60,
        heartbeatMs: 80,
        retries: 3,
        reconnectBaseMs: 5,
        reconnectMaxMs: 40,
        usbReadTimeoutMs: 30,
        sim: { retransmitMs: 40 },
      });
      dev.on(rec.listener);
      const sim = dev.simulator as NonNullable<OpenedShoe['simulator']> & ShoeSimulator;
      try {
        const drawn = await withSteppingWallClock(direction, async () => {
          await rec.untilCount('connected');
          sim.loadShoe({ decks: 8, seed: 7 });
          const cards = [sim.drawCard(), sim.drawCard(), sim.drawCard()];
          await rec.untilCount('card', 3, 5000);
          // Past a few heartbeats: a silence measured on the stepping clock would be a lost link.
          await new Promise((res) => setTimeout(res, 300));
          return cards;
        });
        assert.deepEqual(
          rec.of('card').map((c) => c.card),
          drawn,
        );
        assert.deepEqual(rec.of('disconnected'), []);
      } finally {
        await dev.close();
      }
    });

    it('TCL printer: a ticket is printed, judged from its status', async () => {
      const r = printerRig();
      try {
        const out = await withSteppingWallClock(direction, async () => {
          await layoutDefined(r);
          return r.p.print({ ticket: ticketNo(1) });
        });
        assert.equal(out.outcome, 'printed');
        assert.equal(r.sim.paper.length, 1);
      } finally {
        await r.p.close();
      }
    });
  });
}
