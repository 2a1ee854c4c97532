// A seat given to another station across a restart (the configuration's seat-to-station mapping
// changed) while the seat's winning streak is open (Macau 2009 Art. 13 5)): the stake was paid from
// the credit of the station that sat there, and the ledger holds it under that station (`held:<n>`),
// while the table keeps the streak by seat. On the real host (startHost over a data folder, started
// twice): the stake goes back to the credit that paid it, journalled (`held.return`), the seat's
// streak ends, and nothing is stuck (that station's cash-out) nor settled against a station that
// never paid it (the next round). docs/rules/blackjack.md, "A seat given to another station".
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { simulatedTableConfig, TableConfig, tableOptions } from '../../host/config/table-config.js';
import { startAgain, type RestartedHost } from './restarted-host.js';
import { burnShoeStart, held, station2Round, STREAK, wonRoundWithStreak, type StreakTable } from '../../host/testing/streak-rounds.js';
import { submitted } from '../../host/testing/table-kit.js';
import { entriesOfTypes, tableJournal, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { blackjackTableGame } from '../../engine/blackjack/table-game.js';
import { foldJournal } from '../../engine/table/fold.js';
import { tableParams } from '../../host/config/table-params.js';

const seated = (pairs: [number, number][]) => pairs.map(([station, seat]) => ({ station, seat, billAcceptor: 'sim' as const }));
const ALL = seated([1, 2, 3, 4, 5, 6, 7].map((n) => [n, n]));
/** Stations 1 and 3 change seats: seat 1 (station 1's streak) is station 3's now. */
const SWAPPED = seated([
  [1, 3],
  [2, 2],
  [3, 1],
  [4, 4],
  [5, 5],
  [6, 6],
  [7, 7],
]);
/** Station 1 gone from the table: seat 1 has no station. */
const WITHOUT_1 = seated([2, 3, 4, 5, 6, 7].map((n) => [n, n]));
/** Stations 4 and 5 change seats: seat 1 keeps station 1. */
const OTHERS_SWAPPED = seated([
  [1, 1],
  [2, 2],
  [3, 3],
  [4, 5],
  [5, 4],
  [6, 6],
  [7, 7],
]);

type Started = RestartedHost;

function start(dir: string, stations: ReturnType<typeof seated>): Promise<Started> {
  return startAgain(dir, TableConfig.parse({ ...simulatedTableConfig('blackjack'), ...STREAK, stations }));
}

/** Station 1 wins a round with streak3 5,000 open (held:1), then the host stops and starts again seated as `after`. */
async function restartedWithStreak(dir: string, after: ReturnType<typeof seated>): Promise<Started> {
  const first = await start(dir, ALL);
  try {
    wonRoundWithStreak(first);
  } finally {
    await first.running.close();
  }
  return start(dir, after);
}

function returns(t: StreakTable) {
  return [...entriesOfTypes(t.ledger, ['held.return'])].map((e) => (JSON.parse(e.body) as EntryBody).payload as { station: number; amount: number });
}

async function within(after: ReturnType<typeof seated>, body: (t: Started) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'streak-seat-'));
  try {
    const t = await restartedWithStreak(dir, after);
    try {
      await body(t);
    } finally {
      await t.running.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a seat given to another station across a restart while its winning streak is open (Macau 2009 Art. 13 5))', () => {
  it('the held stake goes back to the credit of the station that paid it, journalled, and the seat’s streak ends', async () => {
    await within(SWAPPED, (t) => {
      assert.equal(t.ledger.credit(1), 110_000, 'the 5,000 is back on station 1’s credit');
      assert.equal(held(t, 1), 0);
      assert.equal(held(t, 3), 0, 'station 3 paid nothing and holds nothing');
      assert.equal(t.ledger.credit(3), 0, 'station 3 had no credit and gains none');
      assert.deepEqual(
        returns(t).map((p) => [p.station, p.amount]),
        [[1, 5_000]],
      );
      assert.equal(t.table.reads.station(1).betting.streak, undefined);
      assert.equal(t.table.reads.station(3).betting.streak, undefined, 'station 3 does not take over a streak it never bet');
      assert.equal(verifyLedger(t.ledger).ok, true);
    });
  });

  it('the station that paid it cashes out without being asked about a streak its screen does not show', async () => {
    await within(SWAPPED, (t) => {
      assert.equal(t.table.reads.station(1).betting.streak, undefined);
      const r = submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'cash-out' }));
      assert.ok(r.ok, r.ok ? '' : `${r.error.refusal}: ${r.error.detail}`);
    });
  });

  it('the next round is settled (no stake settled against a station that never paid it, the table not on hold)', async () => {
    await within(SWAPPED, (t) => {
      burnShoeStart(t);
      station2Round(t);
      assert.equal(t.table.reads.view().hold, null);
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(t.ledger.credit(3), 0, 'station 3 had no credit and gains none');
      assert.equal(verifyLedger(t.ledger).ok, true);
    });
  });

  it('a station taken off the table: its held stake comes back to its credit, and the next round is settled', async () => {
    await within(WITHOUT_1, (t) => {
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(held(t, 1), 0);
      burnShoeStart(t);
      station2Round(t);
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    });
  });

  it('the journal folds through the return as written: from its first entry, or at the next start (nothing comes back twice)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'streak-seat-'));
    try {
      const second = await restartedWithStreak(dir, SWAPPED);
      try {
        const c = second.config;
        const game = blackjackTableGame(c.profile, tableOptions(c));
        const folded = foldJournal(tableJournal(second.ledger), game, tableParams(c));
        assert.deepEqual(folded.problems, []);
        assert.deepEqual(game.screens.streaks?.(folded.state.shoe), []);
        assert.equal(folded.state.credits[1], 110_000);
      } finally {
        await second.running.close();
      }
      const t = await start(dir, SWAPPED);
      try {
        assert.deepEqual(t.running.recovery.foldProblems, []);
        assert.deepEqual(
          returns(t).map((p) => [p.station, p.amount]),
          [[1, 5_000]],
        );
        assert.equal(t.ledger.credit(1), 110_000);
        assert.equal(t.table.reads.station(3).betting.streak, undefined);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        await t.running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('control: other seats changing stations leave seat 1’s streak and its held stake as they were', async () => {
    await within(OTHERS_SWAPPED, (t) => {
      assert.equal(t.ledger.credit(1), 105_000);
      assert.equal(held(t, 1), 5_000);
      assert.deepEqual(t.table.reads.station(1).betting.streak, { wins: 1, open: [{ bet: 'streak3', amount: 5_000 }] });
      assert.deepEqual(returns(t), []);
      // Not betting the next round still loses it (5)(2) vi)): the streak is the player's to keep.
      burnShoeStart(t);
      station2Round(t);
      assert.equal(held(t, 1), 0);
      assert.equal(t.ledger.credit(1), 105_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    });
  });
});
