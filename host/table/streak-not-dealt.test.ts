// A station not dealt in whose held winning-streak stake a round settles (Macau 2009 Art. 13 5)):
// kept out by a fault (its stake returned, net 0) or not betting (its stake lost, 5)(2) vi)). SAS
// counts a game played where the player wagered on one (docs/sas.md, "The meter map of a table
// game"): that round is no game of the station's, so no game is counted and neither game started
// (7E) nor game ended (7F) is raised; the money still moves through the meters as the ledger's
// accounts say (coin out the credits paid back; the lost stake the house's, wagered earlier).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { EXC } from '../../hardware/sas/constants.js';
import { account } from '../../ledger/entries.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { EXCEPTION_SOURCES, exceptionsOf } from '../devices/sas-exceptions.js';
import { journalFacts } from '../devices/sas-feed.js';
import { sasMetersOf } from '../devices/sas-meters.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';
import { held, station2Round, STREAK, wonRoundWithStreak } from '../testing/streak-rounds.js';

const lastSeq = (t: TestTable) => [...entriesOfTypes(t.ledger, ['round.settle', 'bet.place', 'bill.credit'])].at(-1)?.seq ?? 0;

/** What one station's meters, SAS meters, exceptions and recall show; `since` the seq before the round. */
function stationSnapshot(t: TestTable, station: number, since: number) {
  const m = t.ledger.meters(`station:${station}`);
  const sas = sasMetersOf({ station: m, credit: t.ledger.credit(station), powerResets: 0 }, 1);
  const facts = journalFacts(t.ledger);
  const exceptions = [...entriesOfTypes(t.ledger, [...EXCEPTION_SOURCES], since + 1)].flatMap((e) =>
    exceptionsOf({ seq: e.seq, type: e.type as (typeof EXCEPTION_SOURCES)[number], payload: (JSON.parse(e.body) as EntryBody).payload }, station, facts),
  );
  return {
    ledger: {
      gamesPlayed: m.gamesPlayed ?? 0,
      gamesWon: m.gamesWon ?? 0,
      gamesLost: m.gamesLost ?? 0,
      gamesTied: m.gamesTied ?? 0,
      creditsWagered: m.creditsWagered ?? 0,
      creditsWon: m.creditsWon ?? 0,
      voidRefunds: m.voidRefunds ?? 0,
    },
    sas: { coinIn: sas.coinIn, coinOut: sas.coinOut, gamesPlayed: sas.gamesPlayed, gamesWon: sas.gamesWon, gamesLost: sas.gamesLost },
    gameExceptions: exceptions.filter((c) => c === EXC.gameStarted || c === EXC.gameEnded),
    recalled: t.ledger.rounds.recall({ station, limit: 10 }).map((r) => r.roundId),
  };
}

/** The house's result from the meters (what the back office and SAS compute): wagered − won − refunded, less what is still held. */
function meteredHouse(t: TestTable): number {
  const m = t.ledger.meters('table');
  const heldNow = [1, 2].reduce((s, n) => s + held(t, n), 0);
  return (m.creditsWagered ?? 0) - (m.creditsWon ?? 0) - (m.voidRefunds ?? 0) - heldNow;
}

/** Round 1, then round 2 without station 1 (`keptOut`: a bill jam at its acceptor); station 1 before and after round 2. */
function roundWithout(keptOut: boolean) {
  const t = testTable({ game: 'blackjack', config: STREAK });
  wonRoundWithStreak(t);
  if (keptOut) t.tilts.raise('bill-jam', { station: 1 });
  const since = lastSeq(t);
  const before = stationSnapshot(t, 1, since);
  const tableGamesBefore = t.ledger.meters('table').gamesPlayed ?? 0;
  station2Round(t);
  const after = stationSnapshot(t, 1, since);
  const round2 = t.ledger.rounds.recall({ tableId: t.config.tableId, limit: 1 })[0]?.roundId;
  return { t, before, after, round2, tableGames: (t.ledger.meters('table').gamesPlayed ?? 0) - tableGamesBefore };
}

const diff = (a: Record<string, number | undefined>, b: Record<string, number | undefined>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]));

