// Stakes that stay in play past their round (a winning streak, Macau 2009 Art. 13 5)): held by the
// ledger in the station's held-bets account, and settled by a later round's carried lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, type NewEntry } from './entries.js';
import { bet, billCredit } from './fixtures.js';
import { Ledger, LedgerRefusal } from './ledger.js';
import { verifyLedger } from './verify.js';

const fresh = () => Ledger.open({ file: ':memory:', terminalId: 'T-1' });
const core = (roundId: string) => ({ roundId, tableId: 'T1', game: 'blackjack' as const, profile: 'macau-2009', cards: [], decisions: [] });
const line = (bet: string, stake: number, net: number, rule: string, carried = false) => ({
  station: 1,
  seat: 1,
  bet,
  hand: 0,
  stake,
  net,
  rule,
  ...(carried ? { carried: true as const } : {}),
});
const refusedWith = (code: string) => (e: unknown) => e instanceof LedgerRefusal && e.code === code;

describe('held bets (winning streak across rounds)', () => {
  it('holds an open stake past its round and pays it from the held account when a later round decides it', () => {
    const l = fresh();
    l.append(billCredit(1, 100_000, 'b1'));
    l.append({
      type: 'bet.place',
      txId: 'r1:bet',
      payload: {
        station: 1,
        roundId: 'r1',
        tableId: 'T1',
        bets: [
          { seat: 1, bet: 'main', amount: 10_000 },
          { seat: 1, bet: 'streak2', amount: 1_000 },
        ],
      },
    });
    // The main bet settled, the streak stake neither settled nor held: the round does not balance.
    const unheld: NewEntry = { type: 'round.settle', txId: 'r1:settle', payload: { ...core('r1'), lines: [line('main', 10_000, 10_000, 'macau-2009 art.9')] } };
    assert.throws(() => l.append(unheld), refusedWith('unbalanced-round'));
    l.append({
      type: 'round.settle',
      txId: 'r1:settle',
      payload: { ...core('r1'), lines: [line('main', 10_000, 10_000, 'macau-2009 art.9')], held: [{ station: 1, seat: 1, bet: 'streak2', amount: 1_000 }] },
    });
    assert.equal(l.credit(1), 109_000);
    assert.equal(l.balance(account.heldBets(1)), -1_000, 'the stake is the player\u2019s, held in play');
    assert.equal(l.balance(account.wagers(1)), 0);
    l.append(bet(1, 'r2', 10_000, 'r2:bet'));
    // A carried line may not stake more than the station has held.
    const greedy: NewEntry = {
      type: 'round.settle',
      txId: 'r2:settle',
      payload: {
        ...core('r2'),
        lines: [line('main', 10_000, 10_000, 'macau-2009 art.9'), line('streak2', 2_000, 6_000, 'macau-2009 art.13 5)(2) i), art.14 n.5', true)],
      },
    };
    assert.throws(() => l.append(greedy), refusedWith('bad-line'));
    l.append({
      type: 'round.settle',
      txId: 'r2:settle',
      payload: {
        ...core('r2'),
        lines: [line('main', 10_000, 10_000, 'macau-2009 art.9'), line('streak2', 1_000, 3_000, 'macau-2009 art.13 5)(2) i), art.14 n.5', true)],
      },
    });
    assert.equal(l.credit(1), 109_000 - 10_000 + 20_000 + 4_000);
    assert.equal(l.balance(account.heldBets(1)), 0);
    assert.equal(verifyLedger(l).ok, true);
  });

  it('lets a round settle a carried stake of a station that did not bet in it', () => {
    const l = fresh();
    l.append(billCredit(1, 50_000, 'b1'));
    l.append(billCredit(2, 50_000, 'b2'));
    l.append(bet(1, 'r1', 1_000, 'r1:bet', 1, 'streak3'));
    l.append({
      type: 'round.settle',
      txId: 'r1:settle',
      payload: { ...core('r1'), lines: [], held: [{ station: 1, seat: 1, bet: 'streak3', amount: 1_000 }] },
    });
    l.append(bet(2, 'r2', 10_000, 'r2:bet'));
    l.append({
      type: 'round.settle',
      txId: 'r2:settle',
      payload: {
        ...core('r2'),
        lines: [
          { ...line('main', 10_000, 0, 'macau-2009 art.11 n.1 2)'), station: 2, seat: 2 },
          line('streak3', 1_000, -1_000, 'macau-2009 art.13 5)(2) vi)', true),
        ],
      },
    });
    assert.equal(l.credit(1), 49_000);
    assert.equal(l.balance(account.heldBets(1)), 0);
    assert.equal(l.balance(account.house), -1_000, 'the house has the lost streak stake');
    assert.equal(verifyLedger(l).ok, true);
  });

  it('counts no game for the stations a settlement names not dealt in (notDealtIn): their carried lines still move the money and coin out', () => {
    const l = fresh();
    l.append(billCredit(1, 50_000, 'b1'));
    l.append(billCredit(2, 50_000, 'b2'));
    l.append(billCredit(3, 50_000, 'b3'));
    l.append({ ...bet(1, 'r1', 1_000, 'r1:bet:1', 1, 'streak3') });
    l.append({ ...bet(3, 'r1', 2_000, 'r1:bet:3', 3, 'streak2') });
    l.append({
      type: 'round.settle',
      txId: 'r1:settle',
      payload: {
        ...core('r1'),
        lines: [],
        held: [
          { station: 1, seat: 1, bet: 'streak3', amount: 1_000 },
          { station: 3, seat: 3, bet: 'streak2', amount: 2_000 },
        ],
      },
    });
    const games = (s: number) => {
      const m = l.meters(`station:${s}`);
      return [m.gamesPlayed ?? 0, m.gamesWon ?? 0, m.gamesLost ?? 0, m.gamesTied ?? 0];
    };
    assert.deepEqual(
      [games(1), games(3)],
      [
        [1, 0, 0, 1],
        [1, 0, 0, 1],
      ],
    );
    l.append(bet(2, 'r2', 10_000, 'r2:bet'));
    const lines = [
      { ...line('main', 10_000, 0, 'macau-2009 art.11 n.1 2)'), station: 2, seat: 2 },
      line('streak3', 1_000, 0, 'macau-2009 house reading, no article: a fault kept the station from betting', true),
      { ...line('streak2', 2_000, -2_000, 'macau-2009 art.13 5)(2) vi)', true), station: 3, seat: 3 },
    ];
    const settle = (notDealtIn: number[]): NewEntry => ({ type: 'round.settle', txId: 'r2:settle', payload: { ...core('r2'), lines, notDealtIn } });
    assert.throws(() => l.append(settle([1, 2, 3])), refusedWith('bad-line'), 'station 2 bet: it was dealt in');
    assert.throws(() => l.append(settle([1])), refusedWith('bad-line'), 'a list names every station not dealt in');
    assert.throws(() => l.append(settle([3, 1])), refusedWith('bad-line'), 'ascending');
    assert.throws(() => l.append(settle([1, 1, 3])), refusedWith('bad-line'));
    l.append(settle([1, 3]));
    assert.deepEqual(
      [games(1), games(2), games(3)],
      [
        [1, 0, 0, 1],
        [1, 0, 0, 1],
        [1, 0, 0, 1],
      ],
    );
    assert.equal(l.meters('table').gamesPlayed, 2, 'the table played its two rounds');
    assert.deepEqual(
      [1, 3].map((s) => [l.credit(s), l.meters(`station:${s}`).creditsWagered, l.meters(`station:${s}`).creditsWon ?? 0]),
      [
        [50_000, 1_000, 1_000],
        [48_000, 2_000, 0],
      ],
      'coin in when wagered (round 1); the returned stake coin out; the lost one the house\u2019s',
    );
    assert.equal(l.balance(account.house), -2_000);
    assert.equal(verifyLedger(l).ok, true);
  });

  it('a settlement of a journal written before notDealtIn counted a game for a station with only carried lines: it still verifies so', () => {
    const l = fresh();
    l.append(billCredit(1, 50_000, 'b1'));
    l.append(billCredit(2, 50_000, 'b2'));
    l.append(bet(1, 'r1', 1_000, 'r1:bet', 1, 'streak3'));
    l.append({
      type: 'round.settle',
      txId: 'r1:settle',
      payload: { ...core('r1'), lines: [], held: [{ station: 1, seat: 1, bet: 'streak3', amount: 1_000 }] },
    });
    l.append(bet(2, 'r2', 10_000, 'r2:bet'));
    const settled = l.append({
      type: 'round.settle',
      txId: 'r2:settle',
      payload: {
        ...core('r2'),
        lines: [
          { ...line('main', 10_000, 0, 'macau-2009 art.11 n.1 2)'), station: 2, seat: 2 },
          line('streak3', 1_000, -1_000, 'macau-2009 art.13 5)(2) vi)', true),
        ],
      },
    });
    assert.ok(settled.entry.body.includes('["station:1","gamesLost",1]'), 'the body records the game it counted');
    assert.deepEqual([l.meters('station:1').gamesPlayed, l.meters('station:1').gamesLost], [2, 1]);
    assert.equal(verifyLedger(l).ok, true);
  });

  it('gives held stakes back to the credit outside a round (held.return: the table opened afresh), never more than is held', () => {
    const l = fresh();
    l.append(billCredit(1, 50_000, 'b1'));
    l.append(bet(1, 'r1', 1_000, 'r1:bet', 1, 'streak3'));
    l.append({
      type: 'round.settle',
      txId: 'r1:settle',
      payload: { ...core('r1'), lines: [], held: [{ station: 1, seat: 1, bet: 'streak3', amount: 1_000 }] },
    });
    assert.equal(l.credit(1), 49_000);
    const back = (amount: number, txId: string): NewEntry => ({
      type: 'held.return',
      txId,
      payload: { tableId: 'T1', station: 1, amount, reason: 'reopened' },
    });
    assert.throws(() => l.append(back(1_001, 'T1:held-return:1:a')), refusedWith('bad-line'));
    l.append(back(1_000, 'T1:held-return:1:b'));
    assert.equal(l.credit(1), 50_000, 'the stake is back on the credit');
    assert.equal(l.balance(account.heldBets(1)), 0);
    assert.equal(l.balance(account.house), 0, 'the house takes nothing');
    assert.equal(l.meters('station:1').voidRefunds, 1_000, 'metered as a wager refunded');
    assert.throws(() => l.append(back(1_000, 'T1:held-return:1:c')), refusedWith('bad-line'), 'nothing is held any more');
    assert.equal(verifyLedger(l).ok, true);
  });
});
