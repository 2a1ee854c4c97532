// Autoplay's simulated attendant. A soak with tickets and kills (`etg soak --tickets --kill-every
// 11`) stopped in 3 of 4 runs on 29 November: each kill that landed while a ticket printed left it
// in print after the restart (`printer-restarted`, the printer cannot say), its station locked for
// a person, and nobody came. Once every station was locked nobody could bet and no round closed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { HeldTicket, HandSettled, HandSettlement } from '../floor/ticket-out.js';
import { manualTimers } from '../testing/manual-timers.js';
import { startSimAttendant, type AttendantTickets } from './sim-attendant.js';

/** Tickets held at stations, settled as a person's hand would (the real rule: host/floor/ticket-out.ts). */
function heldTickets(held: { station: number; validation: string; amount: number }[]) {
  const settled: { station: number; last4: string; outcome: HandSettlement; by: readonly string[] }[] = [];
  const tickets: AttendantTickets = {
    held: (): HeldTicket[] =>
      held
        .filter((h) => !settled.some((s) => s.station === h.station))
        .map((h) => ({ station: h.station, last4: h.validation.slice(-4), amount: h.amount, since: '' })),
    validationAt: (station) => held.find((h) => h.station === station)?.validation ?? null,
    settleByHand: (station, last4, outcome, by): HandSettled => {
      settled.push({ station, last4, outcome, by });
      return { ok: true, station, last4, amount: held.find((h) => h.station === station)?.amount ?? 0, outcome };
    },
  };
  return { tickets, settled };
}

/** No handpays pending; the two-person rule at 1,000.00 (`handpayTwoPersonAbove`). */
const noHandpays = { pending: () => [], confirm: () => ({ ok: true as const, station: 0, amount: 0 }), needsWitness: (amount: number) => amount > 100_000 };

/** Runs the attendant's rounds (every 500 ms) for `ms`. */
const runFor = (advance: (ms: number) => void, ms: number) => {
  for (let t = 0; t < ms; t += 100) advance(100);
};
const log = pino({ level: 'silent' });

describe("autoplay's simulated attendant", () => {
  it('settles a ticket held after a restart as the paper says: printed if it came out whole, else void (the credit back)', () => {
    const { timers, advance } = manualTimers();
    const { tickets, settled } = heldTickets([
      { station: 1, validation: '008504841208473864', amount: 30_000 },
      { station: 2, validation: '006830475163243704', amount: 20_000 },
    ]);
    // Station 1's printer holds that ticket whole (it was cut and presented); station 2's holds nothing.
    const paper = new Map([[1, [{ barcode: '008504841208473864', whole: true }]]]);
    const stop = startSimAttendant({ handpays: noHandpays, tickets, paperAt: (s) => paper.get(s) ?? [] }, timers, log);
    runFor(advance, 5_000);
    stop();
    assert.deepEqual(
      settled.map((s) => [s.station, s.last4, s.outcome]),
      [
        [1, '3864', 'printed'],
        [2, '3704', 'void'],
      ],
    );
  });

  it('voids a ticket whose paper jammed half out (not whole), and names a second person above the two-person amount', () => {
    const { timers, advance } = manualTimers();
    const { tickets, settled } = heldTickets([{ station: 3, validation: '000677490275296352', amount: 150_000 }]);
    const stop = startSimAttendant({ handpays: noHandpays, tickets, paperAt: () => [{ barcode: '000677490275296352', whole: false }] }, timers, log);
    runFor(advance, 5_000);
    stop();
    assert.equal(settled.length, 1);
    assert.equal(settled[0]?.outcome, 'void');
    assert.equal(settled[0]?.by.length, 2, 'above the two-person amount a witness is named');
  });

  it('leaves a ticket at a station without a simulated printer to a real person', () => {
    const { timers, advance } = manualTimers();
    const { tickets, settled } = heldTickets([{ station: 4, validation: '001111222233334444', amount: 1_000 }]);
    const stop = startSimAttendant({ handpays: noHandpays, tickets, paperAt: () => null }, timers, log);
    runFor(advance, 5_000);
    stop();
    assert.deepEqual(settled, []);
  });

  it('waits a moment before settling (a held ticket seen on one round is settled on the next), and stops when told', () => {
    const { timers, advance } = manualTimers();
    const { tickets, settled } = heldTickets([{ station: 1, validation: '008504841208473864', amount: 30_000 }]);
    const stop = startSimAttendant({ handpays: noHandpays, tickets, paperAt: () => [] }, timers, log);
    runFor(advance, 600);
    assert.equal(settled.length, 0, 'not on the round it is first seen held');
    runFor(advance, 500);
    assert.equal(settled.length, 1, 'on the next');
    stop();
    const again = heldTickets([{ station: 2, validation: '006830475163243704', amount: 20_000 }]);
    const stopAgain = startSimAttendant({ handpays: noHandpays, tickets: again.tickets, paperAt: () => [] }, timers, log);
    stopAgain();
    runFor(advance, 10_000);
    assert.equal(again.settled.length, 0, 'nothing after stop');
  });

  it('looks again later while the printer is busy with a job (a ticket may still be coming out)', () => {
    const { timers, advance } = manualTimers();
    const { tickets, settled } = heldTickets([{ station: 1, validation: '008504841208473864', amount: 30_000 }]);
    let busy = true;
    const paper: { barcode: string; whole: boolean }[] = [];
    const stop = startSimAttendant({ handpays: noHandpays, tickets, paperAt: () => (busy ? null : paper) }, timers, log);
    runFor(advance, 3_000);
    assert.equal(settled.length, 0, 'not while the printer is busy');
    // The job ends: the ticket came out whole after all.
    paper.push({ barcode: '008504841208473864', whole: true });
    busy = false;
    runFor(advance, 1_000);
    stop();
    assert.deepEqual(
      settled.map((s) => s.outcome),
      ['printed'],
    );
  });
});
