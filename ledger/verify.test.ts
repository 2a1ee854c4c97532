import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bet, billCredit, settledRound } from './fixtures.js';
import { connectionOf, Ledger, LedgerRefusal } from './ledger.js';
import { tamperBalance, tamperJournalBody } from './testing/tamper.js';
import { verifyLedger } from './verify.js';

function scenario(): Ledger {
  const l = Ledger.open({ file: ':memory:', terminalId: 'T-9' });
  l.append({ type: 'power.reset', payload: { clean: true, softwareVersion: '0.1.0' } });
  for (let s = 1; s <= 7; s++) l.append(billCredit(s, 50000, `bill-${s}`));
  for (let i = 0; i < 5; i++) {
    const { bets, settle } = settledRound(`r${i}`, [1, 2, 3, 4, 5, 6, 7], 2000, i);
    l.appendMany([...bets, settle]);
  }
  l.append(bet(1, 'r-open', 500, 'open-bet'));
  l.append({ type: 'config.change', payload: { who: 'tech-1', authorisation: 'DICJ-42', key: 'minBet', before: 1000, after: 2000 } });
  return l;
}

describe('verify', () => {
  it('passes a consistent ledger, recomputing balances, meters and recall from the journal', () => {
    const l = scenario();
    const r = verifyLedger(l);
    assert.deepEqual(r.problems, []);
    assert.ok(r.ok);
    assert.equal(r.entries, l.headOf().seq);
  });

  it('finds an altered body, even when the attacker drops the triggers', () => {
    const l = scenario();
    assert.ok(tamperJournalBody(l, 3, '"denomination":50000', '"denomination":90000'));
    const r = verifyLedger(l);
    assert.equal(r.ok, false);
    assert.ok(
      r.problems.some((p) => p.startsWith('seq 3: content hash')),
      r.problems.join('\n'),
    );
  });

  it('finds a raised meter, an altered balance and an outbox out of step', () => {
    const l = scenario();
    connectionOf(l).prepare("UPDATE meters SET value = value + 1 WHERE scope = 'table' AND name = 'gamesPlayed'").run();
    tamperBalance(l, 'house', -5);
    connectionOf(l).prepare('DELETE FROM outbox WHERE seq = 2').run();
    const r = verifyLedger(l);
    assert.equal(r.ok, false);
    assert.ok(r.problems.some((p) => p.startsWith('meters')));
    assert.ok(r.problems.some((p) => p.startsWith('balances')));
    assert.ok(r.problems.some((p) => p.startsWith('outbox')));
  });

  it('finds a row whose round or time-zone column was changed, though no hash covers them', () => {
    const l = scenario();
    const db = connectionOf(l);
    db.exec('DROP TRIGGER journal_no_update');
    const settle = l.byTxId('r2:settle')?.seq ?? 0;
    db.prepare("UPDATE journal SET round_id = 'r9' WHERE seq = ?").run(settle);
    db.prepare('UPDATE journal SET tz_offset_min = tz_offset_min + 60 WHERE seq = 3').run();
    const r = verifyLedger(l);
    assert.ok(r.problems.includes(`seq ${settle}: round_id disagrees with its body`), r.problems.join('\n'));
    assert.ok(r.problems.includes('seq 3: body disagrees with its row'), r.problems.join('\n'));
  });

  it('finds a recall record altered, a recall index row removed and a round recorded that no entry closed', () => {
    const l = scenario();
    const db = connectionOf(l);
    db.prepare("UPDATE rounds SET record = replace(record, '\"net\":0', '\"net\":1') WHERE round_id = 'r1'").run();
    db.prepare("DELETE FROM round_stations WHERE round_id = 'r3' AND station = 4").run();
    const r = verifyLedger(l);
    assert.ok(
      r.problems.some((p) => p.startsWith('recall: round r1 ')),
      r.problems.join('\n'),
    );
    assert.ok(r.problems.includes('recall index: round r3 at station 4: not stored'), r.problems.join('\n'));
    assert.ok(
      r.problems.some((p) => p.startsWith('recall index: 34 rows stored')),
      r.problems.join('\n'),
    );

    const other = scenario();
    const od = connectionOf(other);
    od.prepare("INSERT INTO rounds (round_id, table_id, status, seq, ts, record) VALUES ('ghost', 'T1', 'void', 2, '2025-01-01T00:00:00.000Z', '{}')").run();
    assert.ok(verifyLedger(other).problems.includes('recall: 6 rounds stored, 5 recomputed'));
  });

  it('finds an open bet moved and a meter cleared with no entry', () => {
    const l = scenario();
    const db = connectionOf(l);
    db.prepare("UPDATE round_bets SET credit_before = credit_before + 1 WHERE round_id = 'r-open'").run();
    db.exec('DROP TRIGGER meters_monotonic');
    db.prepare("UPDATE meters SET value = 0 WHERE scope = 'station:2' AND name = 'creditsWagered'").run();
    const r = verifyLedger(l);
    assert.ok(r.problems.includes('open rounds: stored and recomputed differ'), r.problems.join('\n'));
    assert.ok(r.problems.includes('meters: stored and recomputed differ'), r.problems.join('\n'));
  });

  it('property: any sequence of operations keeps money balanced, credits non-negative and the ledger verifiable', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constant('bill' as const), s: fc.integer({ min: 1, max: 3 }), d: fc.constantFrom(2000, 10000, 50000, 100000) }),
      fc.record({ k: fc.constant('bet' as const), s: fc.integer({ min: 1, max: 3 }), a: fc.integer({ min: 1, max: 60000 }) }),
      fc.record({ k: fc.constant('settle' as const), nets: fc.array(fc.integer({ min: -2, max: 3 }), { minLength: 3, maxLength: 3 }) }),
      fc.record({ k: fc.constant('void' as const) }),
      fc.record({ k: fc.constant('cashout' as const), s: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ k: fc.constant('retry' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const l = Ledger.open({ file: ':memory:', terminalId: 'P' });
        let round = 0;
        let n = 0;
        let inserted = 0;
        let lastTx: Parameters<Ledger['append']>[0] | null = null;
        for (const o of ops) {
          const rid = `r${round}`;
          try {
            if (o.k === 'bill') {
              lastTx = billCredit(o.s, o.d, `b${n++}`);
              l.append(lastTx);
              inserted += o.d;
            } else if (o.k === 'bet') {
              l.append(bet(o.s, rid, o.a, `x${n++}`));
            } else if (o.k === 'settle' || o.k === 'void') {
              const open = l.rounds.open().find((r) => r.roundId === rid);
              const stations = open?.stations ?? [];
              if (o.k === 'void') {
                l.append({
                  type: 'round.void',
                  txId: `${rid}:v`,
                  payload: { roundId: rid, tableId: 'T1', game: 'war', profile: 'p', cards: [], decisions: [], reason: 'test', authorisedBy: ['s'] },
                });
              } else {
                const lines = stations.map((st, i) => {
                  const m = o.nets[i] ?? 0;
                  // net as a multiple of half the stake, never below −stake
                  const net = Math.max(-st.amount, Math.floor((m * st.amount) / 2));
                  return { station: st.station, seat: st.station, bet: 'main', stake: st.amount, net, rule: 'test' };
                });
                l.append({
                  type: 'round.settle',
                  txId: `${rid}:s`,
                  payload: { roundId: rid, tableId: 'T1', game: 'war', profile: 'p', cards: [], decisions: [], lines },
                });
              }
              round++;
            } else if (o.k === 'cashout') {
              const c = l.credit(o.s);
              if (c > 0) l.append({ type: 'credit.cancel', txId: `c${n++}`, payload: { station: o.s, amount: c, reason: 'cash-out' } });
            } else if (lastTx) {
              assert.equal(l.append(lastTx).status, 'duplicate');
            }
          } catch (e) {
            if (!(e instanceof LedgerRefusal)) throw e;
          }
          for (let s = 1; s <= 3; s++) assert.ok(l.credit(s) >= 0);
        }
        const total = connectionOf(l).prepare('SELECT COALESCE(SUM(balance),0) AS t FROM balances').get() as { t: number };
        assert.equal(total.t, 0);
        const cash = (connectionOf(l).prepare("SELECT COALESCE(SUM(balance),0) AS t FROM balances WHERE account LIKE 'cashbox:%'").get() as { t: number }).t;
        assert.equal(cash, inserted);
        const r = verifyLedger(l);
        assert.deepEqual(r.problems, []);
        l.close();
      }),
      { numRuns: 60 },
    );
  });
});
