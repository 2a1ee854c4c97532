// Stations changing seats across a restart with a round in play (the configuration's seat-to-station
// mapping changed while the host was down): every bet was debited from the station that placed it,
// and the round's bets are by seat. On the real host (startHost over one data folder, started
// twice, stations 1 and 2 swapped between seats 1 and 2 at the second start): each bet's return goes
// to the station that placed and paid it, a pending decision is taken only from the station whose
// bet it is, nothing is paid twice, and the next round plays the new seats.
// docs/table-host.md, "Stations changing seats with a round in play".
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { blackjackTableGame } from '../../engine/blackjack/table-game.js';
import { baccaratTableGame } from '../../engine/baccarat/table-game.js';
import { foldJournal } from '../../engine/table/fold.js';
import { simulatedTableConfig, TableConfig, tableOptions } from '../../host/config/table-config.js';
import { tableParams } from '../../host/config/table-params.js';
import { SEATED_AS_NUMBERED, SEATS_1_2_SWAPPED, startAgain, type RestartedHost } from './restarted-host.js';
import { burnShoeStart, cards, close, held, STREAK, wonRoundWithStreak, type StreakTable } from '../../host/testing/streak-rounds.js';
import { credit, submitted } from '../../host/testing/table-kit.js';
import { entriesOfTypes, tableJournal, verifyLedger, type EntryBody } from '../../ledger/index.js';
import type { BetId, StationState } from '../../protocol/index.js';

type Game = 'blackjack' | 'baccarat';
type Seating = { station: number; seat: number }[];
const seated = (pairs: [number, number][]) => pairs.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const }));
const ALL = seated(SEATED_AS_NUMBERED);
const SWAPPED = seated(SEATS_1_2_SWAPPED);

type Started = RestartedHost;

function start(dir: string, game: Game, stations: ReturnType<typeof seated>, extra: object = {}): Promise<Started> {
  return startAgain(dir, TableConfig.parse({ ...simulatedTableConfig(game), ...extra, stations }));
}

const place = (t: StreakTable, station: number, bet: BetId, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet }, amount }));
const stand = (t: StreakTable, station: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action: 'stand' }));

interface Line {
  station: number;
  seat: number;
  stake: number;
  net: number;
}
function settledLines(t: StreakTable): Line[] {
  return [...entriesOfTypes(t.ledger, ['round.settle'])].flatMap((e) => ((JSON.parse(e.body) as EntryBody).payload as { lines: Line[] }).lines);
}
const seatsOf = (t: Started): Seating => t.running.table.state.params.stations.map((s) => ({ station: s.station, seat: s.seat }));

/**
 * Station 1 bets 10,000 and station 2 20,000 on a blackjack table, the cards are dealt up to seat 1's
 * decision (19 and 17 against the dealer's 9), and the host stops there.
 */
function blackjackToDecision(t: Started): void {
  credit(t.ledger, 1, 100_000);
  credit(t.ledger, 2, 100_000);
  burnShoeStart(t);
  assert.equal(place(t, 1, 'main', 10_000).ok, true);
  assert.equal(place(t, 2, 'main', 20_000).ok, true);
  close(t);
  cards(t, 'TS TH 9D 9H 7D');
  assert.equal(t.table.reads.view().phase, 'dealing');
  assert.equal(t.ledger.credit(1), 90_000);
  assert.equal(t.ledger.credit(2), 80_000);
}

/** Station 1 bets player 10,000 and station 2 banker 20,000 on baccarat; two of the four cards dealt, then the host stops. */
function baccaratHalfDealt(t: Started): void {
  credit(t.ledger, 1, 100_000);
  credit(t.ledger, 2, 100_000);
  burnShoeStart(t);
  assert.equal(place(t, 1, 'player', 10_000).ok, true);
  assert.equal(place(t, 2, 'banker', 20_000).ok, true);
  close(t);
  // Player 4, banker 10.
  cards(t, '4C TS');
  assert.equal(t.table.reads.view().phase, 'dealing');
}

async function withFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seat-change-round-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The round played up to `upTo` seated as ALL, the host stopped, and started again seated as `after`. */
async function restartedMidRound(dir: string, game: Game, upTo: (t: Started) => void, after: ReturnType<typeof seated>): Promise<Started> {
  const first = await start(dir, game, ALL);
  try {
    upTo(first);
  } finally {
    await first.running.close();
  }
  return start(dir, game, after);
}

async function closing<T>(t: Started, body: (t: Started) => T | Promise<T>): Promise<T> {
  try {
    return await body(t);
  } finally {
    await t.running.close();
  }
}

