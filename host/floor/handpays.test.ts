import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyLedger } from '../../ledger/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';

const cmd = (t: TestTable, station: number, command: Parameters<TestTable['hub']['commands']['submit']>[2]) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));
const refusal = (r: ReturnType<typeof cmd>) => (r.ok ? null : r.error.refusal);

describe('cash-out by handpay', () => {
  it('cancels the whole credit, locks the station until an attendant confirms, then unlocks it', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out' }).ok, true);
      assert.ok(t.ledger.credit(1) === 0, 'the credit left the meter');
      assert.equal(t.ledger.meters('station:1').cancelledCredits, 30_000);
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      assert.deepEqual([p.station, p.amount, p.type, p.needsWitness], [1, 30_000, 'credit.cancel', false]);
      const s = t.hub.state('station/1');
      assert.ok(s.kind === 'station');
      assert.deepEqual(s.cashout, { pending: { amount: 30_000, requestTxId: p.requestTxId } });
      assert.equal(s.betting.open, false);
      credit(t.ledger, 1, 20_000); // a note inserted while waiting still credits (journalled first)
      assert.equal(refusal(cmd(t, 1, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 })), 'station-locked');
      assert.equal(refusal(cmd(t, 1, { name: 'cash-out' })), 'cash-out-pending');
      assert.deepEqual(t.floor.handpays.confirm(p.requestTxId, 'att-3'), { ok: true, station: 1, amount: 30_000 });
      assert.deepEqual(t.floor.handpays.pending(), []);
      assert.equal(t.ledger.meters('station:1').handpaidCancelledCredits, 30_000);
      assert.match(JSON.stringify(t.floor.handpays.confirm(p.requestTxId, 'att-3')), /no pending handpay/);
      assert.equal(cmd(t, 1, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 }).ok, true, 'unlocked');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('refuses a cash-out without credit or with bets on the table, with reasons', () => {
    const t = testTable();
    try {
      assert.equal(refusal(cmd(t, 2, { name: 'cash-out' })), 'cash-out-empty');
      credit(t.ledger, 2, 30_000);
      assert.equal(cmd(t, 2, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 }).ok, true);
      assert.equal(refusal(cmd(t, 2, { name: 'cash-out' })), 'bets-in-play', 'chips on a spot');
      t.clock.runOut(t.table.reads.view().endsAt); // bets closed: the round is in play
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.equal(refusal(cmd(t, 2, { name: 'cash-out' })), 'bets-in-play', 'a round in play');
      assert.equal(t.ledger.credit(2), 20_000, 'nothing was cancelled');
    } finally {
      t.close();
    }
  });

  it('needs a second person above the two-person amount', () => {
    const t = testTable({ config: { handpayTwoPersonAbove: 50_000 } });
    try {
      credit(t.ledger, 3, 100_000);
      assert.equal(cmd(t, 3, { name: 'cash-out' }).ok, true);
      const [p] = t.floor.handpays.pending();
      assert.ok(p?.needsWitness);
      assert.match(JSON.stringify(t.floor.handpays.confirm(p.requestTxId, 'att-1')), /second person/);
      assert.match(JSON.stringify(t.floor.handpays.confirm(p.requestTxId, 'att-1', 'att-1')), /someone other/);
      assert.equal(t.floor.handpays.pending().length, 1, 'still pending');
      assert.equal(t.floor.handpays.confirm(p.requestTxId, 'att-1', 'sup-2').ok, true);
      const paid = [...t.ledger.entries(1)].find((e) => e.type === 'handpay.confirm');
      assert.equal((JSON.parse(paid?.body ?? '{}') as { payload: { witness?: string } }).payload.witness, 'sup-2');
    } finally {
      t.close();
    }
  });

  it('keeps a pending handpay and its lock across a restart', () => {
    const first = testTable();
    credit(first.ledger, 4, 40_000);
    assert.equal(cmd(first, 4, { name: 'cash-out' }).ok, true);
    first.stop();
    const again = testTable({ dir: first.dir });
    try {
      const [p] = again.floor.handpays.pending();
      assert.deepEqual([p?.station, p?.amount], [4, 40_000]);
      credit(again.ledger, 4, 10_000);
      assert.equal(refusal(cmd(again, 4, { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 })), 'station-locked');
    } finally {
      again.close();
    }
  });
});
