import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openServiceSessions, pendingTableHold, serviceDisabledDevices } from './floor-queries.js';
import { billCredit } from './fixtures.js';
import { Ledger } from './ledger.js';

const fresh = () => Ledger.open({ file: ':memory:', terminalId: 'T-1' });
const hold = (l: Ledger, detail: string, resolution: 'pending' | 'card-entered' | 'round-void', roundId?: string) =>
  l.append({
    type: 'misread',
    payload: {
      tableId: 'T1',
      ...(roundId ? { roundId } : {}),
      detail,
      resolution,
      ...(resolution === 'pending' ? { shoeSequence: [9] } : { confirmedBy: ['a', 'b'] }),
    },
  });

describe('floor queries', () => {
  it("a pending hold outside any round until its resolution; a hold of a round is not the table's", () => {
    const l = fresh();
    assert.equal(pendingTableHold(l), null);
    hold(l, 'unreadable', 'pending', 'R-1');
    assert.equal(pendingTableHold(l), null, "a round's hold is rebuilt with its round");
    hold(l, 'extra-card', 'pending');
    assert.deepEqual({ ...pendingTableHold(l), seq: 0, ts: '' }, { seq: 0, ts: '', reason: 'extra-card', shoeSequence: 9, readsDuringHold: [] });
    // Cards that left the shoe during the hold are the hold's, not holds of their own.
    l.append({
      type: 'misread',
      payload: { tableId: 'T1', detail: 'card read during the extra-card hold', resolution: 'pending', duringHold: true, card: '5C', shoeSequence: [10] },
    });
    l.append({
      type: 'misread',
      payload: { tableId: 'T1', detail: 'unreadable read during the extra-card hold', resolution: 'pending', duringHold: true, shoeSequence: [11] },
    });
    assert.deepEqual(
      [pendingTableHold(l)?.reason, pendingTableHold(l)?.shoeSequence, pendingTableHold(l)?.readsDuringHold],
      ['extra-card', 9, [{ card: '5C', shoeSequence: 10 }, { shoeSequence: 11 }]],
    );
    hold(l, 'extra-card hold lifted by a void: stray', 'round-void');
    assert.equal(pendingTableHold(l), null);
    hold(l, 'unreadable', 'pending');
    assert.equal(pendingTableHold(l)?.reason, 'unreadable');
    hold(l, 'unreadable card entered by hand', 'card-entered');
    assert.equal(pendingTableHold(l), null);
  });

  it('takes a hold as lifted when an older journal shows only what came after it: a void action, or bets', () => {
    const l = fresh();
    hold(l, 'extra-card', 'pending');
    l.append({ type: 'service.action', payload: { who: 'Ana (1001)', action: 'void-round', confirmedBy: 'Bo (1002)', detail: 'round R-2: stray card' } });
    assert.equal(pendingTableHold(l), null);
    hold(l, 'inventory', 'pending');
    l.append(billCredit(1, 50_000, 'n1'));
    assert.equal(pendingTableHold(l)?.reason, 'inventory', 'a note credited lifts nothing');
    l.append({
      type: 'bet.place',
      payload: { station: 1, roundId: 'R-3', tableId: 'T1', bets: [{ seat: 1, bet: 'main', amount: 10_000 }] },
      txId: 'R-3:bet:1',
    });
    assert.equal(pendingTableHold(l), null);
  });

  it('lists the devices whose last enable/disable in service mode was a disable', () => {
    const l = fresh();
    const test = (device: string, t: 'enable' | 'disable' | 'note') =>
      l.append({ type: 'service.test', payload: { who: 'Bo (1002)', device, test: t, result: 'done' } });
    test('BA-1', 'disable');
    test('BA-2', 'disable');
    test('BA-2', 'enable');
    test('BA-1', 'note');
    test('BA-3', 'enable');
    assert.deepEqual(serviceDisabledDevices(l), ['BA-1']);
  });

  it('finds the service sessions entered and never exited, an exit naming its entry or (older ones) its staff', () => {
    const l = fresh();
    const enter = (staff: string) => l.append({ type: 'service.enter', payload: { who: `P${staff}`, staff, role: 'technician' } }).entry.seq;
    const a = enter('1001');
    const b = enter('1002');
    const c = enter('1002');
    l.append({ type: 'service.exit', payload: { who: 'P1002', staff: '1002', reason: 'sign-out', enterSeq: b } });
    assert.deepEqual(
      openServiceSessions(l).map((s) => s.seq),
      [a, c],
      'the exit closed its own entry, not the later one of the same staff',
    );
    // An exit written before exits named their entry closes that staff's latest open session.
    l.append({ type: 'service.exit', payload: { who: 'P1001', staff: '1001', reason: 'idle' } });
    assert.deepEqual(openServiceSessions(l), [{ seq: c, who: 'P1002', staff: '1002' }]);
    l.append({ type: 'service.exit', payload: { who: 'P1002', staff: '1002', reason: 'power-loss', enterSeq: c } });
    assert.deepEqual(openServiceSessions(l), []);
  });
});
