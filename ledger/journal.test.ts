import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canonicalJson, chainHash, genesisHash, sha256Hex } from './canonical.js';
import { account } from './entries.js';
import { bet, billCredit, settledRound } from './fixtures.js';
import { connectionOf, Ledger, LedgerRefusal, type EntryBody } from './ledger.js';
import { unresolvedEscrows } from './floor-queries.js';

function fresh(clock?: () => Date): Ledger {
  return Ledger.open({ file: ':memory:', terminalId: 'T-1', ...(clock ? { clock } : {}) });
}

describe('journal', () => {
  it('gives an empty or emptied credit meter as 0, never -0 (a screen would show "-MOP 0.00")', () => {
    const l = fresh();
    assert.ok(Object.is(l.credit(3), 0));
    l.append(billCredit(3, 10000, 'tx-0'));
    l.append({ type: 'credit.cancel', payload: { station: 3, amount: 10000, reason: 'cash-out' }, txId: 'co-3' });
    assert.ok(Object.is(l.credit(3), 0));
    assert.ok(Object.is(l.stationCredits()[3], 0));
  });

  it('appends entries with contiguous seq, a UTC timestamp with offset and a hash chain', () => {
    const l = fresh(() => new Date('2025-03-01T04:05:06.007Z'));
    const a = l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
    const b = l.append(billCredit(2, 50000, 'tx-1'));
    assert.equal(a.entry.seq, 1);
    assert.equal(b.entry.seq, 2);
    assert.equal(b.entry.ts, '2025-03-01T04:05:06.007Z');
    assert.equal(b.entry.tzOffsetMin, -new Date('2025-03-01T04:05:06.007Z').getTimezoneOffset());
    assert.equal(a.entry.prevHash, genesisHash('T-1'));
    assert.equal(b.entry.prevHash, a.entry.hash);
    assert.equal(b.entry.contentHash, sha256Hex(b.entry.body));
    assert.equal(b.entry.hash, chainHash(a.entry.hash, b.entry.contentHash));
    const body = JSON.parse(b.entry.body) as EntryBody;
    assert.equal(canonicalJson(body), b.entry.body);
    assert.deepEqual(body.postings, [
      [account.cashbox(2, 50000), 50000],
      [account.stationCredit(2), -50000],
    ]);
    assert.deepEqual(body.credits, [[2, 0, 50000]]);
    assert.equal(l.credit(2), 50000);
  });

  it('refuses UPDATE and DELETE of journal rows and postings', () => {
    const l = fresh();
    l.append(billCredit(1, 10000, 'tx-1'));
    const db = connectionOf(l);
    assert.throws(() => db.prepare("UPDATE journal SET body = '{}' WHERE seq = 1").run(), /append-only/);
    assert.throws(() => db.prepare('DELETE FROM journal').run(), /append-only/);
    assert.throws(() => db.prepare('UPDATE postings SET amount = 1').run(), /append-only/);
    assert.throws(() => db.prepare('DELETE FROM postings').run(), /append-only/);
    assert.throws(() => db.prepare("INSERT INTO postings (seq, line, account, amount) VALUES (1, 9, 'house', 5)").run(), /final/);
  });

  it('refuses, at the database level, an entry whose postings do not balance', () => {
    const l = fresh();
    const db = connectionOf(l);
    const insert = db.transaction(() => {
      db.prepare("INSERT INTO postings (seq, line, account, amount) VALUES (1, 0, 'house', 100)").run();
      db.prepare(
        `INSERT INTO journal (seq, ts, tz_offset_min, type, body, content_hash, prev_hash, hash)
        VALUES (1, 'x', 0, 'bill.credit', '{}', 'c', 'p', 'h')`,
      ).run();
    });
    assert.throws(() => insert(), /do not balance/);
    assert.equal(l.headOf().seq, 0);
  });

  it('journals a transaction id once: a retry is a duplicate, other content under the id is refused', () => {
    const l = fresh();
    const first = l.append(billCredit(1, 10000, 'tx-1'));
    const again = l.append(billCredit(1, 10000, 'tx-1'));
    assert.equal(again.status, 'duplicate');
    assert.equal(again.entry.seq, first.entry.seq);
    assert.equal(l.headOf().seq, 1);
    assert.equal(l.credit(1), 10000);
    assert.throws(
      () => l.append(billCredit(1, 50000, 'tx-1')),
      (e: unknown) => e instanceof LedgerRefusal && e.code === 'tx-id-conflict',
    );
    assert.equal(l.credit(1), 10000);
  });

  it('validates payloads and requires a transaction id for credit movements', () => {
    const l = fresh();
    assert.throws(() => l.append({ type: 'bill.credit', payload: { station: 1, device: 'x', denomination: 100, currency: 'HKD' } }), /transaction id/);
    assert.throws(() => l.append({ type: 'bill.credit', txId: 't', payload: { station: 1, device: 'x', denomination: 10.5, currency: 'HKD' } }), LedgerRefusal);
    assert.throws(
      () => l.append({ type: 'bill.credit', txId: 't', payload: { station: 1, device: 'x', denomination: 100, currency: 'HKD', extra: 1 } as never }),
      LedgerRefusal,
    );
    assert.equal(l.headOf().seq, 0);
  });

  it('refuses a bet above the credit, a settlement that does not cover the bets, and a second settlement', () => {
    const l = fresh();
    l.append(billCredit(1, 10000, 'b1'));
    assert.throws(
      () => l.append(bet(1, 'r1', 20000, 'x')),
      (e: unknown) => e instanceof LedgerRefusal && e.code === 'insufficient-credit',
    );
    const { bets, settle } = settledRound('r1', [1], 5000);
    l.appendMany(bets);
    const short = structuredClone(settle);
    if (short.type !== 'round.settle') throw new Error('fixture');
    short.payload.lines = [];
    short.txId = 'other';
    assert.throws(
      () => l.append(short),
      (e: unknown) => e instanceof LedgerRefusal && e.code === 'unbalanced-round',
    );
    l.append(settle);
    assert.equal(l.credit(1), 10000 + 7500);
    const twice = structuredClone(settle);
    twice.txId = 'again';
    assert.throws(
      () => l.append(twice),
      (e: unknown) => e instanceof LedgerRefusal && e.code === 'round-closed',
    );
    assert.throws(
      () => l.append(bet(1, 'r1', 100, 'late')),
      (e: unknown) => e instanceof LedgerRefusal && e.code === 'round-closed',
    );
  });

  it('writes a batch atomically: a refused entry leaves nothing of the batch', () => {
    const l = fresh();
    l.append(billCredit(1, 10000, 'b1'));
    assert.throws(() => l.appendMany([bet(1, 'r1', 4000, 'x1'), bet(1, 'r1', 9000, 'x2')]), LedgerRefusal);
    assert.equal(l.headOf().seq, 1);
    assert.equal(l.credit(1), 10000);
    assert.equal((connectionOf(l).prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n, 1);
    // The in-memory head survived the rollback: the next append still chains.
    const next = l.append(bet(1, 'r1', 4000, 'x1'));
    assert.equal(next.entry.seq, 2);
  });

  it('moves handpays through pending to the cage, once', () => {
    const l = fresh();
    l.append(billCredit(3, 100000, 'b1'));
    l.append({ type: 'credit.cancel', txId: 'cc1', payload: { station: 3, amount: 60000, reason: 'cash-out' } });
    assert.equal(l.credit(3), 40000);
    assert.equal(l.balance(account.handpayPending(3)), -60000);
    assert.throws(() => l.append({ type: 'handpay.confirm', txId: 'hp1', payload: { station: 3, requestTxId: 'cc1', amount: 1, attendant: 'A7' } }), /handpay/);
    l.append({ type: 'handpay.confirm', txId: 'hp1', payload: { station: 3, requestTxId: 'cc1', amount: 60000, attendant: 'A7' } });
    assert.equal(l.balance(account.handpayPending(3)), 0);
    assert.equal(l.balance(account.cage), -60000);
    assert.throws(
      () => l.append({ type: 'handpay.confirm', txId: 'hp2', payload: { station: 3, requestTxId: 'cc1', amount: 60000, attendant: 'A7' } }),
      /already paid/,
    );
    l.append({ type: 'handpay.request', txId: 'jp1', payload: { station: 3, amount: 1_000_000, reason: 'jackpot' } });
    l.append({ type: 'handpay.confirm', txId: 'hp3', payload: { station: 3, requestTxId: 'jp1', amount: 1_000_000, attendant: 'A7' } });
    const m = l.meters('station:3');
    assert.equal(m.cancelledCredits, 60000);
    assert.equal(m.handpaidCancelledCredits, 60000);
    assert.equal(m.jackpotHandpays, 1_000_000);
    assert.equal(m.handpays, 2);
    assert.equal(m.totalOut, 1_060_000);
  });
});

describe('bill escrow', () => {
  it('resolves each escrow exactly once, by a credit or a return that matches it', () => {
    const l = Ledger.open({ file: ':memory:', terminalId: 'T-1' });
    const e1 = l.append({ type: 'bill.escrow', payload: { station: 1, device: 'ba-1', denomination: 50000, currency: 'HKD' } }).entry.seq;
    const e2 = l.append({ type: 'bill.escrow', payload: { station: 1, device: 'ba-1', denomination: 10000, currency: 'HKD' } }).entry.seq;
    // Power cut here: on restart both are unresolved.
    assert.deepEqual(
      unresolvedEscrows(l).map((e) => e.seq),
      [e1, e2],
    );
    assert.throws(
      () => l.append({ type: 'bill.credit', txId: 'c1', payload: { station: 1, device: 'ba-1', denomination: 10000, currency: 'HKD', escrowSeq: e1 } }),
      /escrow/,
    );
    l.append({ type: 'bill.credit', txId: 'c1', payload: { station: 1, device: 'ba-1', denomination: 50000, currency: 'HKD', escrowSeq: e1 } });
    assert.throws(
      () => l.append({ type: 'bill.credit', txId: 'c2', payload: { station: 1, device: 'ba-1', denomination: 50000, currency: 'HKD', escrowSeq: e1 } }),
      /already resolved/,
    );
    l.append({
      type: 'bill.return',
      payload: { station: 1, device: 'ba-1', denomination: 10000, currency: 'HKD', reason: 'not stacked at power loss', escrowSeq: e2 },
    });
    assert.deepEqual(unresolvedEscrows(l), []);
    assert.equal(l.credit(1), 50000);
  });
});
