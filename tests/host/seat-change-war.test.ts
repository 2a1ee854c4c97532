// Stations changing seats across a restart with a «Desafio ao Casino» coup waiting on a tie's
// choice (Art. 7 n.4: go to war or surrender). The choice is the only decision of the game, and
// going to war takes a second stake: the raise must come from the station whose bet tied, and the
// war's return go back to it, whoever the new file seats there. Stopped cleanly and started again
// with stations 1 and 2 swapped; and SIGKILLed (a real host in a child, seat-kill-run.ts) at the
// choice, and after the war was chosen and its raise journalled but before its cards.
// docs/table-host.md, "Stations changing seats with a round in play".
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { accountFor } from '../../cli/soak/account.js';
import { simulatedTableConfig, TableConfig } from '../../host/config/table-config.js';
import { burnShoeStart, cards, close } from '../../host/testing/streak-rounds.js';
import { credit, submitted } from '../../host/testing/table-kit.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import type { BetId, DecisionAction, StationState } from '../../protocol/index.js';
import { SEATED_AS_NUMBERED, SEATS_1_2_SWAPPED, startAgain, type RestartedHost } from './restarted-host.js';
import { killedAfter } from './seat-kill-run.js';

const seated = (pairs: [number, number][]) => pairs.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const }));
const start = (dir: string, pairs: [number, number][]) => startAgain(dir, TableConfig.parse({ ...simulatedTableConfig('war'), stations: seated(pairs) }));

const place = (t: RestartedHost, station: number, bet: BetId, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet }, amount }));
const decide = (t: RestartedHost, station: number, action: DecisionAction) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));

interface Line {
  station: number;
  seat: number;
  bet: string;
  stake: number;
  net: number;
}
const settledLines = (t: RestartedHost): Line[] =>
  [...entriesOfTypes(t.ledger, ['round.settle'])].flatMap((e) => ((JSON.parse(e.body) as EntryBody).payload as { lines: Line[] }).lines);

/** Station 1 bets 10,000 at seat 1 and ties the croupier (7♠ against 7♥); station 2 bets 20,000 at seat 2 and wins (K♦). */
function tiedAtSeat1(t: RestartedHost): void {
  credit(t.ledger, 1, 100_000);
  credit(t.ledger, 2, 100_000);
  burnShoeStart(t);
  assert.equal(place(t, 1, 'main', 10_000).ok, true);
  assert.equal(place(t, 2, 'main', 20_000).ok, true);
  close(t);
  cards(t, '7S KD 7H');
  assert.equal(t.table.reads.view().phase, 'dealing', 'seat 1 is asked: war or surrender');
  assert.notEqual(t.table.reads.station(1).decision, null);
}

