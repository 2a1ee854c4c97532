// Stations changing seats with a round in play, the host KILLED (SIGKILL, no clean stop) rather than
// stopped: a technician often reseats after a crash. The killed runs are a real host in a child
// process (seat-kill-child.ts) that plays the test's steps and is killed once they are journalled;
// the start after is the real host in this process. Killed: (a) mid-round, before the start that
// reseats; (b) after that start journalled its `configure` (the new seating waiting, `seatsNext`)
// but before the round ended, then started again with the same new file, or with the old one given
// back; (c) after the round settled, before the next betting window applied the new seats. Each
// time: each bet is settled once, to the station that placed it; a decision is taken only from the
// station whose bet it is; the ledger verifies and the credit is conserved; the next round plays
// the file's seats. docs/table-host.md, "Stations changing seats with a round in play".
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../../cli/soak/account.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { burnShoeStart, cards, close } from '../../host/testing/streak-rounds.js';
import { submitted } from '../../host/testing/table-kit.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import type { BetId, StationState } from '../../protocol/index.js';
import { SEATED_AS_NUMBERED, SEATS_1_2_SWAPPED, startAgain, type RestartedHost } from './restarted-host.js';
import { killedAfter as killedGame } from './seat-kill-run.js';

type Pairs = [number, number][];
const ALL: Pairs = SEATED_AS_NUMBERED;
const SWAPPED: Pairs = SEATS_1_2_SWAPPED;
const seating = (pairs: Pairs) => pairs.map(([station, seat]) => ({ station, seat }));
/** Station 1 bets 10,000 and station 2 20,000; dealt up to seat 1's decision (19 and 17 against the dealer's 9). */
const TO_DECISION = ['credit:1:100000', 'credit:2:100000', 'burn', 'place:1:main:10000', 'place:2:main:20000', 'close', 'cards:TS TH 9D 9H 7D'];

const start = (dir: string, pairs: Pairs) =>
  startAgain(
    dir,
    TableConfig.parse({ ...simulatedTableConfig('blackjack'), stations: pairs.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const })) }),
  );

/** A blackjack host killed after `steps` (seat-kill-run.ts). */
const killedAfter = (dataDir: string, seats: Pairs, steps: string[]) => killedGame('blackjack', dataDir, seats, steps);

const stand = (t: RestartedHost, station: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action: 'stand' }));
const place = (t: RestartedHost, station: number, bet: BetId, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet }, amount }));
const seatsOf = (t: RestartedHost) => t.running.table.state.params.stations.map((s) => ({ station: s.station, seat: s.seat }));

interface Line {
  station: number;
  seat: number;
  stake: number;
  net: number;
}
function settlements(t: RestartedHost): { roundId: string; lines: Line[] }[] {
  return [...entriesOfTypes(t.ledger, ['round.settle'])].map((e) => {
    const body = JSON.parse(e.body) as EntryBody;
    return { roundId: e.roundId ?? '', lines: (body.payload as { lines: Line[] }).lines };
  });
}

/** The interrupted round settled once, each bet to the station that placed it; the money whole. */
function settledOnceToTheBettors(t: RestartedHost): void {
  const settled = settlements(t);
  assert.equal(settled.length, 1, 'the round is settled once');
  assert.deepEqual(
    settled[0]?.lines.map((l) => [l.station, l.seat, l.stake, l.net]),
    [
      [1, 1, 10_000, 10_000],
      [2, 2, 20_000, -20_000],
    ],
  );
  assert.equal(t.ledger.credit(1), 110_000, 'station 1 paid 10,000 and gets 20,000 back');
  assert.equal(t.ledger.credit(2), 80_000, 'station 2 lost the 20,000 it paid, and gains nothing of seat 1’s win');
  assert.deepEqual(t.running.recovery.foldProblems, []);
  assert.equal(verifyLedger(t.ledger).ok, true, 'the ledger verifies');
  const money = accountFor(t.ledger);
  assert.equal(money.conserved, true, `credits in = on meters + out + house result + in play: ${JSON.stringify(money)}`);
}

/** The next round opens on `pairs`: seat 1's bet and its decision are its new station's. */
function nextRoundOn(t: RestartedHost, pairs: Pairs): void {
  if (t.table.reads.view().phase === 'results') close(t);
  assert.equal(t.table.reads.view().phase, 'betting');
  assert.deepEqual(seatsOf(t), seating(pairs));
  assert.equal(t.running.table.state.seatsNext, undefined, 'nothing waits once the new seats apply');
  const atSeat1 = pairs.find(([, seat]) => seat === 1)?.[0] as number;
  const other = atSeat1 === 1 ? 2 : 1;
  assert.equal((t.hub.state(`station/${atSeat1}`) as StationState).seat, 1);
  assert.equal((t.hub.state(`station/${other}`) as StationState).seat, 2);
  // A start between rounds may ask for a new shoe (as it does after any unclean stop).
  burnShoeStart(t);
  const r = place(t, atSeat1, 'main', 10_000);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(place(t, other, 'main', 10_000).ok, true);
  close(t);
  cards(t, 'TC 8D 9S 9C 7H');
  assert.equal(stand(t, other).ok, false, `station ${other} sits at seat 2 and decides nothing at seat 1`);
  assert.equal(stand(t, atSeat1).ok, true, `station ${atSeat1} decides at seat 1, its seat in the file`);
  assert.equal(stand(t, other).ok, true);
  cards(t, '9H');
  assert.equal(t.table.reads.view().phase, 'results');
  const last = settlements(t).at(-1);
  assert.deepEqual(
    last?.lines.map((l) => [l.station, l.seat]),
    [
      [atSeat1, 1],
      [other, 2],
    ],
  );
  assert.equal(verifyLedger(t.ledger).ok, true);
  assert.equal(accountFor(t.ledger).conserved, true);
}

