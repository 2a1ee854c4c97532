import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evidenceBundle, verifyEvidence } from './evidence.js';
import { billCredit, settledRound } from './fixtures.js';
import { connectionOf, Ledger } from './ledger.js';
import type { RoundRecord } from '../terms/round-record.js';
import { verifyLedger } from './verify.js';

function fresh(): Ledger {
  return Ledger.open({ file: ':memory:', terminalId: 'T-1' });
}

describe('meters', () => {
  it('derives GLI-named meters per station and per table in the same transaction', () => {
    const l = fresh();
    l.append(billCredit(1, 50000, 'b1'));
    l.append(billCredit(1, 10000, 'b2'));
    l.append(billCredit(2, 50000, 'b3'));
    const { bets, settle } = settledRound('r1', [1, 2], 10000);
    l.appendMany([...bets, settle]);
    l.append({ type: 'door.open', payload: { door: 'main' } });
    l.append({ type: 'door.open', payload: { door: 'cashbox', station: 2 } });
    l.append({ type: 'misread', payload: { tableId: 'T1', roundId: 'r2', detail: 'unreadable', resolution: 'pending' } });
    l.append({ type: 'power.reset', payload: { clean: false, softwareVersion: '0.1.0' } });
    assert.deepEqual(l.stationCredits(), { 1: 60000 + 15000, 2: 50000 - 10000 });
    const s1 = l.meters('station:1');
    assert.equal(s1['billsIn.50000'], 1);
    assert.equal(s1['billsIn.10000'], 1);
    assert.equal(s1.totalIn, 60000);
    assert.equal(s1.creditsWagered, 10000);
    assert.equal(s1.creditsWon, 25000); // blackjack 3:2: stake back + 15000
    assert.equal(s1.gamesPlayed, 1);
    assert.equal(s1.gamesWon, 1);
    const s2 = l.meters('station:2');
    assert.equal(s2.gamesLost, 1);
    assert.equal(s2.creditsWon, undefined);
    assert.equal(s2.doorOpens, 1);
    const t = l.meters('table');
    assert.equal(t.totalIn, 110000);
    assert.equal(t.creditsWagered, 20000);
    assert.equal(t.gamesPlayed, 1);
    assert.equal(t.doorOpens, 2);
    assert.equal(t.misreads, 1);
    assert.equal(t.powerResets, 1);
  });

  it('never lowers a meter except through a journalled, authorised meter.clear', () => {
    const l = fresh();
    l.append(billCredit(1, 50000, 'b1'));
    assert.throws(() => connectionOf(l).prepare("UPDATE meters SET value = 0 WHERE scope = 'station:1'").run(), /meter.clear/);
    assert.throws(() => connectionOf(l).prepare('DELETE FROM meters').run(), /never deleted/);
    assert.throws(
      () => l.append({ type: 'meter.clear', payload: { who: 'sup-1', authorisation: '', scope: 'station:1', reason: 'x' } }),
      /authorisation|too_small|>=1/i,
    );
    const r = l.append({
      type: 'meter.clear',
      payload: { who: 'sup-1', authorisation: 'DICJ-2025-0042', scope: 'station:1', reason: 'RAM clear after board swap' },
    });
    assert.equal(l.meters('station:1').totalIn, 0);
    assert.equal(l.meters('table').totalIn, 50000);
    assert.equal(l.credit(1), 50000, 'a meter clear moves no money');
    assert.match(r.entry.body, /DICJ-2025-0042/);
    assert.ok(verifyLedger(l).ok);
  });

  // A table has remote stations up to 2100: the scope's pattern took three digits (stations 1000–2100
  // could never be cleared) and station 0 and 05, which no table has.
  it('clears the meters of any station a table may have, and of none it may not', () => {
    const l = fresh();
    const clear = (scope: string) => () =>
      l.append({ type: 'meter.clear', payload: { who: 'sup-1', authorisation: 'DICJ-2025-0042', scope, reason: 'board swap' } });
    for (const scope of ['table', 'station:1', 'station:7', 'station:101', 'station:999', 'station:1000', 'station:2100'])
      assert.doesNotThrow(clear(scope), scope);
    for (const scope of ['station:0', 'station:05', 'station:8', 'station:100', 'station:2101', 'station:1e3', 'stations:1'])
      assert.throws(clear(scope), /scope/, scope);
  });
});

