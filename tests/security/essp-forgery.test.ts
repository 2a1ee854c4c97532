// A station machine in the middle of an eSSP validator's link (issue 28 item 2). Relayed, the
// validator's bytes pass through a machine on the casino floor; eSSP's encryption is meant to make
// that machine as harmless as a cable: the key is the validator's fixed key (the host's alone)
// joined to one agreed by Diffie–Hellman. Before: once encrypted, the SSP driver still took a
// reply in clear (`reply[0] !== STEX` was read as plain SSP), so the machine in the middle could
// answer the host's encrypted POLLs with plain "note read" and "note credit" events of its own:
// a credit of a note nobody inserted. Now a session that agreed a key takes encrypted replies
// only; anything else is not the validator's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SspBillAcceptor } from '../../hardware/billacceptor/ssp/driver.js';
import { EVENT, RESP } from '../../hardware/billacceptor/ssp/constants.js';
import { encodeSsp } from '../../hardware/billacceptor/ssp/frame.js';
import { SspSimulator } from '../../hardware/billacceptor/ssp/simulator.js';
import type { BillAcceptorEvent, Credit, EscrowedNote } from '../../hardware/billacceptor/types.js';
import { EventRecorder } from '../../hardware/sim/recorder.js';
import { BasePort } from '../../hardware/transport/byte-port.js';
import { LoopbackPort } from '../../hardware/transport/loopback.js';

const FAST = { pollIntervalMs: 2, replyTimeoutMs: 60, reconnectBaseMs: 5, reconnectMaxMs: 40, escrowTimeoutMs: 400 };

/** The station's machine: what it answers once armed (null: it passes the bytes), and how often it did. */
interface Machine {
  reply: (() => number[]) | null;
  forged: number;
}

/**
 * A link through the station's machine: it passes the validator's bytes both ways until armed,
 * then answers each packet of the host itself, in clear, with the forged reply of the moment (its
 * sequence byte is the host's packet's, so the reply looks like the answer to it). The driver opens
 * a new one at each session; the machine stays armed.
 */
class MachineInTheMiddle extends BasePort {
  readonly description = 'machine in the middle';

  constructor(
    private readonly inner: LoopbackPort,
    private readonly machine: Machine,
  ) {
    super();
    inner.onData((b) => {
      if (!this.machine.reply) this.deliver(b);
    });
  }

  async write(bytes: Uint8Array): Promise<void> {
    const forge = this.machine.reply;
    if (!forge) return this.inner.write(bytes);
    this.machine.forged++;
    const reply = encodeSsp(bytes[1] ?? 0, forge());
    queueMicrotask(() => this.deliver(reply));
  }

  protected async shutdown(): Promise<void> {
    await this.inner.close();
  }
}

describe('eSSP relayed through a machine that lies', () => {
  it('plain "note read" and "note credit" replies to encrypted POLLs are not the validator\'s: nothing is credited', async () => {
    const sim = new SspSimulator({ encrypted: true, currency: 'MOP' });
    const machine: Machine = { reply: null, forged: 0 };
    const credits: Credit[] = [];
    const escrows: EscrowedNote[] = [];
    const dev = new SspBillAcceptor(async () => new MachineInTheMiddle(new LoopbackPort(sim), machine), {
      currency: 'MOP',
      enabled: true,
      encryption: 'always',
      ...FAST,
      onEscrow: (n) => (escrows.push(n), 'stack'),
      onCredit: (c) => void credits.push(c),
    });
    const rec = new EventRecorder<BillAcceptorEvent>();
    dev.on(rec.listener);
    dev.start();
    try {
      await rec.until(() => rec.of('idle').some((e) => e.enabled), 5000, 'enabled');
      assert.ok(dev.encrypted, 'the session agreed a key');
      // From now on the machine answers every packet itself, in clear: a 500 read, then credited.
      let n = 0;
      const channel = 5;
      machine.reply = () => (n++ % 2 === 0 ? [RESP.OK, EVENT.READ, channel] : [RESP.OK, EVENT.CREDIT, channel]);
      await new Promise((r) => setTimeout(r, 1500));
      assert.ok(machine.forged > 5, `the machine answered the host (${machine.forged} times)`);
      assert.deepEqual(credits, [], 'no credit of a note nobody inserted');
      assert.deepEqual(escrows, [], 'not even an escrow');
      assert.deepEqual(sim.cashbox, []);
    } finally {
      await dev.close();
    }
  });
});