describe('stations changing seats across a restart with a blackjack round in play', () => {
  it('the decision due at seat 1 is taken from station 1 (whose bet it is), never from station 2', async () => {
    await withFolder(async (dir) => {
      const t = await restartedMidRound(dir, 'blackjack', blackjackToDecision, SWAPPED);
      await closing(t, () => {
        assert.equal(t.table.reads.view().phase, 'dealing', 'the round goes on');
        assert.equal(stand(t, 2).ok, false, 'station 2 did not bet on seat 1 and decides nothing there');
        assert.equal(t.table.reads.station(2).decision, null, 'station 2’s screen shows no decision of seat 1');
        assert.notEqual(t.table.reads.station(1).decision, null, 'station 1’s screen shows its own seat’s decision');
        assert.equal((t.hub.state('station/1') as StationState).seat, 1, 'station 1’s screen names the seat its bet is on');
        assert.equal((t.hub.state('station/2') as StationState).seat, 2);
        assert.equal(stand(t, 1).ok, true, 'station 1 stands on its own 19');
        assert.equal(stand(t, 2).ok, true, 'station 2 stands on its own 17');
      });
    });
  });

  it('each bet is settled to the station that placed it, once, and the ledger verifies', async () => {
    await withFolder(async (dir) => {
      const t = await restartedMidRound(dir, 'blackjack', blackjackToDecision, SWAPPED);
      await closing(t, () => {
        // Whoever the table asks, the seats stand: the round comes to its settlement either way.
        for (const s of [1, 2, 1, 2]) stand(t, s);
        cards(t, '9C');
        assert.equal(t.table.reads.view().phase, 'results');
        assert.deepEqual(
          settledLines(t).map((l) => [l.station, l.seat, l.stake, l.net]),
          [
            [1, 1, 10_000, 10_000],
            [2, 2, 20_000, -20_000],
          ],
        );
        assert.equal(t.ledger.credit(1), 110_000, 'station 1 paid 10,000 and gets 20,000 back');
        assert.equal(t.ledger.credit(2), 80_000, 'station 2 lost the 20,000 it paid, and gains nothing of seat 1’s win');
        assert.equal(verifyLedger(t.ledger).ok, true);
      });
    });
  });

  it('the next round plays the new seats, and a third start pays nothing again', async () => {
    await withFolder(async (dir) => {
      const t = await restartedMidRound(dir, 'blackjack', blackjackToDecision, SWAPPED);
      await closing(t, () => {
        for (const s of [1, 2, 1, 2]) stand(t, s);
        cards(t, '9C');
        close(t);
        assert.equal(t.table.reads.view().phase, 'betting');
        assert.equal((t.hub.state('station/1') as StationState).seat, 2, 'the next round: station 1 at its new seat');
        assert.deepEqual(
          seatsOf(t).filter((s) => s.station <= 2),
          [
            { station: 1, seat: 2 },
            { station: 2, seat: 1 },
          ],
        );
        const c = t.config;
        const game = blackjackTableGame(c.profile, tableOptions(c));
        const folded = foldJournal(tableJournal(t.ledger), game, tableParams(c));
        assert.deepEqual(folded.problems, []);
        assert.equal(folded.state.credits[1], 110_000);
        assert.equal(folded.state.credits[2], 80_000);
      });
      const again = await start(dir, 'blackjack', SWAPPED);
      await closing(again, () => {
        assert.deepEqual(again.running.recovery.foldProblems, []);
        assert.equal(settledLines(again).length, 2, 'one settlement, not two');
        assert.equal(again.ledger.credit(1), 110_000);
        assert.equal(again.ledger.credit(2), 80_000);
        assert.equal(verifyLedger(again.ledger).ok, true);
      });
    });
  });
});

/** Station 1 taken off the table, station 7 given its seat 1 (seat 7 empty). */
const REPLACED = seated([7, 2, 3, 4, 5, 6].map((n, i) => [n, i + 1]));

describe('a station taken off the table, its seat given to a station that sat elsewhere, with a blackjack round in play', () => {
  it('station 1’s bet plays out at its stated default and is paid to station 1; station 7 decides nothing of it', async () => {
    await withFolder(async (dir) => {
      const t = await restartedMidRound(dir, 'blackjack', blackjackToDecision, REPLACED);
      await closing(t, () => {
        assert.equal(stand(t, 7).ok, false, 'station 7 did not bet on seat 1');
        assert.equal((t.hub.state('station/7') as StationState).decision, null);
        // Station 1 has no screen now: its decision times out to the stated default (stand on 19).
        t.clock.runOut(t.table.reads.view().endsAt);
        assert.equal(stand(t, 2).ok, true);
        cards(t, '9C');
        assert.equal(t.table.reads.view().phase, 'results');
        assert.equal(t.ledger.credit(1), 110_000, 'station 1 is paid, and cashes out with an attendant as any station taken off');
        assert.equal(t.ledger.credit(7), 0);
        assert.equal(verifyLedger(t.ledger).ok, true);
        close(t);
        assert.equal(t.table.reads.view().phase, 'betting');
        assert.equal((t.hub.state('station/7') as StationState).seat, 1, 'the next round: station 7 at seat 1');
        assert.equal(place(t, 7, 'main', 10_000).ok, false, 'station 7 has no credit');
      });
    });
  });
});

