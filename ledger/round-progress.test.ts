import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { billCredit, settledRound } from './fixtures.js';
import { Ledger } from './ledger.js';
import { verifyLedger } from './verify.js';

describe('round progress entries (card.read, round.decision, shoe.change)', () => {
  it('move no money, verify, are indexed by round and belong to the round record', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'RP-1' });
    l.append(billCredit(1, 10_000, 'b1'));
    const { bets, settle } = settledRound('r1', [1], 100);
    const balances = () => JSON.stringify([l.stationCredits(), l.balance('house'), l.meters()]);
    l.appendMany(bets);
    const before = balances();
    l.append({ type: 'shoe.change', payload: { tableId: 'T', event: 'loaded', sequence: 1 } });
    const card = l.append({ type: 'card.read', payload: { tableId: 'T', roundId: 'r1', sequence: 2, card: 'AS', to: 'seat:1:hand:0' } });
    const burn = l.append({ type: 'card.read', payload: { tableId: 'T', sequence: 3, card: '9D', to: 'burn' } });
    const decision = l.append({ type: 'round.decision', payload: { tableId: 'T', roundId: 'r1', seat: 1, station: 1, action: 'stand', auto: true } });
    assert.equal(balances(), before, 'no balance or meter moved');
    assert.equal(card.entry.roundId, 'r1');
    assert.equal(burn.entry.roundId, null, 'a shoe-level card belongs to no round');
    assert.equal(decision.entry.roundId, 'r1');
    l.append(settle);
    const record = l.rounds.record('r1');
    assert.ok(record);
    assert.ok(record.entrySeqs.includes(card.entry.seq) && record.entrySeqs.includes(decision.entry.seq));
    assert.ok(!record.entrySeqs.includes(burn.entry.seq));
    const v = verifyLedger(l);
    assert.deepEqual(v.problems, []);
    assert.equal(v.ok, true);
    l.close();
  });

  it('refuses a malformed card or decision, writing nothing', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'RP-2' });
    assert.throws(() => l.append({ type: 'card.read', payload: { tableId: 'T', card: 'A', to: 'burn' } }));
    assert.throws(() => l.append({ type: 'round.decision', payload: { tableId: 'T', roundId: 'r', seat: -1, action: 'stand' } }));
    assert.throws(() => l.append({ type: 'shoe.change', payload: { tableId: 'T', event: 'shuffled' as 'loaded' } }));
    assert.equal(l.headOf().seq, 0);
    l.close();
  });
});
