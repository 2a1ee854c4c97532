// 0x71 with transfer code FF (status request, SAS 6.02 §15.12: "Host polls for completion status
// with long poll 71 (transfer code FF)") in the full layout: the system sends the request's other
// fields (amount, parsing code, the ticket's number) as it does for a decision. Only the code is
// read for FF. The public Aristocrat SAS client answers such a poll with the status
// (LP71RedeemTicketParser: a request of the full length is parsed, then decided by its code).
// Until 7 December the station NACKed every 0x71 FF whose length was not 01, so a system asking
// in the full form could never read whether its ticket was redeemed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDEEM_STATUS, TRANSFER, TicketRedemption } from '../../hardware/sas/redemption.js';
import { ticketPoll } from '../../hardware/sas/ticket-polls.js';
import type { SasGameSide } from '../../hardware/sas/types.js';
import { read71, redeem71Bytes } from './host/tickets.js';
import { appendCrc } from './host/codec.js';

const ADDRESS = 3;
const TICKET = '001234567890123456';

function side(redemption: TicketRedemption): SasGameSide {
  return { tickets: { redemption, validationId: () => null, validationInfo: () => null } } as unknown as SasGameSide;
}

/** The answer as the host simulator reads it (address and command first), or the machine's NACK/ignore. */
function ask(game: SasGameSide, bytes: number[]) {
  const r = ticketPoll(Uint8Array.from(bytes), game);
  assert.ok(r && r.kind === 'payload', `answered, not ${r?.kind}`);
  return read71([ADDRESS, 0x71, ...r.payload]);
}

describe('0x71 FF in the full layout', () => {
  it('is answered with the ticket’s status as the short form is; nothing is decided by it', async () => {
    const redemption = new TicketRedemption();
    const game = side(redemption);
    const decided = redemption.begin(TICKET, 100_000, 'a-1');
    const short = appendCrc([ADDRESS, 0x71, 0x01, 0xff]);
    // While the ticket waits for the system: 20, in both forms; the full form names an amount, which approves nothing.
    const full = redeem71Bytes(ADDRESS, TRANSFER.statusRequest, 50_000, TICKET);
    assert.deepEqual(ask(game, full), ask(game, short));
    assert.equal(ask(game, full).status, REDEEM_STATUS.waitingFor71);
    // Approved and stacked: 00 with the amount approved, in both forms.
    assert.equal(ask(game, redeem71Bytes(ADDRESS, TRANSFER.cashable, 1_500, TICKET)).status, REDEEM_STATUS.pending);
    assert.deepEqual(await decided, { kind: 'approved', amount: 1_500 });
    redemption.end(TICKET, 'stacked', 1_500, 'a-1');
    assert.deepEqual(ask(game, full), ask(game, short));
    assert.deepEqual([ask(game, full).status, ask(game, full).amount], [REDEEM_STATUS.cashableRedeemed, 1_500]);
  });
});