async function closing(t: RestartedHost, body: (t: RestartedHost) => void): Promise<void> {
  try {
    body(t);
  } finally {
    await t.running.close();
  }
}

describe('stations changing seats with a blackjack round in play, the host killed', { timeout: 120_000 }, () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'seat-change-kill-'));
  /** The folder of a run killed at seat 1's decision (seated as ALL), copied for each case. */
  const killedMidRound = path.join(root, 'killed-mid-round');
  let n = 0;
  const copyOfKilled = () => {
    const dir = path.join(root, `case-${++n}`);
    cpSync(killedMidRound, dir, { recursive: true });
    return dir;
  };

  before(async () => {
    const said = await killedAfter(killedMidRound, ALL, TO_DECISION);
    assert.deepEqual(said, { phase: 'dealing', seatsNext: null, refused: [] });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('(a) killed mid-round, started reseated: seat 1’s decision is station 1’s, the bets paid to their stations, the next round on the new seats', async () => {
    const t = await start(copyOfKilled(), SWAPPED);
    await closing(t, () => {
      assert.equal(t.table.reads.view().phase, 'dealing', 'the round goes on');
      assert.deepEqual(t.running.table.state.seatsNext, seating(SWAPPED), 'the new seating waits for the round');
      assert.equal(stand(t, 2).ok, false, 'station 2 did not bet on seat 1 and decides nothing there');
      assert.equal(t.table.reads.station(2).decision, null);
      assert.equal(stand(t, 1).ok, true, 'station 1 stands on its own 19');
      assert.equal(stand(t, 1).ok, false, 'station 1 did not bet on seat 2 and decides nothing there');
      assert.equal(stand(t, 2).ok, true, 'station 2 stands on its own 17');
      cards(t, '9C');
      settledOnceToTheBettors(t);
      nextRoundOn(t, SWAPPED);
    });
  });

  describe('(b) killed after the reseating start journalled its configure, the round still in play', () => {
    /** The reseated run: seat 1 stood by station 1, then killed with seat 2's decision due (once, copied for each case). */
    const reseated = path.join(root, 'reseated-then-killed');
    const reseatedThenKilled = async () => {
      const dir = path.join(root, `case-${++n}`);
      cpSync(reseated, dir, { recursive: true });
      return dir;
    };
    before(async () => {
      cpSync(killedMidRound, reseated, { recursive: true });
      const said = await killedAfter(reseated, SWAPPED, ['stand:1']);
      assert.deepEqual(said, { phase: 'dealing', seatsNext: seating(SWAPPED), refused: [] });
    });

    it('started again with the same new file: the seating still waits, seat 2’s decision is station 2’s, paid once, the next round on the new seats', async () => {
      const t = await start(await reseatedThenKilled(), SWAPPED);
      await closing(t, () => {
        assert.equal(t.table.reads.view().phase, 'dealing');
        assert.deepEqual(t.running.table.state.seatsNext, seating(SWAPPED), 'the file still seats anew: the seating still waits');
        assert.deepEqual(seatsOf(t), seating(ALL), 'the round keeps its seats');
        assert.equal(stand(t, 1).ok, false, 'station 1 sits at seat 2 in the file but did not bet there');
        assert.equal(stand(t, 2).ok, true);
        cards(t, '9C');
        settledOnceToTheBettors(t);
        nextRoundOn(t, SWAPPED);
      });
    });

    it('started again with the old file given back: nothing waits, the round plays out as dealt, the next round on the old seats', async () => {
      const t = await start(await reseatedThenKilled(), ALL);
      await closing(t, () => {
        assert.equal(t.table.reads.view().phase, 'dealing');
        assert.equal(t.running.table.state.seatsNext, undefined, 'the old file gives the round its own seats back: nothing waits');
        assert.equal(stand(t, 1).ok, false, 'station 1 has stood: seat 2 is not its');
        assert.equal(stand(t, 2).ok, true);
        cards(t, '9C');
        settledOnceToTheBettors(t);
        nextRoundOn(t, ALL);
      });
    });
  });

  it('(c) killed after the round settled, before the next betting window: started again, paid once, the next round on the new seats', async () => {
    const dir = copyOfKilled();
    const said = await killedAfter(dir, SWAPPED, ['stand:1', 'stand:2', 'cards:9C']);
    assert.deepEqual(said, { phase: 'results', seatsNext: seating(SWAPPED), refused: [] });
    const t = await start(dir, SWAPPED);
    await closing(t, () => {
      settledOnceToTheBettors(t);
      nextRoundOn(t, SWAPPED);
    });
  });
});
