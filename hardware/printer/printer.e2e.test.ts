// End to end: the real TCL driver → FTDI bridge code → fake USBDevice → TCL printer simulator.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { OpenedPrinter } from '../open.js';
import { EventRecorder } from '../sim/recorder.js';
import { LoopbackPort } from '../transport/loopback.js';
import { TclPrinter } from './driver.js';
import type { PrintAttempt } from './judge.js';
import { TclPrinterSimulator } from './simulator.js';
import { FAST_PRINTER, layoutDefined, printerRig, ticketNo, type PrinterRig } from './printer-rig.js';
import { printCommand } from './template.js';
import type { PrinterEvent, PrinterOptions } from './types.js';

const open: OpenedPrinter[] = [];
after(async () => {
  for (const p of open) await p.close();
});

function rig(extra: PrinterOptions = {}): PrinterRig {
  const r = printerRig(extra);
  open.push(r.p);
  return r;
}

const ready = layoutDefined;
const ticket = ticketNo;

describe('TCL printer end to end over the fake FTDI bridge', () => {
  it('prints a ticket: the attempt is journalled before the command, the outcome comes from the status', async () => {
    const r = rig();
    await ready(r);
    const journalled: { attempt: PrintAttempt; sentYet: boolean }[] = [];
    const out = await r.p.print({
      ticket: ticket(1),
      onSend: (attempt) => void journalled.push({ attempt, sentYet: r.sim.received.some((c) => c.startsWith('^P|')) }),
    });
    assert.equal(out.outcome, 'printed');
    assert.deepEqual(journalled, [{ attempt: { validationNumber: '000000000000000001', template: 'A', before: '' }, sentYet: false }]);
    assert.equal(r.sim.paper.length, 1);
    assert.deepEqual(
      r.sim.paper.map((t) => [t.barcode, t.whole, t.barcodeComplete, t.template]),
      [['000000000000000001', true, true, 'A']],
    );
    assert.ok(r.sim.paper[0]?.fields.includes('澳門元壹佰圓正'), 'the Chinese words reach the printer as UTF-8');
    assert.equal(r.sim.usb.bridge.line?.parity, 'none');
    await r.p.close();
  });

  it('consecutive tickets rotate the three templates, so the status names which job was last', async () => {
    const r = rig();
    await ready(r);
    const templates: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const out = await r.p.print({ ticket: ticket(n) });
      assert.equal(out.outcome, 'printed');
      templates.push(out.attempt?.template ?? '?');
      r.sim.takeTicket();
    }
    assert.deepEqual(templates, ['A', 'B', 'C']);
    assert.deepEqual(
      r.sim.paper.map((t) => t.barcode.slice(-1)),
      ['1', '2', '3'],
    );
    await r.p.close();
  });

  it('refuses (sends nothing) when not ready: paper out, head up, a ticket in the chute; prints once cleared', async () => {
    const r = rig();
    await ready(r);
    r.sim.faults.paperOut();
    await r.rec.until(() => r.p.condition?.faults.includes('paper-out') === true);
    assert.deepEqual(await r.p.print({ ticket: ticket(1) }).then((o) => [o.outcome, 'reason' in o ? o.reason : '']), ['not-printed', 'not-ready']);
    r.sim.faults.paperOut(false);
    r.sim.faults.openHead();
    await r.rec.until(() => r.p.condition?.faults.includes('platen-up') === true);
    assert.equal((await r.p.print({ ticket: ticket(1) })).outcome, 'not-printed');
    r.sim.faults.openHead(false);
    await r.rec.until(() => r.p.condition?.faults.length === 0);
    assert.equal((await r.p.print({ ticket: ticket(1) })).outcome, 'printed');
    assert.equal((await r.p.print({ ticket: ticket(2) })).outcome, 'not-printed', 'ticket 1 still in the chute');
    r.sim.takeTicket();
    await r.rec.until(() => r.p.condition?.paperInChute === false);
    assert.equal((await r.p.print({ ticket: ticket(2) })).outcome, 'printed');
    assert.equal(r.sim.received.filter((c) => c.startsWith('^P|')).length, 2);
    await r.p.close();
  });

  it('reports paper low, head open, chassis open as conditions', async () => {
    const r = rig();
    await ready(r);
    r.sim.faults.paperLow();
    r.sim.faults.openChassis();
    await r.rec.until(() => r.rec.of('condition').some((e) => e.condition.paperLow && e.condition.chassisOpen));
    r.sim.faults.openHead();
    await r.rec.until(() => r.rec.of('condition').some((e) => e.condition.faults.includes('platen-up')));
    await r.p.close();
  });

  it('a jam before the barcode, or after it, is unknown, never printed', async () => {
    for (const at of ['printing', 'validated'] as const) {
      const r = rig();
      await ready(r);
      r.sim.faults.jam(at);
      const out = await r.p.print({ ticket: ticket(7) });
      assert.equal(out.outcome, 'unknown', at);
      assert.equal(out.outcome === 'unknown' && out.reason, 'fault-while-printing');
      assert.equal(out.evidence.validationPrinted, at === 'validated');
      assert.deepEqual(
        r.sim.paper.map((t) => [t.whole, t.barcodeComplete]),
        [[false, at === 'validated']],
      );
      await r.p.close();
    }
  });

  it('the host journals, then fails: a throwing onSend sends nothing', async () => {
    const r = rig();
    await ready(r);
    const out = await r.p.print({
      ticket: ticket(9),
      onSend: () => {
        throw new Error('disk full');
      },
    });
    assert.deepEqual([out.outcome, out.outcome === 'not-printed' && out.reason], ['not-printed', 'not-journalled']);
    assert.equal(r.sim.received.filter((c) => c.startsWith('^P|')).length, 0);
    await r.p.close();
  });

  it('refuses a malformed ticket and a second print while one is out', async () => {
    const r = rig();
    await ready(r);
    const bad = await r.p.print({ ticket: { ...ticket(1), validationNumber: '12' } });
    assert.equal(bad.outcome === 'not-printed' && bad.reason, 'invalid-ticket');
    const first = r.p.print({ ticket: ticket(1) });
    const second = await r.p.print({ ticket: ticket(2) });
    assert.equal(second.outcome === 'not-printed' && second.reason, 'driver-busy');
    assert.equal((await first).outcome, 'printed');
    await r.p.close();
  });

  it('prints exactly once through garbled, truncated, noisy and dropped replies', async () => {
    const r = rig();
    await ready(r);
    for (const k of ['garble', 'truncate', 'noise', 'drop', 'garble', 'truncate'] as const) r.sim.wireFault(k);
    const out = await r.p.print({ ticket: ticket(5) });
    // Three lost replies in a row drop the link mid-job; the reconnected session's status answers it.
    assert.equal(out.outcome, 'printed');
    assert.equal(r.sim.paper.length, 1);
    await r.p.close();
  });

  it('a power cut of the printer mid-print is unknown once it is back (it restarted), and stays so', async () => {
    const r = rig();
    await ready(r);
    r.sim.powerCut({ at: 'barcode', restoreAfterMs: 100 });
    const out = await r.p.print({ ticket: ticket(3) });
    assert.equal(out.outcome === 'unknown' && out.reason, 'printer-restarted');
    assert.ok(out.attempt);
    const again = await r.p.resolve(out.attempt);
    assert.equal(again.outcome === 'unknown' && again.reason, 'printer-restarted');
    assert.deepEqual(
      r.sim.paper.map((t) => t.whole),
      [false],
    );
    await r.p.close();
  });

  it('refuses a print while disconnected (nothing sent)', async () => {
    const r = rig();
    await ready(r);
    r.sim.unplug();
    await r.rec.untilCount('disconnected');
    const out = await r.p.print({ ticket: ticket(4) });
    assert.equal(out.outcome === 'not-printed' && out.reason, 'not-sent');
    r.sim.replug();
    await r.rec.untilCount('reconnected');
    await r.p.close();
  });
});

