// 0x71 FF after exception 0x68 (SAS 6.02 §15.12: 68, then 71 FF, then the final status): the end
// the station reported is answered until the system has read it, whatever ticket came next; the
// next ticket's 0x70 begins its cycle and ends that wait. The cycle alone, no link (the pty tests
// are tests/sas/tickets.e2e.test.ts and host-tickets.e2e.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDEEM_STATUS, TRANSFER, TicketRedemption, type RedeemReply } from './redemption.js';

const FIRST = '001111111111111111';
const SECOND = '002222222222222222';
const LIMIT = 100_000;

const status71 = (r: TicketRedemption): RedeemReply => r.redeem(TRANSFER.statusRequest, 0, '');
const shown = ({ status, amount, validation }: RedeemReply) => ({ status, amount, validation });

/** The first ticket approved for `amount` and stacked, its 0x68 reported; the second in escrow. */
async function secondBeforeFirstRead(amount: number): Promise<TicketRedemption> {
  const r = new TicketRedemption();
  const decided = r.begin(FIRST, LIMIT, 'a-1');
  assert.equal(r.redeem(TRANSFER.cashable, amount, FIRST).status, REDEEM_STATUS.pending);
  assert.deepEqual(await decided, { kind: 'approved', amount });
  r.reportEnd({ attempt: 'a-1', validation: FIRST, status: REDEEM_STATUS.cashableRedeemed, amount });
  r.end(FIRST, 'stacked', amount);
  void r.begin(SECOND, LIMIT, 'a-2');
  return r;
}

describe('0x71 FF answers the end 0x68 reported until the system has it', () => {
  it('a second ticket in escrow does not take the first’s place; once the answer is acknowledged, the second’s wait', async () => {
    const r = await secondBeforeFirstRead(1_500);
    const first = status71(r);
    assert.deepEqual(shown(first), { status: REDEEM_STATUS.cashableRedeemed, amount: 1_500, validation: FIRST });
    assert.deepEqual(shown(status71(r)), shown(first), 'not acknowledged: asked again, the same end');
    first.onAck?.();
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.waitingFor71, amount: 0, validation: SECOND });
  });

  it('the second ticket’s 0x70 begins its cycle: the first’s end, never asked for, is not answered in its place', async () => {
    const r = await secondBeforeFirstRead(1_500);
    assert.deepEqual(r.escrow(), { validation: SECOND });
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.waitingFor71, amount: 0, validation: SECOND });
  });

  it('the second ticket is decided as before while the first’s end waits to be read', async () => {
    const r = await secondBeforeFirstRead(1_500);
    assert.equal(r.redeem(TRANSFER.cashable, 700, SECOND).status, REDEEM_STATUS.pending);
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.cashableRedeemed, amount: 1_500, validation: FIRST });
  });

  it('a rejection reported is answered as the station’s own cycle said it (the system’s 80), not as the journal’s word reads (88)', () => {
    const r = new TicketRedemption();
    void r.begin(FIRST, LIMIT, 'a-1');
    assert.equal(r.redeem(TRANSFER.unableToValidate, 0, FIRST).status, REDEEM_STATUS.rejectedByHost);
    r.end(FIRST, 'returned');
    void r.begin(SECOND, LIMIT, 'a-2');
    r.reportEnd({ attempt: 'a-1', validation: FIRST, status: REDEEM_STATUS.timeout, amount: 0 });
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.rejectedByHost, amount: 0, validation: FIRST });
  });

  it('an end known before this run (read already) is answered only while no cycle is newer', () => {
    const r = new TicketRedemption();
    r.reportEnd({ attempt: 'a-0', validation: FIRST, status: REDEEM_STATUS.cashableRedeemed, amount: 900 }, true);
    const last = status71(r);
    assert.deepEqual(shown(last), { status: REDEEM_STATUS.cashableRedeemed, amount: 900, validation: FIRST });
    assert.equal(last.onAck, undefined);
    void r.begin(SECOND, LIMIT, 'a-1');
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.waitingFor71, amount: 0, validation: SECOND });
  });
});

describe('a ticket the system approved that the station returns at its credit limit (docs/sas.md, "The station credit limit")', () => {
  it('0x71 FF says 84 (above the machine’s credit limit), not 8B (the acceptor failed): nothing redeemed', async () => {
    const r = new TicketRedemption();
    const decided = r.begin(FIRST, LIMIT, 'a-1');
    assert.equal(r.redeem(TRANSFER.cashable, 2_000, FIRST).status, REDEEM_STATUS.pending);
    assert.deepEqual(await decided, { kind: 'approved', amount: 2_000 });
    r.end(FIRST, 'credit-limit');
    assert.deepEqual(shown(status71(r)), { status: REDEEM_STATUS.overLimit, amount: 0, validation: FIRST });
  });
});
