// A restart of the host while the printer holds a job (left from session 62's review): the driver's
// memory of unconfirmed templates went with the old process, the printer named none, the next
// ticket took template A, and the job held on A printed as that ticket (printed, on a voided
// ticket's paper). A new driver now resets the printer, after the questions asked at its start
// are answered; one not reported is sent again, and a printer that reports neither prints nothing
// (the station not ready) until it is power-cycled. A question asked after a reset about a job from before it is `unknown`: the
// printer's memory of it is gone, so "names the template it named before" proves nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventRecorder } from '../../hardware/sim/recorder.js';
import { LoopbackPort } from '../../hardware/transport/loopback.js';
import { TclPrinter } from '../../hardware/printer/driver.js';
import type { PrintAttempt } from '../../hardware/printer/judge.js';
import { TclPrinterSimulator } from '../../hardware/printer/simulator.js';
import { FAST_PRINTER, layoutDefined, ticketNo } from '../../hardware/printer/printer-rig.js';
import type { PrinterEvent } from '../../hardware/printer/types.js';

function host(sim: TclPrinterSimulator): { p: TclPrinter; rec: EventRecorder<PrinterEvent> } {
  const p = new TclPrinter(async () => new LoopbackPort(sim), FAST_PRINTER);
  const rec = new EventRecorder<PrinterEvent>();
  p.on(rec.listener);
  p.start();
  return { p, rec };
}

const lastTwo = (sim: TclPrinterSimulator): string[] => sim.paper.map((t) => t.barcode.slice(-2));

class NoResetSim extends TclPrinterSimulator {
  protected override handle(text: string): void {
    if (text === '^r|^') return; // unsupported, or ignored
    super.handle(text);
  }
}

/** An honest printer whose first reset's bytes are lost on the wire. */
class LostFirstResetSim extends TclPrinterSimulator {
  private lost = false;
  protected override handle(text: string): void {
    if (text === '^r|^' && !this.lost) {
      this.lost = true;
      return;
    }
    super.handle(text);
  }
}

/** The first host prints ticket 1; the printer keeps it in its buffer, deaf to the flush; the host stops. */
async function heldByAHostThatStopped(sim: TclPrinterSimulator): Promise<PrintAttempt> {
  const first = host(sim);
  await layoutDefined(first);
  sim.tell('held-past-flush', 1);
  let attempt: PrintAttempt | undefined;
  const out = await first.p.print({ ticket: ticketNo(1), onSend: (a) => void (attempt = a) });
  assert.equal(out.outcome === 'not-printed' && out.reason, 'ignored', JSON.stringify(out));
  await first.rec.until(() => sim.received.includes('^F|A|^'), 2000, 'the flush sent (the printer ignores it)');
  await first.p.close();
  assert.ok(attempt);
  assert.deepEqual(lastTwo(sim), [], 'nothing out yet: the job waits in the buffer');
  return attempt;
}