describe('a ticket in flight when the host died: resolved from the printer by a new driver', () => {
  const newHost = (sim: TclPrinterSimulator) => {
    const p = new TclPrinter(async () => new LoopbackPort(sim), FAST_PRINTER);
    p.start();
    return p;
  };

  it('command sent, host gone: the printer finishes the job, the next host finds it printed', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = newHost(sim);
    const rec = new EventRecorder<PrinterEvent>();
    first.on(rec.listener);
    await ready({ p: first, rec });
    let attempt: PrintAttempt | undefined;
    const printing = first.print({ ticket: ticket(11), onSend: (a) => void (attempt = a) });
    await rec.until(() => sim.received.some((c) => c.startsWith('^P|')));
    await first.close(); // the host dies with the job in the printer
    assert.equal((await printing).outcome, 'unknown');
    assert.ok(attempt);
    const second = newHost(sim);
    const told: PrinterEvent[] = [];
    second.on((e) => (e.type === 'protocolViolation' || e.type === 'failure') && told.push(e));
    const out = await second.resolve(attempt);
    assert.equal(out.outcome, 'printed');
    assert.deepEqual(
      sim.paper.map((t) => [t.barcode, t.whole]),
      [['000000000000000011', true]],
    );
    // The job asked about, finished in front of the next host: no print nobody asked for (a
    // review: it raised unsolicited-print, printer-misbehaved latched at the station for an attendant).
    assert.deepEqual(told, []);
    await second.close();
  });

  it('command sent, the ticket jams after its barcode, host gone: the next host cannot say (held for a person), never not printed', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = newHost(sim);
    const rec = new EventRecorder<PrinterEvent>();
    first.on(rec.listener);
    await ready({ p: first, rec });
    sim.faults.jam('validated');
    let attempt: PrintAttempt | undefined;
    const printing = first.print({ ticket: ticket(15), onSend: (a) => void (attempt = a) });
    await rec.until(() => sim.paper.length > 0);
    await first.close(); // the host dies before it journals the printer's verdict
    await printing;
    assert.ok(attempt);
    assert.deepEqual(
      sim.paper.map((t) => [t.barcode, t.whole, t.barcodeComplete]),
      [['000000000000000015', false, true]],
      'the paper: cut short, its barcode whole',
    );
    const second = newHost(sim);
    const out = await second.resolve(attempt);
    assert.deepEqual([out.outcome, 'reason' in out && out.reason], ['unknown', 'fault-while-printing']);
    await second.close();
  });

  it('a printer that names the template asked about with no print cycle in front of the next host (stale-validation) is not believed', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = newHost(sim);
    const rec = new EventRecorder<PrinterEvent>();
    first.on(rec.listener);
    await ready({ p: first, rec });
    assert.equal((await first.print({ ticket: ticket(16) })).outcome, 'printed');
    sim.takeTicket();
    await first.close();
    // The old host's last command, on the next template, reached the printer as the host died; the printer lies about it.
    sim.tell('stale-validation', 1);
    sim.receive(printCommand('B', ticket(17)));
    const second = newHost(sim);
    const out = await second.resolve({ validationNumber: ticket(17).validationNumber, template: 'B', before: 'A' });
    assert.deepEqual(
      sim.paper.map((t) => t.barcode.slice(-2)),
      ['16'],
      'ticket 17 never came out',
    );
    assert.notEqual(out.outcome, 'printed', JSON.stringify(out));
    assert.equal(out.outcome === 'unknown' && out.reason, 'inconsistent');
    await second.close();
  });

  it('attempt journalled, host gone before the command: the next host finds it not printed', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = newHost(sim);
    const rec = new EventRecorder<PrinterEvent>();
    first.on(rec.listener);
    await ready({ p: first, rec });
    let attempt: PrintAttempt | undefined;
    const out1 = await first.print({
      ticket: ticket(12),
      onSend: (a) => {
        attempt = a;
        // The power goes right after the journal write: the host never gets to write the command.
        void first.close();
        throw new Error('power cut');
      },
    });
    assert.notEqual(out1.outcome, 'printed');
    assert.ok(attempt);
    const second = newHost(sim);
    const out = await second.resolve(attempt);
    assert.equal(out.outcome === 'not-printed' && out.reason, 'ignored');
    assert.equal(sim.paper.length, 0);
    await second.close();
  });

  it('a job the printer still holds, found not printed by the next host: flushed before its next ticket', async () => {
    const sim = new TclPrinterSimulator({ keepReceived: true });
    const first = newHost(sim);
    const rec = new EventRecorder<PrinterEvent>();
    first.on(rec.listener);
    await ready({ p: first, rec });
    sim.tell('held-till-next', 1);
    let attempt: PrintAttempt | undefined;
    const printing = first.print({ ticket: ticket(13), onSend: (a) => void (attempt = a) });
    await rec.until(() => sim.received.some((c) => c.startsWith('^P|')));
    await first.close();
    await printing;
    assert.ok(attempt);
    const second = newHost(sim);
    const rec2 = new EventRecorder<PrinterEvent>();
    second.on(rec2.listener);
    const out = await second.resolve(attempt);
    assert.equal(out.outcome === 'not-printed' && out.reason, 'ignored');
    await ready({ p: second, rec: rec2 });
    const next = await second.print({ ticket: ticket(14) });
    assert.deepEqual(
      sim.paper.map((t) => t.barcode.slice(-2)),
      next.outcome === 'printed' ? ['14'] : sim.paper.map((t) => t.barcode.slice(-2)),
      'printed: the paper out is ticket 14 alone',
    );
    assert.equal(next.outcome, 'printed', JSON.stringify(next));
    await second.close();
  });
});