async function withFolder(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seat-change-war-'));
  try {
    await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function restartedAtTheChoice(dir: string): Promise<RestartedHost> {
  const first = await start(dir, SEATED_AS_NUMBERED);
  try {
    tiedAtSeat1(first);
  } finally {
    await first.running.close();
  }
  return start(dir, SEATS_1_2_SWAPPED);
}

async function closing(t: RestartedHost, body: (t: RestartedHost) => void): Promise<void> {
  try {
    body(t);
  } finally {
    await t.running.close();
  }
}

/** The money of the coup: every line to the station that bet, the ledger whole. */
function settledToTheBettors(t: RestartedHost, lines: [number, number, string, number, number][], credits: [number, number]): void {
  assert.deepEqual(
    settledLines(t).map((l) => [l.station, l.seat, l.bet, l.stake, l.net]),
    lines,
  );
  assert.equal(t.ledger.credit(1), credits[0]);
  assert.equal(t.ledger.credit(2), credits[1]);
  assert.deepEqual(t.running.recovery.foldProblems, []);
  assert.equal(verifyLedger(t.ledger).ok, true, 'the ledger verifies');
  assert.equal(accountFor(t.ledger).conserved, true, 'the credit is conserved');
}

describe('stations changing seats across a restart with a casino war tie waiting on its choice (Art. 7 n.4)', () => {
  it('the choice is station 1’s: station 2 (seated at seat 1 by the new file) can neither go to war nor surrender for it', async () => {
    await withFolder(async (dir) => {
      const t = await restartedAtTheChoice(dir);
      await closing(t, () => {
        assert.equal(t.table.reads.view().phase, 'dealing', 'the coup goes on');
        assert.equal(decide(t, 2, 'war').ok, false, 'station 2 does not raise on station 1’s bet');
        assert.equal(decide(t, 2, 'surrender').ok, false, 'nor surrender it');
        assert.equal(t.table.reads.station(2).decision, null, 'station 2’s screen asks nothing');
        assert.notEqual(t.table.reads.station(1).decision, null, 'station 1’s screen asks its own choice');
        assert.equal((t.hub.state('station/1') as StationState).seat, 1, 'station 1’s screen names the seat its bet is on');
        assert.equal(t.ledger.credit(2), 80_000, 'station 2 paid nothing more');
      });
    });
  });

  it('going to war takes the raise from station 1 and pays its war back to station 1 (Art. 7 n.5 al. 1)', async () => {
    await withFolder(async (dir) => {
      const t = await restartedAtTheChoice(dir);
      await closing(t, () => {
        assert.equal(decide(t, 1, 'war').ok, true);
        assert.equal(t.ledger.credit(1), 80_000, 'the raise (10,000) is station 1’s');
        assert.equal(t.ledger.credit(2), 80_000, 'station 2 is not charged for seat 1’s war');
        // Three burns, seat 1's war card (A♠), three burns, the croupier's (9♦): the player is higher.
        cards(t, '2C 3C 4C AS 5C 6C 8C 9D');
        assert.equal(t.table.reads.view().phase, 'results');
        settledToTheBettors(
          t,
          [
            [1, 1, 'main', 20_000, 10_000],
            [2, 2, 'main', 20_000, 20_000],
          ],
          [110_000, 120_000],
        );
        close(t);
        assert.equal((t.hub.state('station/2') as StationState).seat, 1, 'the next coup seats station 2 at seat 1');
        assert.equal((t.hub.state('station/1') as StationState).seat, 2);
      });
    });
  });

  it('surrendering returns half of station 1’s bet to station 1 (Art. 7 n.4 al. 1)', async () => {
    await withFolder(async (dir) => {
      const t = await restartedAtTheChoice(dir);
      await closing(t, () => {
        assert.equal(decide(t, 1, 'surrender').ok, true);
        assert.equal(t.table.reads.view().phase, 'results');
        settledToTheBettors(
          t,
          [
            [1, 1, 'main', 10_000, -5_000],
            [2, 2, 'main', 20_000, 20_000],
          ],
          [95_000, 120_000],
        );
      });
    });
  });
});

/** tiedAtSeat1's steps for a host that is killed after them (seat-kill-child.ts). */
const TO_THE_CHOICE = ['credit:1:100000', 'credit:2:100000', 'burn', 'place:1:main:10000', 'place:2:main:20000', 'close', 'cards:7S KD 7H'];
/** The war's cards: three burns, seat 1's A♠, three burns, the croupier's 9♦ (the player is higher). */
const THE_WAR = '2C 3C 4C AS 5C 6C 8C 9D';
const PAID_WAR: [number, number, string, number, number][] = [
  [1, 1, 'main', 20_000, 10_000],
  [2, 2, 'main', 20_000, 20_000],
];

describe('stations changing seats with a casino war tie in play, the host killed', { timeout: 120_000 }, () => {
  it('killed at the choice, started reseated: only station 1 chooses, the raise is its own, the war paid to it once', async () => {
    await withFolder(async (dir) => {
      const said = await killedAfter('war', dir, SEATED_AS_NUMBERED, TO_THE_CHOICE);
      assert.deepEqual(said, { phase: 'dealing', seatsNext: null, refused: [] });
      const t = await start(dir, SEATS_1_2_SWAPPED);
      await closing(t, () => {
        assert.equal(decide(t, 2, 'war').ok, false, 'station 2 does not raise on station 1’s bet');
        assert.equal(t.ledger.credit(2), 80_000);
        assert.equal(decide(t, 1, 'war').ok, true);
        assert.equal(t.ledger.credit(1), 80_000, 'the raise is station 1’s');
        cards(t, THE_WAR);
        settledToTheBettors(t, PAID_WAR, [110_000, 120_000]);
      });
    });
  });

  it('killed after the war was chosen and its raise journalled, started reseated: the war is paid to station 1 once', async () => {
    await withFolder(async (dir) => {
      const said = await killedAfter('war', dir, SEATED_AS_NUMBERED, [...TO_THE_CHOICE, 'decide:1:war']);
      assert.deepEqual(said, { phase: 'dealing', seatsNext: null, refused: [] });
      const t = await start(dir, SEATS_1_2_SWAPPED);
      await closing(t, () => {
        assert.equal(t.ledger.credit(1), 80_000, 'the raise journalled before the kill, not taken again');
        assert.equal(t.ledger.credit(2), 80_000);
        assert.equal(decide(t, 2, 'surrender').ok, false, 'nothing is left to choose');
        cards(t, THE_WAR);
        settledToTheBettors(t, PAID_WAR, [110_000, 120_000]);
        close(t);
        assert.equal((t.hub.state('station/2') as StationState).seat, 1, 'the next coup plays the file’s seats');
      });
    });
  });
});
