// The purge after a verdict that is not printed waits for the printer to be idle (a review of 4
// December): a reset sent while a job was still in the engine cut the ticket and wiped the evidence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../hardware/sim/recorder.js';
import { LoopbackPort } from '../../hardware/transport/loopback.js';
import { TclPrinter } from '../../hardware/printer/driver.js';
import { TclPrinterSimulator } from '../../hardware/printer/simulator.js';
import { FAST_PRINTER, layoutDefined, ticketNo } from '../../hardware/printer/printer-rig.js';
import type { PrinterEvent } from '../../hardware/printer/types.js';

describe('purge while the job is still printing', () => {
  it('the ticket still in the engine is not cut, and a later resolve can still find it printed', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const p = new TclPrinter(async () => new LoopbackPort(sim), { ...FAST_PRINTER, printTimeoutMs: 1500 });
    const rec = new EventRecorder<PrinterEvent>();
    p.on(rec.listener);
    p.start();
    await layoutDefined({ p, rec });
    for (const [n, jam] of [
      [1, false],
      [2, true],
    ] as const) {
      if (jam) sim.faults.jam('printing');
      await p.print({ ticket: ticketNo(n) });
      sim.faults.clearJam();
      sim.takeTicket();
      await rec.until(() => p.condition?.faults.includes('paper-jam') === false, 2000, 'jam cleared');
      await layoutDefined({ p, rec });
    }
    sim.tell('reset-mid-print', 1);
    const five = await p.print({ ticket: ticketNo(3) });
    await new Promise((r) => setTimeout(r, 400));
    assert.ok(five.attempt);
    await p.resolve(five.attempt);
    const mine = sim.paper.filter((t) => t.barcode.endsWith('03'));
    assert.ok(
      mine.some((t) => t.whole),
      'ticket 3 cut mid-print by the purge',
    );
    await p.close();
  });
});
