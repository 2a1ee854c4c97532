// A hostile (or broken) ticket printer, at the byte level: the TCL simulator tells each lie its
// protocol allows, and the driver must never answer `printed` unless the status replies said so,
// consistently, for that job; and every print must come back within its deadline, whatever the
// printer does. The one lie no driver can see (a clean cycle told for a jammed ticket) is shown
// too, with what protects the floor from it (docs/protocols/tcl.md, "What no driver can catch").
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import type { OpenedPrinter } from '../../hardware/open.js';
import { printerRig, layoutDefined, ticketNo, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { PRINTER_LIES, type PrinterLie } from '../../hardware/printer/lies.js';
import type { PrinterStep } from '../../hardware/printer/simulator.js';
import type { PrintOutcome } from '../../hardware/printer/types.js';

const opened: OpenedPrinter[] = [];
after(async () => {
  for (const p of opened) await p.close();
});

const DEADLINE = 1500;

function rig(): PrinterRig {
  const r = printerRig({ printTimeoutMs: DEADLINE });
  opened.push(r.p);
  return r;
}

/** Prints ticket n and checks it came back within the deadline (plus slack for the machine). */
async function timedPrint(r: PrinterRig, n: number): Promise<PrintOutcome> {
  const t0 = Date.now();
  const out = await r.p.print({ ticket: ticketNo(n) });
  assert.ok(Date.now() - t0 < DEADLINE + 1000, `print ${n} took ${Date.now() - t0} ms`);
  return out;
}

/** A ticket the truth says came out whole with its whole barcode. */
const reallyPrinted = (r: PrinterRig, n: number): boolean => r.sim.paper.some((t) => t.barcode === String(n).padStart(18, '0') && t.whole && t.barcodeComplete);

describe('a printer that lies', () => {
  const expected: Record<PrinterLie, { outcome: PrintOutcome['outcome']; violation?: string }> = {
    'jam-claims-printed': { outcome: 'unknown' },
    'jam-silent': { outcome: 'printed' },
    'print-twice': { outcome: 'printed', violation: 'unsolicited-print' },
    'stale-validation': { outcome: 'unknown' },
    'reset-mid-print': { outcome: 'unknown' },
    'wrong-template': { outcome: 'unknown' },
    garbage: { outcome: 'unknown', violation: 'garbage' },
    silence: { outcome: 'unknown' },
    'held-till-next': { outcome: 'not-printed' },
    'held-past-flush': { outcome: 'not-printed' },
  };

  for (const lie of PRINTER_LIES) {
    it(`${lie}: ${expected[lie].outcome}${expected[lie].violation ? `, ${expected[lie].violation}` : ''}`, async () => {
      const r = rig();
      await layoutDefined(r);
      r.sim.tell(lie, 1);
      const out = await timedPrint(r, 1);
      assert.equal(out.outcome, expected[lie].outcome, JSON.stringify(out));
      if (out.outcome === 'printed' && lie !== 'jam-silent') assert.ok(reallyPrinted(r, 1), 'printed only for a ticket that came out');
      if (lie === 'jam-silent') {
        // The lie the protocol cannot show: the status told a clean, complete cycle.
        assert.equal(reallyPrinted(r, 1), false);
        assert.deepEqual(
          r.sim.paper.map((t) => [t.whole, t.barcodeComplete]),
          [[false, false]],
        );
      }
      if (lie === 'print-twice') {
        await r.rec.until(() => r.rec.of('protocolViolation').some((v) => v.rule === 'unsolicited-print'), 2000, 'the second print reported');
        await r.rec.until(() => r.sim.paper.filter((t) => t.barcode === '000000000000000001').length === 2, 2000, 'two tickets');
      }
      const violation = expected[lie].violation;
      if (violation) await r.rec.until(() => r.rec.of('protocolViolation').some((v) => v.rule === violation), 2000, violation);
      await r.p.close();
    });
  }

  it('a printer that answers nothing at all: every print returns (not sent), none hangs', async () => {
    const r = rig();
    await layoutDefined(r);
    r.sim.wireLie('silence');
    await r.rec.untilCount('disconnected');
    for (let n = 1; n <= 3; n++) assert.equal((await timedPrint(r, n)).outcome, 'not-printed');
    assert.equal(r.sim.received.filter((c) => c.startsWith('^P|')).length, 0);
    await r.p.close();
  });

  it('a printer that goes silent mid-job: unknown within the deadline', async () => {
    const r = rig();
    await layoutDefined(r);
    let polls = 0;
    r.sim.received.length = 0;
    const iv = setInterval(() => {
      if (r.sim.received.some((c) => c.startsWith('^P|')) && ++polls === 2) r.sim.wireLie('silence');
    }, 1);
    const out = await timedPrint(r, 1);
    clearInterval(iv);
    assert.equal(out.outcome, 'unknown');
    await r.p.close();
  });
});

// A review of 4 December: a printer that held job 1 past settleMs (judged not printed, its number
// voided) and printed it when job 2's command came made job 2 read as printed, on the same template,
// with job 1's voided number on the paper. After any verdict but printed for a job whose command
// went, the driver flushes the printer's buffer, and the next ticket avoids that job's template.
describe("a job held in the printer's buffer past its verdict", () => {
  const barcodes = (r: PrinterRig): string[] => r.sim.paper.map((t) => t.barcode.replace(/^0+/, ''));

  it('flushed: the next ticket is printed alone, and the held one never comes out', async () => {
    const r = rig();
    await layoutDefined(r);
    r.sim.tell('held-till-next', 1);
    const first = await timedPrint(r, 1);
    assert.equal(first.outcome, 'not-printed', JSON.stringify(first));
    const second = await timedPrint(r, 2);
    assert.deepEqual(barcodes(r), second.outcome === 'printed' ? ['2'] : barcodes(r), 'printed: the paper out is ticket 2 alone');
    assert.equal(second.outcome, 'printed', JSON.stringify(second));
    assert.ok(r.sim.received.includes('^F|A|^'), 'the buffer was flushed');
    r.sim.takeTicket();
    assert.equal((await timedPrint(r, 3)).outcome, 'printed');
    assert.deepEqual(barcodes(r), ['2', '3'], 'ticket 1 never printed');
    await r.p.close();
  });

  it('a printer deaf to the flush: the late print is not taken for the next ticket (unknown), and its template is avoided', async () => {
    const r = rig();
    await layoutDefined(r);
    r.sim.tell('held-past-flush', 1);
    const first = await timedPrint(r, 1);
    assert.equal(first.outcome, 'not-printed', JSON.stringify(first));
    const second = await timedPrint(r, 2);
    assert.notEqual(second.attempt?.template, first.attempt?.template, 'ticket 2 avoids the template of the job held');
    assert.equal(second.outcome, 'unknown', `${JSON.stringify(second)} with paper ${JSON.stringify(barcodes(r))}`);
    await r.rec.until(() => barcodes(r).length === 2, 2000, 'both jobs out');
    assert.deepEqual(barcodes(r), ['1', '2']);
    r.sim.takeTicket();
    // The paper is out before the driver's next status says the printer is idle again; asked before
    // that, it is rightly not ready (seen under CI's load: busy in the driver's last status).
    await r.rec.until(() => r.p.condition?.busy === false, 2000, 'the printer idle again');
    const third = await timedPrint(r, 3);
    assert.equal(third.outcome, 'printed', JSON.stringify(third));
    assert.deepEqual(barcodes(r), ['1', '2', '3']);
    await r.p.close();
  });

  it('when every template is named last or unconfirmed, the printer is reset and its layout defined again', async () => {
    const r = rig();
    await layoutDefined(r);
    assert.equal((await timedPrint(r, 1)).outcome, 'printed');
    r.sim.takeTicket();
    for (const n of [2, 3]) {
      r.sim.faults.jam('printing');
      const out = await timedPrint(r, n);
      assert.equal(out.outcome, 'unknown', JSON.stringify(out));
      r.sim.faults.clearJam();
      await r.rec.until(() => r.p.condition?.faults.includes('paper-jam') === false, 2000, 'the jam cleared');
    }
    await r.rec.until(() => r.sim.received.includes('^r|^'), 2000, 'the printer reset');
    await layoutDefined(r);
    const fourth = await timedPrint(r, 4);
    assert.equal(fourth.outcome, 'printed', JSON.stringify(fourth));
    assert.ok(reallyPrinted(r, 4));
    await r.p.close();
  });
});

describe('fuzz: lies, jams, power cuts and wire damage together', () => {
  const steps: PrinterStep[] = ['taken', 'printing', 'barcode', 'validated', 'cutting'];
  it('printed implies the ticket came out whole with its barcode (but for the one undetectable lie), and so for the ticket after it; nothing hangs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          lie: fc.option(fc.constantFrom(...PRINTER_LIES.filter((l) => l !== 'jam-silent' && l !== 'silence')), { nil: null }),
          jamAt: fc.option(fc.constantFrom(...steps), { nil: null }),
          cutAt: fc.option(fc.constantFrom(...steps), { nil: null }),
          wire: fc.array(fc.constantFrom('garble', 'truncate', 'drop', 'noise'), { maxLength: 4 }),
        }),
        async ({ lie, jamAt, cutAt, wire }) => {
          const r = rig();
          try {
            await layoutDefined(r);
            if (lie) r.sim.tell(lie, 1);
            if (jamAt) r.sim.faults.jam(jamAt);
            if (cutAt) r.sim.powerCut({ at: cutAt, restoreAfterMs: 30 });
            for (const w of wire) r.sim.wireFault(w);
            const out = await timedPrint(r, 77);
            if (out.outcome === 'printed') assert.ok(reallyPrinted(r, 77), `printed, yet: ${JSON.stringify(r.sim.paper)} ${JSON.stringify(out)}`);
            if (out.outcome === 'not-printed') assert.equal(r.sim.paper.length, 0, JSON.stringify(out));
            // The next ticket, on an honest wire: printed only if it came out (not an earlier job printed late).
            r.sim.takeTicket();
            const next = await timedPrint(r, 78);
            if (next.outcome === 'printed') assert.ok(reallyPrinted(r, 78), `78 printed, yet: ${JSON.stringify(r.sim.paper)} ${JSON.stringify(next)}`);
          } finally {
            await r.p.close();
          }
        },
      ),
      { numRuns: 8, seed: 4711 },
    );
  });
});
