// A printer that never becomes ready for a ticket, with no fault bit: its reset flag set at every
// status (the driver's ^C|^ never clears it, so the layout is never taken), a ticket in the chute
// that is never taken (or a chute sensor stuck), the chassis left open, busy for good, only the
// short status. Each makes every cash-out at the station a handpay (host/floor/ticket-out.ts
// `printerWhyNot`); before, no fault was raised for any of them, and nobody was told why the
// station had stopped printing tickets (a review of 6 December). Now one held past `stuckMs` is
// `printer-fault` at the station, said by its words, cleared by itself once the printer has
// stopped reporting it (as a mechanism fault is).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { PrinterCondition } from '../../hardware/printer/condition.js';
import { printerCondition } from '../../hardware/printer/test-condition.js';
import { onePrinter, printerTilts } from '../testing/printer-tilts.js';

function rig() {
  const r = printerTilts({ terminalId: 'T-PS', paperBackMs: 150, stuckMs: 300 });
  return {
    says: (over: Partial<PrinterCondition>) => r.emit({ type: 'condition', condition: printerCondition({ firmware: 'GURX1', ...over }) }),
    raised: () => r.journalled('tilt.raise').filter((t) => t.kind === 'printer-fault'),
    cleared: () => r.journalled('tilt.clear').filter((t) => t.kind === 'printer-fault'),
    station: r.station,
    close: r.close,
  };
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a printer stuck not ready for a ticket, with no fault bit, is a fault at its station', () => {
  const cases = [
    [{ reset: true }, 'tiltDetail.printerStuckReset'],
    [{ paperInChute: true }, 'tiltDetail.printerStuckChute'],
    [{ chassisOpen: true }, 'tiltDetail.printerStuckChassis'],
    // Busy from the session's first status on: no print cycle is seen to start, so no unsolicited-print either.
    [{ busy: true }, 'tiltDetail.printerStuckBusy'],
    // Only the short status (three flag bytes): nothing about a ticket's validation number, so no ticket is sent.
    [{ extended: false }, 'tiltDetail.printerStuckShort'],
  ] as const;
  for (const [over, key] of cases) {
    it(`${Object.keys(over).join('')} held past stuckMs: printer-fault (${key}); cleared once it goes`, async () => {
      const r = rig();
      try {
        r.says(over);
        await settle(100);
        assert.deepEqual(r.raised(), [], 'not at once: a ticket waits in the chute for its player a while, a power-up is cleared at the next poll');
        await settle(400);
        assert.equal(r.raised().length, 1, 'raised once it held');
        assert.equal(r.raised()[0]?.station, r.station);
        assert.equal(r.raised()[0]?.say?.key, key);
        r.says({});
        await settle(500);
        assert.equal(r.cleared().length, 1, 'cleared by itself');
      } finally {
        await r.close();
      }
    });
  }

  it('one that goes before stuckMs is none (a player takes the ticket)', async () => {
    const r = rig();
    try {
      r.says({ paperInChute: true });
      await settle(100);
      r.says({});
      await settle(600);
      assert.deepEqual(r.raised(), []);
    } finally {
      await r.close();
    }
  });

  it('a reset flag flapping at every poll is held all the same', async () => {
    const r = rig();
    try {
      for (let i = 0; i < 25; i++) {
        r.says(i % 2 === 0 ? { reset: true } : {});
        await settle(20);
      }
      assert.equal(r.raised().length, 1, 'raised once, though no status held it for stuckMs');
    } finally {
      await r.close();
    }
  });
});

describe("a stuck printer's fault the journal refuses", () => {
  it('is logged from its timer, not thrown out of it (that would end the host)', async () => {
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    const printer = onePrinter({
      log,
      faults: {
        raise: () => {
          throw new Error('journal full');
        },
        conditionGone: () => undefined,
      },
      paperBackMs: 150,
      stuckMs: 100,
    });
    try {
      printer.emit({ type: 'condition', condition: printerCondition({ paperInChute: true }) });
      await settle(300);
      assert.ok(
        errors.some((l) => l.includes('journal full')),
        'logged',
      );
    } finally {
      await printer.close();
    }
  });
});

describe("a printer fault's end the journal refuses", () => {
  it('is logged from its timer, not thrown out of it (that would end the host)', async () => {
    const errors: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
    const printer = onePrinter({
      log,
      faults: {
        raise: () => undefined,
        conditionGone: () => {
          throw new Error('journal full');
        },
      },
      paperBackMs: 100,
    });
    try {
      printer.emit({ type: 'condition', condition: printerCondition({ faults: ['paper-jam'] }) });
      printer.emit({ type: 'condition', condition: printerCondition({}) });
      await settle(300);
      assert.ok(
        errors.some((l) => l.includes('journal full')),
        'logged',
      );
    } finally {
      await printer.close();
    }
  });
});
