import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CashoutState, CommandBody } from '../../../protocol/index.js';
import { cashoutCommand, offersHandpay } from './cashout-offer.js';

describe('the station’s cash-out: a ticket by default, a handpay when the player asks', () => {
  it('sends the plain cash-out for the ticket and names the handpay when the player picks it', () => {
    assert.deepEqual(cashoutCommand('ticket'), { name: 'cash-out' });
    assert.deepEqual(cashoutCommand('handpay'), { name: 'cash-out', via: 'handpay' });
    // Both are commands the host's schema takes as they are.
    assert.deepEqual(CommandBody.parse(cashoutCommand('handpay')), { name: 'cash-out', via: 'handpay' });
    assert.deepEqual(CommandBody.parse(cashoutCommand('ticket')), { name: 'cash-out' });
  });

  it('offers the handpay only where the station prints tickets', () => {
    const printing = CashoutState.parse({ pending: null, printsTickets: true });
    assert.equal(offersHandpay({ cashout: printing }), true);
    assert.equal(offersHandpay({ cashout: CashoutState.parse({ pending: null }) }), false, 'no printer: handpays only, one button');
    assert.equal(offersHandpay({}), false, 'no floor: no cash-out state');
  });

  it('the view refuses a printer said false or as anything but true (a station without one says nothing)', () => {
    assert.equal(CashoutState.safeParse({ pending: null, printsTickets: false }).success, false);
    assert.equal(CashoutState.safeParse({ pending: null, printsTickets: 'yes' }).success, false);
  });
});
