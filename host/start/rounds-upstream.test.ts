import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger } from '../../ledger/index.js';
import { billCredit, settledRound } from '../../ledger/fixtures.js';
import { sendRoundsAtOnce } from './rounds-upstream.js';

// The table host's half of the floor's promptness: a round's close wakes the sync client itself,
// so the round goes upstream without waiting for a poll (the upstream's half: FloorHub.touched).
describe('a closed round goes upstream at once', () => {
  it('wakes the sync client when a round settles, not for a note or a bet', () => {
    const ledger = Ledger.open({ file: ':memory:', terminalId: 'T1' });
    let kicks = 0;
    const off = sendRoundsAtOnce(ledger, { kick: () => kicks++ });
    ledger.append(billCredit(1, 10_000, 'b1'));
    const { bets, settle } = settledRound('r1', [1], 100);
    ledger.appendMany(bets);
    assert.equal(kicks, 0, 'a note and a bet wait for the poll');
    ledger.append(settle);
    assert.equal(kicks, 1, 'the settlement wakes it, once');
    off();
    const next = settledRound('r2', [1], 100);
    ledger.appendMany([...next.bets, next.settle]);
    assert.equal(kicks, 1, 'unsubscribed');
    ledger.close();
  });
});
