// eSSP end to end: a validator in encrypted mode answers KEY NOT SET until the driver negotiates a
// key; then every command and reply travels encrypted, with counters, through the CDC-ACM bridge.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../sim/recorder.js';
import { FakeUsbBus } from '../../transport/fake-usb.js';
import { LINE_8N2_9600 } from '../../transport/byte-port.js';
import { UsbSerialPort } from '../../transport/usb-serial.js';
import type { BillAcceptorEvent, BillAcceptorOptions, Credit } from '../types.js';
import { SspBillAcceptor, type SspOptions } from './driver.js';
import { CMD_SET_GENERATOR, STEX } from './essp.js';
import { SspSimulator } from './simulator.js';

const FAST = { pollIntervalMs: 2, replyTimeoutMs: 60, reconnectBaseMs: 5, reconnectMaxMs: 40, escrowTimeoutMs: 400 };

function rig(extra: Partial<BillAcceptorOptions & SspOptions> = {}) {
  const sim = new SspSimulator({ encrypted: true, keepReceived: true });
  const bus = new FakeUsbBus();
  bus.plug(sim, { kind: 'cdc-acm' });
  const opener = async () => UsbSerialPort.open((await bus.getDevices())[0]!, LINE_8N2_9600, { bus, readTimeoutMs: 30 });
  const credits: Credit[] = [];
  const dev = new SspBillAcceptor(opener, { currency: 'HKD', enabled: true, ...FAST, onCredit: (c) => void credits.push(c), ...extra });
  const rec = new EventRecorder<BillAcceptorEvent>();
  dev.on(rec.listener);
  dev.start();
  return { sim, dev, rec, credits };
}

describe('eSSP end to end', () => {
  it('negotiates a key on KEY NOT SET, then credits over encrypted polls', async () => {
    const r = rig();
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled), 5000, 'enabled');
    assert.ok(r.sim.keyed && r.dev.encrypted);
    r.sim.insertNote(500);
    await r.rec.untilCount('credit');
    assert.deepEqual(
      r.credits.map((c) => c.amount),
      [50000],
    );
    const last = r.sim.received.at(-1);
    assert.equal(last?.data[0], STEX, 'commands travel encrypted');
    assert.ok(r.sim.received.some((f) => f.data[0] === CMD_SET_GENERATOR));
    await r.dev.close();
  });

  it('retries, lost replies and a failing credit callback work with the counters (credit once)', async () => {
    let calls = 0;
    const r = rig({
      onCredit: (c) => {
        if (++calls === 1) throw new Error('busy');
        r.credits.push(c);
      },
    });
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled), 5000, 'enabled');
    r.sim.insertNote(100);
    r.sim.wireFault('drop');
    r.sim.wireFault('garble');
    await r.rec.untilCount('credit');
    await r.rec.untilCount('stacked');
    assert.equal(r.credits.length, 1);
    assert.deepEqual(r.sim.cashbox, [100]);
    await r.dev.close();
  });

  it('a power cut loses the key; the driver re-keys and is credited for the note cleared into the cashbox', async () => {
    const r = rig();
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled), 5000, 'enabled');
    r.sim.powerCut({ at: 'stacking-late', restoreAfterMs: 60 });
    r.sim.insertNote(1000);
    await r.rec.untilCount('credit');
    assert.deepEqual(
      r.credits.map((c) => [c.amount, c.recovered]),
      [[100000, true]],
    );
    assert.ok(r.sim.keyed);
    await r.dev.close();
  });

  it("with encryption 'never' the session fails with a clear reason", async () => {
    const r = rig({ encryption: 'never' });
    await r.rec.untilCount('disconnected');
    assert.match(r.rec.of('disconnected')[0]!.reason, /eSSP/);
    assert.equal(
      r.sim.received.some((f) => f.data[0] === CMD_SET_GENERATOR),
      false,
    );
    await r.dev.close();
  });
});