describe('game recall', () => {
  it("moves a station's recall version only when a round it played in is recorded", () => {
    const l = fresh();
    l.append(billCredit(1, 100000, 'b1'));
    l.append(billCredit(2, 100000, 'b2'));
    const { bets, settle } = settledRound('r1', [1], 1000);
    l.appendMany(bets);
    const before = [l.rounds.recallVersion(1), l.rounds.recallVersion(2)];
    l.append(settle);
    assert.notEqual(l.rounds.recallVersion(1), before[0], 'station 1 played r1: its recall changed');
    assert.equal(l.rounds.recallVersion(2), before[1], 'station 2 did not play: its recall is as it was');
    const v1 = l.rounds.recallVersion(1);
    const next = settledRound('r2', [2], 1000);
    l.appendMany([...next.bets, next.settle]);
    assert.equal(l.rounds.recallVersion(1), v1);
    assert.notEqual(l.rounds.recallVersion(2), before[1]);
  });

  it('names the stations whose recall moved since a tick: those of the rounds recorded after it', () => {
    const l = fresh();
    l.append(billCredit(1, 100000, 'b1'));
    l.append(billCredit(2, 100000, 'b2'));
    const t0 = l.rounds.recallTick();
    assert.deepEqual(l.rounds.recallMovedSince(t0), [], 'no round recorded');
    const r1 = settledRound('r1', [1], 1000);
    l.appendMany([...r1.bets, r1.settle]);
    const t1 = l.rounds.recallTick();
    assert.deepEqual(l.rounds.recallMovedSince(t0), [1]);
    const r2 = settledRound('r2', [2], 1000);
    l.appendMany([...r2.bets, r2.settle]);
    assert.deepEqual(l.rounds.recallMovedSince(t1), [2], 'station 1 played no round since');
    assert.deepEqual(l.rounds.recallMovedSince(t0).sort(), [1, 2]);
  });

  it("moves a closed round's record version only when an entry is journalled under it after its close", () => {
    const l = fresh();
    l.append(billCredit(1, 100000, 'b1'));
    for (const id of ['r1', 'r2']) {
      const { bets, settle } = settledRound(id, [1], 1000);
      l.appendMany([...bets, settle]);
    }
    const before = [l.rounds.recordVersion('r1'), l.rounds.recordVersion('r2')];
    l.append({ type: 'misread', payload: { tableId: 'T1', roundId: 'r1', detail: 'extra-card', resolution: 'pending' } });
    assert.notEqual(l.rounds.recordVersion('r1'), before[0], "r1's record has a late entry");
    assert.equal(l.rounds.recordVersion('r2'), before[1], "r2's record is as it was");
    const v1 = l.rounds.recordVersion('r1');
    l.append({ type: 'misread', payload: { tableId: 'T1', roundId: 'r3', detail: 'unreadable', resolution: 'pending' } });
    assert.equal(l.rounds.recordVersion('r1'), v1, 'a misread of a round not closed moves no closed round');
  });

  it('a reader that reads a round again only when its record version moves sees it as recorded, past many corrected rounds (issue 52)', () => {
    // The ledger keeps the record version of its newest corrected rounds only: a round whose
    // version it let go must still never read a version a reader kept from before its last entry.
    const l = fresh();
    l.append(billCredit(1, 10_000_000, 'b1'));
    const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
    for (const [i, id] of ids.entries()) {
      const { bets, settle } = settledRound(id, [1], 1000, i);
      l.appendMany([...bets, settle]);
    }
    const kept = new Map<string, { version: number; record: RoundRecord | undefined }>();
    const readAll = () => {
      for (const id of ids) {
        const version = l.rounds.recordVersion(id);
        const had = kept.get(id);
        if (had && had.version === version) assert.deepEqual(had.record, l.rounds.record(id), `${id} at version ${version} is as recorded`);
        else kept.set(id, { version, record: l.rounds.record(id) });
      }
    };
    readAll();
    // Corrections of each round in turn, three times over, some rounds twice in a row; the reader
    // reads every round after every 25th, so a round can be corrected and let go between its reads.
    const order = [...ids, ...ids.filter((_, i) => i % 3 === 0), ...ids.toReversed(), 'r7', 'r7', 'r0', ...ids];
    for (const [n, id] of order.entries()) {
      const before = l.rounds.recordVersion(id);
      l.append({ type: 'misread', payload: { tableId: 'T1', roundId: id, detail: 'extra-card', resolution: 'pending' } });
      assert.ok(l.rounds.recordVersion(id) > before, `${id}'s version moves past ${before}`);
      if (n % 25 === 24) readAll();
    }
    readAll();
  });

  it('keeps every round with cards in order, bets, lines and credits before and after; last N per station and table', () => {
    const l = fresh();
    l.append(billCredit(1, 100000, 'b1'));
    l.append(billCredit(2, 100000, 'b2'));
    for (let i = 0; i < 12; i++) {
      const stations = i % 3 === 0 ? [1] : [1, 2];
      const { bets, settle } = settledRound(`r${i}`, stations, 1000, i);
      l.appendMany([...bets, settle]);
    }
    const last = l.rounds.recall({ station: 1 });
    assert.equal(last.length, 10);
    assert.deepEqual(
      last.map((r) => r.roundId),
      ['r11', 'r10', 'r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2'],
    );
    assert.equal(l.rounds.recall({ station: 2, limit: 500 }).length, 8);
    assert.equal(l.rounds.recall({ tableId: 'T1', limit: 3 }).length, 3);
    // Many stations' last rounds in one read: each station's list as it is read alone (a station with none, empty).
    for (const limit of [1, 5, 10, 500]) {
      const many = l.rounds.recallIdsOf([2, 1, 3], limit);
      assert.deepEqual([...many.keys()], [2, 1, 3]);
      for (const station of [1, 2, 3]) assert.deepEqual(many.get(station), l.rounds.recallIds(station, limit), `station ${station}, ${limit} rounds`);
    }
    assert.deepEqual(l.rounds.recallIdsOf([1], 3).get(1), ['r11', 'r10', 'r9']);
    const r = l.rounds.record('r4');
    assert.ok(r);
    assert.equal(r.status, 'settled');
    assert.equal(r.cards[0]?.card, '5S');
    assert.equal(r.cards[0]?.to, 'seat:1');
    assert.equal(r.lines.length, 2);
    assert.match(r.lines[0]?.rule ?? '', /macau-2009/);
    assert.equal(r.bets.length, 2);
    for (const c of r.credits) {
      const line: RoundRecord['lines'][number] | undefined = r.lines.find((x) => x.station === c.station);
      assert.ok(line);
      assert.equal(c.after - c.before, line.net, 'credit after = before − stake + stake + net');
    }
  });

  it('voids a round by returning every bet', () => {
    const l = fresh();
    l.append(billCredit(1, 10000, 'b1'));
    const { bets } = settledRound('r1', [1], 4000);
    l.appendMany(bets);
    assert.equal(l.credit(1), 6000);
    assert.deepEqual(l.rounds.open(), [{ roundId: 'r1', stations: [{ station: 1, amount: 4000 }] }]);
    l.append({
      type: 'round.void',
      txId: 'r1:void',
      payload: {
        roundId: 'r1',
        tableId: 'T1',
        game: 'blackjack',
        profile: 'macau-2009',
        cards: [{ card: 'AS', to: 'seat:1' }],
        decisions: [],
        reason: 'card anomaly',
        authorisedBy: ['sup-1', 'dealer-9'],
      },
    });
    assert.equal(l.credit(1), 10000);
    assert.deepEqual(l.rounds.open(), []);
    assert.equal(l.rounds.record('r1')?.status, 'void');
    assert.equal(l.meters('table').voidedRounds, 1);
    assert.equal(l.meters('station:1').voidRefunds, 4000);
  });

  it('exports an evidence bundle whose chain proof verifies on its own and fails when altered', () => {
    const l = fresh();
    l.append(billCredit(1, 100000, 'b1'));
    l.append(billCredit(2, 100000, 'b2'));
    const a = settledRound('ra', [1], 1000);
    const b = settledRound('rb', [2], 1000);
    // Interleave two rounds so the proof covers an entry of another player.
    l.appendMany([...a.bets, ...b.bets, a.settle, b.settle]);
    const bundle = evidenceBundle(l, 'ra');
    assert.ok(bundle);
    assert.deepEqual(
      bundle.entries.map((e) => e.seq),
      [3, 5],
    );
    assert.deepEqual(
      bundle.proof.links.map((x) => x[0]),
      [3, 4, 5],
    );
    assert.ok(!bundle.entries.some((e) => e.body.includes('"rb"')), 'the other round is proven, not disclosed');
    assert.deepEqual(verifyEvidence(bundle), { ok: true, problems: [] });
    const forged = structuredClone(bundle);
    forged.entries[1] = { ...forged.entries[1]!, body: forged.entries[1]!.body.replace('"net":1500', '"net":2500') };
    assert.equal(verifyEvidence(forged).ok, false);
    const relinked = structuredClone(bundle);
    relinked.proof.links[1]![1] = '0'.repeat(64);
    assert.equal(verifyEvidence(relinked).ok, false);
  });
});
