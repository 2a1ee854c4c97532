// A printer that does not act on ^r|^ (a review of 4 December): after two unconfirmed jobs the
// driver asks for a reset it never sees, and refuses every print as not ready (handpays) until the
// printer reports a reset: a technician's power cycle. Before, the power cycle did not help either.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../hardware/sim/recorder.js';
import { LoopbackPort } from '../../hardware/transport/loopback.js';
import { TclPrinter } from '../../hardware/printer/driver.js';
import { TclPrinterSimulator } from '../../hardware/printer/simulator.js';
import { FAST_PRINTER, layoutDefined, ticketNo } from '../../hardware/printer/printer-rig.js';
import type { PrinterEvent } from '../../hardware/printer/types.js';

class NoResetSim extends TclPrinterSimulator {
  protected override handle(text: string): void {
    if (text === '^r|^') return; // unsupported / ignored
    super.handle(text);
  }
}

describe('a reset the printer does not report', () => {
  it('the driver prints again once the printer is healthy (here: after a power cycle)', async () => {
    const sim = new NoResetSim({ keepReceived: true });
    const p = new TclPrinter(async () => new LoopbackPort(sim), { ...FAST_PRINTER, printTimeoutMs: 1500 });
    const rec = new EventRecorder<PrinterEvent>();
    p.on(rec.listener);
    p.start();
    await layoutDefined({ p, rec });
    assert.equal((await p.print({ ticket: ticketNo(1) })).outcome, 'printed');
    sim.takeTicket();
    for (const n of [2, 3]) {
      sim.faults.jam('printing');
      assert.equal((await p.print({ ticket: ticketNo(n) })).outcome, 'unknown');
      sim.faults.clearJam();
      await rec.until(() => p.condition?.faults.includes('paper-jam') === false, 2000, 'jam cleared');
    }
    await rec.until(() => sim.received.includes('^r|^'), 2000, 'reset sent');
    await new Promise((r) => setTimeout(r, 600)); // well past settleMs (120 ms): the layout is defined again
    const outs: string[] = [];
    for (let n = 4; n <= 12; n++) {
      // After three refusals a technician power-cycles the printer (its buffer is certainly gone).
      if (n === 7) {
        sim.powerCut({ restoreAfterMs: 50 });
        await new Promise((r) => setTimeout(r, 600));
        outs.push('|power-cycled|');
      }
      await layoutDefined({ p, rec });
      const o = await p.print({ ticket: ticketNo(n) });
      outs.push(`${o.outcome}${'reason' in o ? `:${o.reason}` : ''}`);
      sim.takeTicket();
      await new Promise((r) => setTimeout(r, 300));
    }
    assert.deepEqual(outs.slice(-3), ['printed', 'printed', 'printed'], `refused for good: ${outs.join(' ')}`);
    await p.close();
  });
});
