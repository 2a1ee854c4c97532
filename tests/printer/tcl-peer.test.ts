// The real TCL driver and simulator against a second implementation written from the protocol page
// (tcl-peer.ts): the driver prints on the peer's printer, the peer's host prints on the simulator.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../hardware/sim/recorder.js';
import { LoopbackPort } from '../../hardware/transport/loopback.js';
import { TclPrinter } from '../../hardware/printer/driver.js';
import { FAST_PRINTER, ticketNo } from '../../hardware/printer/printer-rig.js';
import { TclPrinterSimulator } from '../../hardware/printer/simulator.js';
import { sampleTicket } from '../../hardware/printer/test-ticket.js';
import type { PrinterEvent } from '../../hardware/printer/types.js';
import { PeerPrinter, peerHostPrint } from './tcl-peer.js';

const barcodes = (peer: PeerPrinter): string[] => peer.printed.map((f) => f.find((x) => /^[0-9]{18}$/.test(x)) ?? '?');

/** Our driver started on the peer's printer, once the layout is defined there. */
async function driverOn(peer: PeerPrinter): Promise<{ p: TclPrinter; rec: EventRecorder<PrinterEvent> }> {
  const p = new TclPrinter(async () => new LoopbackPort(peer), FAST_PRINTER);
  const rec = new EventRecorder<PrinterEvent>();
  p.on(rec.listener);
  p.start();
  await rec.until(() => p.ready, 3000, 'layout defined on the peer');
  return { p, rec };
}

describe('TCL: our driver and simulator against an independent peer', () => {
  it("the driver prints on the peer's printer: printed, every field as sent (escapes and UTF-8 included)", async () => {
    const peer = new PeerPrinter();
    const { p, rec } = await driverOn(peer);
    try {
      const t = sampleTicket({ labels: { ...sampleTicket().labels, title: 'CASH|OUT ^ ~ 兌現' } });
      const out = await p.print({ ticket: t });
      assert.equal(out.outcome, 'printed', JSON.stringify(out));
      assert.equal(peer.printed.length, 1);
      const fields = peer.printed[0] ?? [];
      assert.equal(fields[0], 'CASH|OUT ^ ~ 兌現');
      assert.ok(fields.includes('123456789012345678'), 'the barcode digits');
      assert.ok(fields.includes('澳門元壹佰圓正'));
      assert.equal(rec.of('protocolViolation').length, 0);
    } finally {
      await p.close();
    }
  });

  it('a job the peer held in its buffer is flushed before the next ticket: the peer prints that ticket alone', async () => {
    const peer = new PeerPrinter();
    const { p } = await driverOn(peer);
    try {
      peer.holdNext = true;
      const held = await p.print({ ticket: ticketNo(1) });
      assert.equal(held.outcome === 'not-printed' && held.reason, 'ignored', JSON.stringify(held));
      const next = await p.print({ ticket: ticketNo(2) });
      assert.equal(next.outcome, 'printed', JSON.stringify(next));
      assert.deepEqual(barcodes(peer), ['000000000000000002'], 'ticket 1 was flushed, never printed');
      assert.deepEqual(peer.refused, [], 'the peer took every command (the flush included)');
    } finally {
      await p.close();
    }
  });

  it('a new driver resets the peer at its start: a job an earlier host left in the buffer is lost, not printed as the next ticket', async () => {
    const peer = new PeerPrinter();
    const { p: first } = await driverOn(peer);
    peer.holdNext = true;
    const printing = first.print({ ticket: ticketNo(1) });
    await new Promise((r) => setTimeout(r, 40)); // the command went; the host stops before any verdict or flush
    await first.close();
    assert.equal((await printing).outcome, 'unknown');
    const { p: second } = await driverOn(peer); // ready only after the reset: no layout before it
    try {
      const out = await second.print({ ticket: ticketNo(2) });
      assert.equal(out.outcome, 'printed', JSON.stringify(out));
      assert.deepEqual(barcodes(peer), ['000000000000000002']);
      assert.equal(peer.resets, 1, 'one reset, at the start');
      assert.deepEqual(peer.refused, []);
    } finally {
      await second.close();
    }
  });

  it("the peer's host prints on the simulator: busy, then the validation number done, then its template named; the ticket comes out", async () => {
    const sim = new TclPrinterSimulator();
    const port = new LoopbackPort(sim);
    const seen = await peerHostPrint(port, '000000000000004242');
    await port.close();
    const last = seen.at(-1);
    assert.deepEqual(last && [last.busy, last.validationDone, last.lastTemplate], [false, true, 'Q']);
    assert.ok(
      seen.some((s) => s.busy && !s.validationDone),
      'the job was seen taken with its flag clear',
    );
    assert.ok(seen.length > 0 && seen.every((s) => !s.reset), "the power-up reset flag was cleared by the peer's ^C|^");
    assert.deepEqual(
      sim.paper.map((t) => [t.barcode, t.whole, t.barcodeComplete]),
      [['000000000000004242', true, true]],
    );
  });
});
