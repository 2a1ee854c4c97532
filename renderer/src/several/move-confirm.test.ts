import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommandBody } from '../../../protocol/index.js';
import { STREAK_CONFIRM_MS } from '../station/cashout-offer.js';
import { MoveConfirm } from './move-confirm.js';

// A station following several tables, with a winning-streak stake held at one of them (Macau 2009
// Art. 13 5)): moving credit away from home, or leaving the table that holds it, first says the
// amount and what follows, as the cash-out does; the second press sends the acknowledgement.
const none = { betting: {} };
const holding = (amount: number) => ({ betting: { streak: { wins: 1, open: [{ bet: 'streak3' as const, amount }] } } });
const MOVE = { name: 'move-credit', to: 'bac-1', amount: 1_000 } as const;
const LEAVE = { name: 'leave-table' } as const;

describe('moving credit between tables with a winning-streak stake held (Macau 2009 Art. 13 5)(2) vi))', () => {
  it('with nothing held where the credit leaves, one press sends the plain command', () => {
    const c = new MoveConfirm();
    assert.deepEqual(
      c.press(MOVE, { home: none, focus: holding(5_000) }, 0),
      { kind: 'send', command: MOVE },
      'the move takes home’s credit: home holds nothing',
    );
    assert.deepEqual(
      c.press(LEAVE, { home: holding(5_000), focus: none }, 0),
      { kind: 'send', command: LEAVE },
      'leaving sends this table’s credit: it holds nothing',
    );
    assert.deepEqual(c.press(LEAVE, { home: null, focus: null }, 0), { kind: 'send', command: LEAVE });
  });

  it('a move from a home that holds a stake asks first; the second press within the window sends endsStreak', () => {
    const c = new MoveConfirm();
    const views = { home: holding(5_000), focus: none };
    assert.deepEqual(c.press(MOVE, views, 1_000), { kind: 'confirm', via: 'move-credit', amount: 5_000 });
    assert.equal(c.armed(views, 2_000), 'move-credit');
    const sent = c.press(MOVE, views, 2_000);
    assert.deepEqual(sent, { kind: 'send', command: { ...MOVE, endsStreak: true } });
    assert.ok(sent.kind === 'send');
    assert.deepEqual(CommandBody.parse(sent.command), { ...MOVE, endsStreak: true }, 'a command the host takes');
    assert.equal(c.press(MOVE, views, 2_500).kind, 'confirm', 'once sent, the next press asks again');
  });

  it('leaving the table that holds a stake asks first; the other button, the window over or another amount ask again', () => {
    const c = new MoveConfirm();
    const views = { home: none, focus: holding(5_000) };
    assert.deepEqual(c.press(LEAVE, views, 0), { kind: 'confirm', via: 'leave-table', amount: 5_000 });
    assert.equal(c.armed(views, STREAK_CONFIRM_MS), null, 'the window is over');
    assert.equal(c.press(LEAVE, views, STREAK_CONFIRM_MS).kind, 'confirm');
    assert.deepEqual(c.press(LEAVE, views, STREAK_CONFIRM_MS + 1), { kind: 'send', command: { ...LEAVE, endsStreak: true } });
    c.press(LEAVE, views, 0);
    assert.equal(c.press(MOVE, { home: holding(5_000), focus: holding(5_000) }, 1).kind, 'confirm', 'the move is its own question');
    c.press(LEAVE, views, 0);
    assert.equal(c.armed({ home: none, focus: holding(2_000) }, 1), null, 'another amount: what was said is no longer true');
    assert.deepEqual(c.press(LEAVE, { home: none, focus: none }, 2), { kind: 'send', command: LEAVE }, 'decided meanwhile: nothing to confirm');
  });
});
