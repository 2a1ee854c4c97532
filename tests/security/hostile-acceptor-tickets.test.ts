// A hostile ID-003 acceptor and barcode tickets: each lie the unit can tell about a ticket in its
// escrow, at the byte level against the real driver. A lie about a ticket never makes the host
// confirm a redemption: a malformed barcode is refused before the host is asked, a barcode that
// changes after the host was asked about it is a `protocolViolation` (escrow-changed) and the host is
// never told it stacked, and a ticket the host refused that the unit stacks anyway is
// `credit-after-return`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptorRig } from '../../hardware/billacceptor/acceptor-rig.js';
import type { EscrowedTicket } from '../../hardware/billacceptor/types.js';

const TICKET = '123456789012345678';
const OTHER = '999999999999999999';

function rig(decision: 'stack' | 'return' = 'stack') {
  const asked: EscrowedTicket[] = [];
  const stacked: EscrowedTicket[] = [];
  const r = acceptorRig('id003', 'MOP', {
    onTicket: (t) => {
      asked.push(t);
      return decision;
    },
    onTicketStacked: (t) => void stacked.push(t),
  });
  return { ...r, asked, stacked };
}

async function settled(r: ReturnType<typeof rig>, physical: () => boolean): Promise<void> {
  await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
  await r.rec.until(physical, 4000, 'the ticket settled in the unit');
  // Polls after the last move: nothing more may be said.
  await new Promise((res) => setTimeout(res, 80));
}

describe('a hostile ID-003 acceptor and barcode tickets', () => {
  for (const [barcode, reason] of [
    ['12345', 'bad-length'],
    ['1234567890123456789', 'bad-length'],
    ['', 'bad-length'],
    ['12345678901234567X', 'not-digits'],
    ['1234567890123456 8', 'not-digits'],
    ['１２３４５６７８９０１２３４５６７８', 'bad-length'],
  ] as const) {
    it(`a barcode of ${JSON.stringify(barcode)} in escrow: refused (${reason}) and returned, the host never asked`, async () => {
      const r = rig();
      await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
      r.sim.insertTicket(barcode, { escrowAnything: true });
      await settled(r, () => r.sim.ticketsReturned.length === 1);
      assert.deepEqual(
        r.rec.of('ticketRefused').map((e) => e.reason),
        [reason],
      );
      assert.deepEqual(r.asked, []);
      assert.deepEqual(r.stacked, []);
      assert.equal(r.rec.of('ticketEscrowed').length, 0);
      await r.dev.close();
    });
  }

  it('the barcode changes in escrow while the host asks the authority: escrow-changed, returned, never stacked', async () => {
    const r = rig();
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
    r.sim.insertTicket(TICKET, { swapTo: OTHER, swapAt: 'escrow' });
    await settled(r, () => r.sim.ticketsReturned.length + r.sim.ticketsStacked.length === 1);
    assert.deepEqual(
      r.asked.map((t) => t.validationNumber),
      [TICKET],
    );
    assert.deepEqual(
      r.rec.of('protocolViolation').map((v) => [v.rule, v.ticket?.validationNumber]),
      [['escrow-changed', TICKET]],
    );
    assert.deepEqual(r.stacked, []);
    assert.deepEqual(r.sim.ticketsStacked, [], 'the STACK never went: the approval was for another barcode');
    await r.dev.close();
  });

  it('the barcode changes after STACK (another ticket claimed in escrow): escrow-changed, the host never told it stacked', async () => {
    const r = rig();
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
    r.sim.insertTicket(TICKET, { swapTo: OTHER, swapAt: 'stacking' });
    await settled(r, () => r.sim.ticketsStacked.length + r.sim.ticketsReturned.length === 1);
    assert.deepEqual(
      r.rec.of('protocolViolation').map((v) => [v.rule, v.ticket?.validationNumber]),
      [['escrow-changed', TICKET]],
    );
    assert.deepEqual(r.stacked, [], 'no redemption confirmed on a lying unit: the authority keeps it pending for a supervisor');
    assert.equal(r.rec.of('ticketStacked').length, 0);
    await r.dev.close();
  });

  // A ticket is paid to whoever holds its number: the violation's report goes into the station's
  // bill-cheat fault (journalled, and shown on service mode's event log), so it names a barcode by
  // its last four digits, as every screen does. Until 7 December it carried the ESCROW frame's bytes,
  // the whole barcode in hex ASCII (6f 39 39 …), of a ticket that may still be payable.
  for (const swapAt of ['escrow', 'stacking'] as const) {
    it(`the report of a barcode changed at ${swapAt} names it by its last four digits, never whole (in digits or in hex)`, async () => {
      const r = rig();
      await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
      r.sim.insertTicket(TICKET, { swapTo: OTHER, swapAt });
      await settled(r, () => r.sim.ticketsStacked.length + r.sim.ticketsReturned.length === 1);
      const reports = r.rec.of('protocolViolation').map((v) => v.report);
      assert.equal(reports.length, 1);
      const hexOf = (digits: string) => Array.from(digits, (c) => c.charCodeAt(0).toString(16)).join(' ');
      for (const report of reports) {
        for (const barcode of [TICKET, OTHER]) {
          assert.ok(!report.includes(barcode.slice(0, 8)), `${report} has ${barcode}'s digits`);
          assert.ok(!report.includes(hexOf(barcode.slice(0, 8))), `${report} has ${barcode}'s digits in hex`);
        }
        assert.match(report, /^ESCROW 0x13 6f, a barcode of 18 characters ending …9999/);
      }
      await r.dev.close();
    });
  }

  it('a ticket the host refused, stacked anyway (RETURN acknowledged, then VEND VALID): credit-after-return, never stacked', async () => {
    const r = rig('return');
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
    r.sim.insertTicket(TICKET, { stackWhenReturned: true });
    await settled(r, () => r.sim.ticketsStacked.length === 1);
    assert.deepEqual(
      r.rec.of('protocolViolation').map((v) => [v.rule, v.ticket?.validationNumber]),
      [['credit-after-return', TICKET]],
    );
    assert.deepEqual(r.stacked, []);
    await r.dev.close();
  });

  it('a ticket escrowed with no onTicket is refused even if well formed (a table that takes no tickets)', async () => {
    const r = acceptorRig('id003', 'MOP');
    await r.rec.until(() => r.rec.of('idle').some((e) => e.enabled));
    r.sim.insertTicket(TICKET, { escrowAnything: true });
    await r.rec.until(() => r.sim.ticketsReturned.length === 1, 4000);
    assert.deepEqual(
      r.rec.of('ticketRefused').map((e) => e.reason),
      ['tickets-off'],
    );
    assert.equal(r.rec.of('ticketStacked').length, 0);
    await r.dev.close();
  });
});