describe('a station not dealt in whose held streak stake a round settles', () => {
  it('kept out by a fault (stake returned, net 0): no game played, no 7E/7F; coin out the 5,000 paid back, coin in unchanged', () => {
    const { t, before, after, round2, tableGames } = roundWithout(true);
    try {
      assert.equal(t.ledger.credit(1), 110_000, 'the held stake is back on the credit');
      assert.deepEqual(diff(before.ledger, after.ledger), {
        gamesPlayed: 0,
        gamesWon: 0,
        gamesLost: 0,
        gamesTied: 0,
        creditsWagered: 0,
        creditsWon: 5_000,
        voidRefunds: 0,
      });
      assert.deepEqual(diff(before.sas, after.sas), { coinIn: 0, coinOut: 5_000, gamesPlayed: 0, gamesWon: 0, gamesLost: 0 });
      assert.deepEqual(after.gameExceptions, [], 'no game started, no game ended at station 1');
      assert.equal(tableGames, 1, 'the table still played one round');
      assert.ok(round2 !== undefined && after.recalled.includes(round2), 'the round that paid the stake back is in the station\u2019s recall');
      assert.equal(meteredHouse(t), -t.ledger.balance(account.house), 'the meters say what the house won');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('not betting (stake lost, 5)(2) vi)): no game played, no 7E/7F; coin in and out unchanged (wagered in round 1), the house has it', () => {
    const { t, before, after, round2, tableGames } = roundWithout(false);
    try {
      assert.equal(t.ledger.credit(1), 105_000);
      assert.deepEqual(diff(before.ledger, after.ledger), {
        gamesPlayed: 0,
        gamesWon: 0,
        gamesLost: 0,
        gamesTied: 0,
        creditsWagered: 0,
        creditsWon: 0,
        voidRefunds: 0,
      });
      assert.deepEqual(diff(before.sas, after.sas), { coinIn: 0, coinOut: 0, gamesPlayed: 0, gamesWon: 0, gamesLost: 0 });
      assert.deepEqual(after.gameExceptions, []);
      assert.equal(tableGames, 1);
      assert.ok(round2 !== undefined && after.recalled.includes(round2), 'the round that took the stake is in the station\u2019s recall');
      assert.equal(meteredHouse(t), -t.ledger.balance(account.house), 'the meters say what the house won');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('control: the station that played round 2 gets its game (played, won, 7E then 7F)', () => {
    const { t } = roundWithout(true);
    try {
      const settle = [...entriesOfTypes(t.ledger, ['round.settle'])].at(-1);
      assert.ok(settle);
      const bet = [...entriesOfTypes(t.ledger, ['bet.place'])].at(-1);
      assert.ok(bet);
      const s2 = stationSnapshot(t, 2, bet.seq - 1);
      assert.deepEqual([s2.ledger.gamesPlayed, s2.ledger.gamesWon, s2.sas.gamesPlayed], [1, 1, 1]);
      assert.deepEqual(s2.gameExceptions, [EXC.gameStarted, EXC.gameEnded]);
    } finally {
      t.close();
    }
  });
});

describe('game ended (7F) of a settlement: the stations that bet in the round', () => {
  const facts = { betBefore: () => false, roundStations: () => [], runBefore: () => false };
  const line = (station: number, bet: string, stake: number, net: number, carried = false) => ({
    station,
    seat: station,
    bet,
    hand: 0,
    stake,
    net,
    rule: 'macau-2009 art.9',
    ...(carried ? { carried: true as const } : {}),
  });
  const payload = {
    roundId: 'r2',
    tableId: 'T1',
    game: 'blackjack',
    profile: 'macau-2009',
    cards: [],
    decisions: [],
    // 1: a held stake returned (kept out); 2: a main bet; 3: only a streak stake, held past the round; 4: a held stake lost.
    lines: [line(1, 'streak3', 5_000, 0, true), line(2, 'main', 10_000, 10_000), line(4, 'streak2', 1_000, -1_000, true)],
    held: [{ station: 3, seat: 3, bet: 'streak2', amount: 1_000 }],
  };
  it('is raised at a station with a line of this round or a stake held past it, never at one with only carried lines', () => {
    const ended = (station: number) => exceptionsOf({ seq: 9, type: 'round.settle', payload }, station, facts);
    assert.deepEqual([1, 2, 3, 4, 5].map(ended), [[], [EXC.gameEnded], [EXC.gameEnded], [], []]);
  });
});

describe('control: baccarat and war settle no held stakes, and their rounds count as before', () => {
  // Ranks that never repeat back to back: no war tie (a decision) and no baccarat draw rule needs a particular card.
  const RUN = ['KS', '2H', 'QD', '3C', 'JH', '4S', 'TD', '5C', '9H', '6S', '8D', '7C'];
  for (const [game, bet] of [
    ['baccarat', 'banker'],
    ['war', 'main'],
  ] as const) {
    it(`${game}: the station that bet plays a game (7E, 7F); the one that did not has none; no settlement names a station not dealt in`, () => {
      const t = testTable({ game });
      try {
        credit(t.ledger, 1, 100_000);
        credit(t.ledger, 2, 100_000);
        const since = lastSeq(t);
        let placed = false;
        for (let i = 0; i < 400 && [...entriesOfTypes(t.ledger, ['round.settle'])].length === 0; i++) {
          const view = t.table.reads.view();
          const cue = t.table.reads.cue();
          if (view.phase === 'betting' && !placed) placed = t.table.commands.placeBet(1, { bet }, 10_000).ok;
          else if (cue?.kind === 'card') t.table.shoe.onCard(parseCard(RUN[i % RUN.length] ?? '2C'));
          else if (cue?.kind === 'shuffle') t.table.shoe.onNewShoe();
          else if (view.endsAt !== null) t.clock.runOut(view.endsAt);
          else t.clock.advance(1_000);
        }
        const settle = [...entriesOfTypes(t.ledger, ['round.settle'])].at(-1);
        assert.ok(settle, 'a round settled');
        const payload = (JSON.parse(settle.body) as EntryBody).payload;
        assert.equal(payload.notDealtIn, undefined);
        const one = stationSnapshot(t, 1, since);
        const two = stationSnapshot(t, 2, since);
        assert.deepEqual([one.ledger.gamesPlayed, one.sas.gamesPlayed, one.ledger.creditsWagered], [1, 1, 10_000]);
        assert.deepEqual(one.gameExceptions, [EXC.gameStarted, EXC.gameEnded]);
        assert.deepEqual([two.ledger.gamesPlayed, two.gameExceptions, two.recalled], [0, [], []]);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });
  }
});