describe('a job the printer holds across a restart of the host', () => {
  it('the next host resets the printer before its first ticket: that ticket is printed on its own paper', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    await heldByAHostThatStopped(sim);
    const second = host(sim);
    await layoutDefined(second);
    const out = await second.p.print({ ticket: ticketNo(2) });
    await new Promise((r) => setTimeout(r, 300)); // a late print of the held job would be out by now
    assert.equal(out.outcome, 'printed', JSON.stringify(out));
    assert.deepEqual(lastTwo(sim), ['02'], 'the paper out is ticket 2 alone: the held ticket 1 was dropped with the reset');
    assert.equal(second.rec.of('failure').length, 0, 'a reset at start is routine: no fault');
    await second.p.close();
  });

  it('a printer that does not report the reset (sent twice): not ready, a fault says why, until it is power-cycled', async () => {
    const sim = new NoResetSim({ keepReceived: true });
    await heldByAHostThatStopped(sim);
    const second = host(sim);
    await second.rec.until(() => second.rec.of('failure').length > 0, 3000, 'a failure event, after the second reset');
    assert.equal(sim.received.filter((c) => c === '^r|^').length, 2, 'sent twice: one lost on the wire is no fault');
    assert.match(second.rec.of('failure')[0]?.reason ?? '', /reset sent at start, twice/);
    await new Promise((r) => setTimeout(r, 400)); // well past settleMs
    assert.equal(second.p.ready, false, 'the station reads not ready: no layout is defined');
    const refused = await second.p.print({ ticket: ticketNo(2) });
    assert.equal(refused.outcome === 'not-printed' && refused.reason, 'not-sent', JSON.stringify(refused));
    assert.deepEqual(lastTwo(sim), [], 'the held ticket 1 stays in the buffer: no command went');
    assert.equal(second.rec.of('failure').length, 1, 'one fault, not one per refusal');
    sim.powerCut({ restoreAfterMs: 20 });
    await new Promise((r) => setTimeout(r, 400));
    await layoutDefined(second);
    const after = await second.p.print({ ticket: ticketNo(3) });
    assert.equal(after.outcome, 'printed', JSON.stringify(after));
    assert.deepEqual(lastTwo(sim), ['03']);
    await second.p.close();
  });

  it('a reset lost once on the wire is sent again: the first ticket prints, no fault (a review)', async () => {
    const sim = new LostFirstResetSim({ keepReceived: true });
    await heldByAHostThatStopped(sim);
    const second = host(sim);
    await layoutDefined(second);
    const out = await second.p.print({ ticket: ticketNo(2) });
    assert.equal(out.outcome, 'printed', JSON.stringify(out));
    assert.deepEqual(lastTwo(sim), ['02']);
    assert.equal(second.rec.of('failure').length, 0);
    await second.p.close();
  });

  it('the link lost while the reset is written: the next session sends it, and the first ticket prints alone (a review)', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    await heldByAHostThatStopped(sim);
    let dropped = false;
    const p = new TclPrinter(async () => {
      const port = new LoopbackPort(sim);
      const write = port.write.bind(port);
      port.write = async (b: Uint8Array) => {
        if (!dropped && new TextDecoder().decode(b) === '^r|^') {
          dropped = true;
          throw new Error('link lost on the reset');
        }
        return write(b);
      };
      return port;
    }, FAST_PRINTER);
    const rec = new EventRecorder<PrinterEvent>();
    p.on(rec.listener);
    p.start();
    await rec.until(() => dropped, 2000, 'the reset lost');
    await layoutDefined({ p, rec });
    const out = await p.print({ ticket: ticketNo(2) });
    assert.equal(out.outcome, 'printed', JSON.stringify(out));
    assert.deepEqual(lastTwo(sim), ['02'], 'the held ticket 1 went with the reset the next session sent');
    assert.equal(rec.of('failure').length, 0);
    await p.close();
  });

  it('a question after the reset blocks no template: an honest jam later is a flush, not a reset and a fault (a review)', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = host(sim);
    await layoutDefined(first);
    let attempt: PrintAttempt | undefined;
    assert.equal((await first.p.print({ ticket: ticketNo(1), onSend: (a) => void (attempt = a) })).outcome, 'printed');
    sim.takeTicket();
    await first.p.close();
    assert.ok(attempt);
    const second = host(sim);
    await layoutDefined(second);
    await second.rec.until(() => sim.received.includes('^r|^'), 2000, 'the reset sent at start');
    assert.equal((await second.p.resolve(attempt)).outcome, 'unknown');
    assert.equal((await second.p.print({ ticket: ticketNo(2) })).outcome, 'printed');
    sim.takeTicket();
    sim.faults.jam('printing');
    assert.equal((await second.p.print({ ticket: ticketNo(3) })).outcome, 'unknown');
    sim.faults.clearJam();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(second.rec.of('failure').length, 0, JSON.stringify(second.rec.of('failure')));
    assert.equal(sim.received.filter((c) => c === '^r|^').length, 1, 'the start reset only');
    await second.p.close();
  });

  it('a question asked after the reset about a ticket printed before it is unknown, never "not printed"', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = host(sim);
    await layoutDefined(first);
    let attempt: PrintAttempt | undefined;
    const out = await first.p.print({ ticket: ticketNo(1), onSend: (a) => void (attempt = a) });
    assert.equal(out.outcome, 'printed');
    await first.p.close();
    assert.ok(attempt);
    assert.equal(attempt.before, '', 'the first ticket after power-up: the printer named no template before it');
    const second = host(sim);
    await layoutDefined(second);
    await second.rec.until(() => sim.received.includes('^r|^'), 2000, 'the reset sent at start');
    // A person asks again about ticket 1 (the service page's held list): the printer now names none.
    const asked = await second.p.resolve(attempt);
    assert.equal(asked.outcome === 'unknown' && asked.reason, 'printer-restarted', JSON.stringify(asked));
    await second.p.close();
  });

  it('questions asked at the start are answered before the reset, from the printer as the old host left it', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = host(sim);
    await layoutDefined(first);
    let attempt: PrintAttempt | undefined;
    assert.equal((await first.p.print({ ticket: ticketNo(1), onSend: (a) => void (attempt = a) })).outcome, 'printed');
    await first.p.close();
    assert.ok(attempt);
    const second = host(sim);
    const asked = await second.p.resolve(attempt);
    assert.equal(asked.outcome, 'printed', JSON.stringify(asked));
    await layoutDefined(second);
    assert.ok(sim.received.includes('^r|^'), 'the reset went, after the answer');
    await second.p.close();
  });
});