describe('stations changing seats across a restart with a baccarat coup in play', () => {
  it('each bet is settled to the station that placed it, once, and the ledger verifies', async () => {
    await withFolder(async (dir) => {
      const t = await restartedMidRound(dir, 'baccarat', baccaratHalfDealt, SWAPPED);
      await closing(t, () => {
        // Player 4+5 = 9, banker 10+2 = 2: the player wins.
        cards(t, '5D 2C');
        assert.equal(t.table.reads.view().phase, 'results');
        const lines = settledLines(t).map((l) => [l.station, l.seat, l.stake, l.net]);
        assert.deepEqual(lines, [
          [1, 1, 10_000, 10_000],
          [2, 2, 20_000, -20_000],
        ]);
        assert.equal(t.ledger.credit(1), 110_000);
        assert.equal(t.ledger.credit(2), 80_000);
        assert.equal(verifyLedger(t.ledger).ok, true);
        close(t);
        assert.deepEqual(
          seatsOf(t).filter((s) => s.station <= 2),
          [
            { station: 1, seat: 2 },
            { station: 2, seat: 1 },
          ],
        );
      });
    });
  });

  it('a second restart with the round still in play (seated anew) still pays the stations that bet', async () => {
    await withFolder(async (dir) => {
      const second = await restartedMidRound(dir, 'baccarat', baccaratHalfDealt, SWAPPED);
      await closing(second, () => cards(second, '5D'));
      const t = await start(dir, 'baccarat', ALL);
      await closing(t, () => {
        cards(t, '2C');
        assert.equal(t.table.reads.view().phase, 'results');
        assert.equal(t.ledger.credit(1), 110_000);
        assert.equal(t.ledger.credit(2), 80_000);
        assert.equal(verifyLedger(t.ledger).ok, true);
        const c = t.config;
        const folded = foldJournal(tableJournal(t.ledger), baccaratTableGame(c.profile, tableOptions(c)), tableParams(c));
        assert.deepEqual(folded.problems, []);
        assert.equal(folded.state.credits[1], 110_000);
        // The file gave the round's own seats back: nothing waits for the next round.
        assert.equal(t.running.table.state.seatsNext, undefined);
        close(t);
        assert.deepEqual(
          seatsOf(t).filter((s) => s.station <= 2),
          [
            { station: 1, seat: 1 },
            { station: 2, seat: 2 },
          ],
        );
      });
    });
  });
});

describe('stations changing seats with a round in play on a seat with an open winning streak (Macau 2009 Art. 13 5))', () => {
  it('the round settles the streak to the station that paid it, and its held stake goes back to that station when the seat changes hands', async () => {
    await withFolder(async (dir) => {
      const first = await start(dir, 'blackjack', ALL, STREAK);
      await closing(first, () => {
        wonRoundWithStreak(first);
        // The streak's second round: station 1 bets again and has 19 to decide on when the host stops.
        assert.equal(place(first, 1, 'main', 10_000).ok, true);
        close(first);
        cards(first, 'TS 9D 9H');
        assert.equal(first.ledger.credit(1), 95_000);
      });
      const t = await start(dir, 'blackjack', SWAPPED, STREAK);
      await closing(t, () => {
        assert.equal(stand(t, 1).ok, true, 'station 1 decides its own seat');
        cards(t, '8C');
        assert.equal(t.table.reads.view().phase, 'results');
        assert.equal(t.ledger.credit(1), 115_000, 'station 1 is paid its round');
        assert.equal(held(t, 1), 5_000, 'the streak goes on past the round, held under the station that paid it');
        close(t);
        assert.equal(t.table.reads.view().phase, 'betting');
        assert.equal(held(t, 1), 0);
        assert.equal(t.ledger.credit(1), 120_000, 'the new seating took seat 1 from station 1: its streak stake is back on its credit');
        assert.equal(t.ledger.credit(2), 100_000, 'station 2 paid nothing and gains nothing');
        assert.equal(t.table.reads.station(2).betting.streak, undefined);
        assert.equal(verifyLedger(t.ledger).ok, true);
      });
    });
  });
});
