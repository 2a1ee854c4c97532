import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CashoutState, CommandBody } from '../../../protocol/index.js';
import { CashoutConfirm, cashoutCommand, offersHandpay, STREAK_CONFIRM_MS, streakHeld } from './cashout-offer.js';

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

  describe('with a winning-streak stake held (Macau 2009 Art. 13 5)(2) vi))', () => {
    const none = { betting: {} };
    const holding = (amount: number) => ({ betting: { streak: { wins: 1, open: [{ bet: 'streak3' as const, amount }] } } });

    it('reads the held amount from the view: every open level', () => {
      assert.equal(streakHeld(none), 0);
      assert.equal(
        streakHeld({
          betting: {
            streak: {
              wins: 1,
              open: [
                { bet: 'streak3', amount: 5_000 },
                { bet: 'streak5', amount: 1_000 },
              ],
            },
          },
        }),
        6_000,
      );
    });

    it('with nothing held, one press sends the plain cash-out (no acknowledgement)', () => {
      const c = new CashoutConfirm();
      assert.deepEqual(c.press('ticket', none, 0), { kind: 'send', command: { name: 'cash-out' } });
      assert.deepEqual(c.press('handpay', none, 0), { kind: 'send', command: { name: 'cash-out', via: 'handpay' } });
    });

    it('asks first with the amount; the second press of the same button within the window sends endsStreak', () => {
      const c = new CashoutConfirm();
      assert.deepEqual(c.press('ticket', holding(5_000), 1_000), { kind: 'confirm', via: 'ticket', amount: 5_000 });
      assert.equal(c.armedFor(holding(5_000), 2_000), 'ticket');
      const sent = c.press('ticket', holding(5_000), 2_000);
      assert.deepEqual(sent, { kind: 'send', command: { name: 'cash-out', endsStreak: true } });
      assert.ok(sent.kind === 'send');
      assert.deepEqual(CommandBody.parse(sent.command), { name: 'cash-out', endsStreak: true }, 'a command the host takes');
      assert.equal(c.armedFor(holding(5_000), 2_000), null, 'once sent, the next press asks again');
      assert.equal(c.press('ticket', holding(5_000), 2_500).kind, 'confirm');
    });

    it('asks again after the window, for the other button, or when the amount held changed', () => {
      const c = new CashoutConfirm();
      c.press('ticket', holding(5_000), 0);
      assert.equal(c.armedFor(holding(5_000), STREAK_CONFIRM_MS), null, 'the window is over');
      assert.equal(c.press('ticket', holding(5_000), STREAK_CONFIRM_MS).kind, 'confirm');
      assert.equal(c.press('handpay', holding(5_000), STREAK_CONFIRM_MS + 1).kind, 'confirm', 'the handpay is its own question');
      assert.deepEqual(c.press('handpay', holding(5_000), STREAK_CONFIRM_MS + 2), {
        kind: 'send',
        command: { name: 'cash-out', via: 'handpay', endsStreak: true },
      });
      c.press('ticket', holding(5_000), 0);
      assert.equal(c.armedFor(holding(2_000), 1), null, 'another amount: what was said is no longer true');
      assert.deepEqual(c.press('ticket', holding(2_000), 2), { kind: 'confirm', via: 'ticket', amount: 2_000 });
      assert.deepEqual(c.press('ticket', none, 3), { kind: 'send', command: { name: 'cash-out' } }, 'the streak decided meanwhile: nothing to confirm');
    });
  });
});
