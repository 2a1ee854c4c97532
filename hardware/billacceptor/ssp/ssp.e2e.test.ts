// End to end: the real SSP driver → CDC-ACM bridge code → fake USBDevice → SSP simulator.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FAST, acceptorRig, sum, untilEnabled, wireDamageRun, type RigOptions } from '../acceptor-rig.js';
import { EventRecorder } from '../../sim/recorder.js';
import { FakeUsbBus } from '../../transport/fake-usb.js';
import { LINE_8N2_9600 } from '../../transport/byte-port.js';
import { UsbSerialPort } from '../../transport/usb-serial.js';
import type { BillStep } from '../sim-controls.js';
import type { BillAcceptorEvent, Credit, EscrowedNote } from '../types.js';
import { CMD } from './constants.js';
import { SspBillAcceptor } from './driver.js';
import { SspSimulator } from './simulator.js';

const rig = (extra: RigOptions = {}) => acceptorRig('ssp', 'MOP', extra);
const enabled = untilEnabled;

describe('SSP end to end over the fake CDC-ACM bridge', () => {
  it('sync, setup, inhibits and enable; credits at NOTE CREDIT once; line 8N2', async () => {
    const r = rig();
    await enabled(r);
    assert.deepEqual(r.sim.usb.bridge.line, LINE_8N2_9600);
    r.sim.insertNote(1000);
    await r.rec.untilCount('stacked');
    assert.deepEqual(
      r.credits.map((c) => [c.amount, c.currency, c.denomination]),
      [[100000, 'MOP', 1000]],
    );
    assert.deepEqual(r.sim.cashbox, [1000]);
    const t = r.rec.types();
    assert.ok(t.indexOf('escrowed') < t.indexOf('stacking') && t.indexOf('stacking') < t.indexOf('credit'));
    const cmds = r.sim.received.map((f) => f.data[0]);
    assert.equal(cmds[0], CMD.SYNC);
    assert.equal(r.sim.received[0]?.seqId, 0x80);
    assert.ok(cmds.includes(CMD.SETUP_REQUEST) && cmds.includes(CMD.SET_INHIBITS) && cmds.includes(CMD.ENABLE));
    await r.dev.close();
  });

  it('negotiates the protocol version downward on 0xF4; channels a 1-byte table cannot express stay inhibited', async () => {
    const r = rig({ sim: { maxProtocolVersion: 5 } });
    await enabled(r);
    const tried = r.sim.received.filter((f) => f.data[0] === CMD.HOST_PROTOCOL_VERSION).map((f) => f.data[1]);
    assert.deepEqual(tried.slice(0, 3), [7, 6, 5]);
    r.sim.insertNote(1000); // value 1000 does not fit the version-5 one-byte channel value
    r.sim.insertNote(100);
    await r.rec.untilCount('credit');
    await r.rec.until(() => r.sim.returned.length === 1);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    await r.dev.close();
  });

  it('a validator that disabled itself during a slow journal write is enabled again', async () => {
    const r = rig({
      sim: { idleDisableMs: 100 },
      onCredit: async (c) => {
        await new Promise((res) => setTimeout(res, 200));
        r.credits.push(c);
      },
    });
    await enabled(r);
    r.sim.insertNote(100);
    await r.rec.untilCount('credit');
    r.sim.insertNote(500);
    await r.rec.untilCount('credit', 2);
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100, 500],
    );
    assert.ok(
      r.rec.of('idle').some((e) => !e.enabled),
      'the unit reported itself disabled',
    );
    await r.dev.close();
  });

  it('disabled while its ENABLE is on the wire: the DISABLE follows (the validator is not left taking notes)', async () => {
    // The state the validator was sent is what it holds, whatever the host wants by the reply:
    // taking the wish for applied left it enabled for good (no DISABLED event to say otherwise).
    const r = rig({ enabled: false });
    const cmds = () => r.sim.received.map((f) => f.data[0]);
    await r.rec.until(() => cmds().includes(CMD.DISABLE), 3000, 'disabled at setup');
    let raced = false;
    const off = r.dev.onFrame((f) => {
      if (raced || f.dir !== 'tx' || !f.meaning.startsWith('ENABLE ·')) return;
      raced = true;
      r.dev.disable();
    });
    r.dev.enable();
    await r.rec.until(
      () => {
        const c = cmds();
        const on = c.lastIndexOf(CMD.ENABLE);
        return on >= 0 && c.slice(on).includes(CMD.DISABLE);
      },
      3000,
      'a DISABLE sent after the ENABLE',
    );
    off();
    assert.equal(raced, true);
    await r.dev.close();
  });

  it('denominations changed while the validator is being set up: the new inhibits are sent too', async () => {
    // The simulated validator reports SLAVE RESET at its first POLL and is set up again: the change
    // is made during that second setup's SET INHIBITS, when nothing else would send them again.
    const r = rig({ accept: [100, 500] });
    let seen = 0;
    const off = r.dev.onFrame((f) => {
      if (f.dir !== 'tx' || !f.meaning.startsWith('SET INHIBITS ·')) return;
      if (++seen === 2) r.dev.setAccepted([100]);
    });
    await r.rec.until(() => r.sim.received.filter((f) => f.data[0] === CMD.SET_INHIBITS).length >= 3, 3000, 'the changed inhibits sent');
    off();
    await enabled(r);
    r.sim.insertNote(500);
    r.sim.insertNote(100);
    await r.rec.untilCount('stacked');
    assert.deepEqual(
      r.credits.map((c) => c.denomination),
      [100],
    );
    await r.dev.close();
  });

  it('the sequence flag alternates and a retry after a lost reply reuses it (no lost credit)', async () => {
    const r = rig();
    await enabled(r);
    r.sim.insertNote(100);
    await r.rec.untilCount('escrowed');
    r.sim.wireFault('drop', 1);
    r.sim.wireFault('garble', 1);
    r.sim.wireFault('truncate', 1);
    await r.rec.untilCount('stacked');
    assert.equal(r.credits.length, 1);
    const seqs = r.sim.received.map((f) => f.seqId & 0x80);
    // after SYNC (0x80) the next command goes out with 0x00
    assert.equal(seqs[1], 0);
    await r.dev.close();
  });

  it('every retry of the credit reply lost: link declared lost, the unanswered POLL is re-sent first, credit recovered', async () => {
    const r = rig();
    await enabled(r);
    r.sim.faultCreditReply('drop', 3); // as many as the driver's retries
    r.sim.insertNote(100);
    await r.rec.untilCount('disconnected');
    await r.rec.untilCount('credit');
    assert.deepEqual(
      r.credits.map((c) => [c.amount, c.recovered]),
      [[10000, false]],
    );
    assert.deepEqual(r.sim.cashbox, [100]);
    await r.dev.close();
  });

  // The retries of a session (3), then 3 sessions re-sending the unanswered POLL: 12 replies.
  it('the credit reply garbled through every re-send of four sessions: the validator is heard, so the packet is kept and the credit recovered', async () => {
    const r = rig();
    await enabled(r);
    r.sim.faultCreditReply('garble', 12);
    r.sim.insertNote(100);
    await r.rec.untilCount('credit', 1, 15_000);
    assert.deepEqual(
      r.credits.map((c) => [c.amount, c.recovered]),
      [[10000, false]],
    );
    assert.deepEqual(r.sim.cashbox, [100]);
    assert.ok(!r.rec.of('failure').some((e) => /never received/.test(e.reason)));
    await r.dev.close();
  });

  it('silence through every re-send of three sessions: SYNC comes in the end, with a failure saying a note may be uncredited', async () => {
    const r = rig();
    await enabled(r);
    r.sim.faultCreditReply('drop', 12);
    r.sim.insertNote(100);
    await r.rec.until(() => r.rec.of('failure').some((e) => /never received.*uncredited/.test(e.reason)), 15_000, 'the give-up failure');
    await r.rec.untilCount('connected', 2, 15_000);
    // SSP's limit, not hidden: after SYNC the validator has forgotten the NOTE CREDIT reply.
    assert.deepEqual(r.sim.cashbox, [100]);
    assert.deepEqual(r.credits, []);
    await r.dev.close();
  });

  it('HOLD keeps the note while the host decides; REJECT returns it; timeouts return too', async () => {
    let n = 0;
    const r = rig({
      onEscrow: async (): Promise<'stack' | 'return'> => {
        n++;
        if (n === 1) {
          await new Promise((res) => setTimeout(res, 50));
          return 'return';
        }
        return new Promise<never>(() => undefined);
      },
    });
    await enabled(r);
    r.sim.insertNote(100);
    r.sim.insertNote(20);
    await r.rec.untilCount('returned', 2);
    await r.rec.until(() => r.sim.returned.length === 2);
    assert.deepEqual(
      r.rec.of('returned').map((e) => e.reason),
      ['host', 'escrow-timeout'],
    );
    assert.ok(r.sim.received.some((f) => f.data[0] === CMD.HOLD));
    assert.equal(r.credits.length, 0);
    await r.dev.close();
  });

  it('a channel the table does not accept stays inhibited: the validator rejects the note', async () => {
    const r = rig({ accept: [100] });
    await enabled(r);
    r.sim.insertNote(500);
    await r.rec.untilCount('rejected');
    await r.rec.until(() => r.sim.returned.length === 1);
    assert.equal(r.credits.length, 0);
    await r.dev.close();
  });

  it('a failing credit callback repeats the POLL with the same flag; credit once', async () => {
    let calls = 0;
    const r = rig({
      onCredit: (c) => {
        if (++calls < 3) throw new Error('journal busy');
        r.credits.push(c);
      },
    });
    await enabled(r);
    r.sim.insertNote(50);
    await r.rec.untilCount('credit');
    assert.equal(calls, 3);
    assert.equal(r.credits.length, 1);
    assert.deepEqual(r.sim.cashbox, [50]);
    await r.dev.close();
  });

  it('faults: jam, stacker full, cashbox removed/replaced, fraud, failure', async () => {
    const r = rig();
    await enabled(r);
    r.sim.faults.jam();
    await r.rec.untilCount('jam');
    r.sim.faults.clear();
    await r.rec.untilCount('faultCleared');
    r.sim.faults.stackerFull();
    await r.rec.untilCount('stackerFull');
    r.sim.faults.clear();
    await r.rec.untilCount('faultCleared', 2);
    r.sim.faults.removeStacker();
    await r.rec.untilCount('stackerRemoved');
    r.sim.faults.replaceStacker();
    await r.rec.untilCount('faultCleared', 3);
    r.sim.faults.cheat();
    await r.rec.untilCount('cheated');
    r.sim.faults.clear();
    await r.rec.untilCount('faultCleared', 4);
    r.sim.faults.fail();
    await r.rec.untilCount('failure');
    r.sim.faults.clear();
    await r.rec.untilCount('faultCleared', 5);
    await r.dev.close();
  });

  for (const at of ['accepting', 'escrow', 'stacking', 'stacking-late', 'credit'] as BillStep[]) {
    it(`power cut after "${at}": credited exactly when the note ends in the cashbox; inhibits re-sent`, async () => {
      const r = rig();
      await enabled(r);
      r.sim.powerCut({ at, restoreAfterMs: 80 });
      r.sim.insertNote(100);
      await r.rec.until(() => !r.sim.powered);
      await r.rec.until(() => r.sim.powered && r.sim.cashbox.length + r.sim.returned.length === 1);
      await r.rec.until(() => r.rec.of('idle').filter((e) => e.enabled).length >= 2, 5000, 're-enabled');
      assert.equal(sum(r.credits.map((c) => c.amount)), sum(r.sim.cashbox) * 100);
      assert.ok(r.credits.length <= 1);
      if (at === 'stacking-late') {
        assert.deepEqual(
          r.rec.of('powerUp').map((e) => [e.notePending, e.creditOwed]),
          [['stacker', true]],
        );
        assert.equal(r.credits[0]?.recovered, true);
      }
      if (at === 'escrow')
        assert.deepEqual(
          r.rec.of('powerUp').map((e) => e.notePending),
          ['acceptor'],
        );
      await r.dev.close();
    });
  }

  it('unplug and replug mid-stack: reconnects (SYNC again), credits once', async () => {
    const r = rig();
    await enabled(r);
    r.sim.insertNote(500);
    await r.rec.untilCount('stacking');
    r.sim.unplug();
    await r.rec.untilCount('disconnected');
    r.sim.replug();
    await r.rec.untilCount('reconnected');
    await r.rec.until(() => r.sim.cashbox.length === 1 && r.credits.length === 1);
    assert.equal(r.rec.of('credit').length, 1);
    await r.dev.close();
  });

  it('after a restart, NOTE CLEARED INTO CASHBOX credits the journalled note with its id', async () => {
    const sim = new SspSimulator({ currency: 'HKD' });
    const bus = new FakeUsbBus();
    bus.plug(sim, { kind: 'cdc-acm' });
    const opener = async () => UsbSerialPort.open((await bus.getDevices())[0]!, LINE_8N2_9600, { bus, readTimeoutMs: 30 });
    let journalled: EscrowedNote | null = null;
    const a = new SspBillAcceptor(opener, { currency: 'HKD', enabled: true, ...FAST, onEscrow: (n) => ((journalled = n), 'stack') });
    const ra = new EventRecorder<BillAcceptorEvent>();
    a.on(ra.listener);
    a.start();
    await ra.until(() => ra.of('idle').some((e) => e.enabled));
    sim.powerCut({ at: 'stacking-late' });
    sim.insertNote(500);
    await ra.until(() => !sim.powered);
    await a.close();
    sim.powerOn();
    const credits: Credit[] = [];
    const b = new SspBillAcceptor(opener, {
      currency: 'HKD',
      ...FAST,
      pendingNote: { ...journalled!, stackSent: true },
      onCredit: (c) => void credits.push(c),
    });
    const rb = new EventRecorder<BillAcceptorEvent>();
    b.on(rb.listener);
    b.start();
    await rb.untilCount('credit');
    assert.deepEqual(
      credits.map((c) => [c.escrowId, c.amount, c.recovered]),
      [[journalled!.escrowId, 50000, true]],
    );
    await b.close();
  });

  it('property: random wire damage never invents, loses or duplicates a credit', async () => {
    const kinds = ['garble', 'truncate', 'drop', 'noise'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(10, 100, 1000), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(...kinds), fc.integer({ min: 0, max: 30 })), { maxLength: 6 }),
        async (notes, faults) => wireDamageRun(rig(), notes, faults),
      ),
      { numRuns: 8 },
    );
  });
});
