// A held winning-streak stake (Macau 2009 Art. 13 5)) is the player's money in play: it must never
// be lost to a device fault that kept the station from betting, nor stranded in the ledger's
// held:<n> account when the table opens under a game identity whose fold no longer knows the streak.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { testTable, type TestTable } from '../testing/table-kit.js';
import { burnShoeStart, close, held, place, SIDE, station2Round, STREAK, wonRoundWithStreak } from '../testing/streak-rounds.js';
import { onBillAcceptorEvent } from '../tilts/tilt-sources.js';
import { SwitchingTable } from './switching-table.js';
import { gameSwitch } from './game-switch.js';
import { tableParams } from '../config/table-params.js';
import { TableConfig } from '../config/table-config.js';
import { silent } from '../testing/table-kit.js';
import { refusingOnce } from '../testing/refusing-ledger.js';

// The same table without the streak: its limits name no streak spot (a switch refuses limits of bets the game lacks).
const NO_STREAK = { betLimits: { anyPair: SIDE, sevens: SIDE, over13: SIDE, under13: SIDE }, profileAuthorisation: 'DICJ-TEST-16' };
const KEPT_OUT = 'macau-2009 house reading, no article: a fault kept the station from betting';

const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);
function lastSettle(t: TestTable) {
  const last = [...entriesOfTypes(t.ledger, ['round.settle'])].at(-1);
  assert.ok(last);
  return (JSON.parse(last.body) as EntryBody).payload as {
    lines: { station: number; bet: string; stake: number; net: number; rule: string; carried?: true }[];
  };
}

/** Station 1's held 5,000 came back with station 2's round: one line, net 0, the house's reading; the ledger verifies. */
function assertStakeBack(t: TestTable): void {
  assert.deepEqual(
    lastSettle(t)
      .lines.filter((l) => l.station === 1)
      .map((l) => [l.net, l.rule]),
    [[0, KEPT_OUT]],
  );
  assert.equal(t.ledger.credit(1), 110_000);
  assert.equal(held(t, 1), 0);
  assert.equal(verifyLedger(t.ledger).ok, true);
}

describe('held winning-streak stakes (Macau 2009 Art. 13 5))', () => {
  it('a station a device fault kept from betting gets its held streak stake back, its streak ended (a house reading, no article)', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      t.tilts.raise('bill-jam', { station: 1 });
      assert.equal(refusal(place(t, 1, 'main', 10_000)), 'station-disabled');
      station2Round(t);
      assert.deepEqual(
        lastSettle(t)
          .lines.filter((l) => l.station === 1)
          .map((l) => [l.bet, l.stake, l.net, l.rule, l.carried]),
        [['streak3', 5_000, 0, KEPT_OUT, true]],
      );
      assert.equal(t.ledger.credit(1), 110_000, 'the stake is back on the credit');
      assert.equal(held(t, 1), 0);
      assert.equal(t.table.reads.station(1).betting.streak, undefined, 'the streak ended');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a fault raised and cleared within the window still counts: the station was kept out for part of it', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      t.tilts.raise('bill-jam', { station: 1 });
      onBillAcceptorEvent(t.tilts, 1, { type: 'faultCleared' });
      const cleared = t.tilts.clear('bill-jam', 1, { user: 'att-1', role: 'attendant' });
      assert.equal(cleared.ok, true, JSON.stringify(cleared));
      station2Round(t);
      assertStakeBack(t);
    } finally {
      t.close();
    }
  });

  it('new bets stopped for part of the window (the shoe lid open) keeps every station out: the held stake comes back', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      t.tilts.raise('shoe-lid-open', {});
      assert.equal(refusal(place(t, 1, 'main', 10_000)), 'bets-paused');
      t.tilts.conditionGone('shoe-lid-open');
      station2Round(t);
      assertStakeBack(t);
    } finally {
      t.close();
    }
  });

  it('control: a player who chooses not to bet still loses the open streak stake (our reading of 5)(2) vi))', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      station2Round(t);
      assert.deepEqual(
        lastSettle(t)
          .lines.filter((l) => l.station === 1)
          .map((l) => [l.net, l.rule]),
        [[-5_000, 'macau-2009 art.13 5)(2) vi), our reading: the text names no consequence']],
      );
      assert.equal(t.ledger.credit(1), 105_000);
      assert.equal(held(t, 1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a cash-out leaves the held stake held (not on the meter): the next round dealt without the station settles it, nothing stranded', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      assert.equal(t.floor.gate.cashOut(1, 'handpay').ok, false, 'refused until the player confirms (host/floor/cashout-streak.test.ts)');
      assert.equal(t.floor.gate.cashOut(1, 'handpay', true).ok, true);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(held(t, 1), 5_000, 'the held stake is not part of the cash-out');
      station2Round(t);
      assert.deepEqual(
        lastSettle(t)
          .lines.filter((l) => l.station === 1)
          .map((l) => [l.net, l.carried]),
        [[-5_000, true]],
        'a player who cashed out and does not bet is read as choosing not to (5)(2) vi))',
      );
      assert.equal(held(t, 1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a restart under rule options without the streak returns the held stake to the credit, journalled, before the table plays', () => {
    const first = testTable({ game: 'blackjack', config: STREAK });
    let again: TestTable | undefined;
    try {
      wonRoundWithStreak(first);
      first.stop();
      again = testTable({ game: 'blackjack', dir: first.dir, config: NO_STREAK });
      assert.equal(again.ledger.credit(1), 110_000, 'the held stake is back on the credit');
      assert.equal(held(again, 1), 0);
      const returns = [...entriesOfTypes(again.ledger, ['held.return'])].map((e) => (JSON.parse(e.body) as EntryBody).payload);
      assert.deepEqual(
        returns.map((p) => [p.station, p.amount]),
        [[1, 5_000]],
      );
      assert.equal(again.table.reads.station(1).betting.streak, undefined);
      assert.equal(verifyLedger(again.ledger).ok, true);
      // Another round: nothing comes back twice, nothing stays held. (The test's clock starts again
      // at the first run's time, and a table opened afresh numbers its rounds from 1 again: the
      // first window's round id would be round 1's, so one window passes empty on a later clock.)
      burnShoeStart(again);
      again.clock.advance(60_000);
      close(again);
      station2Round(again);
      assert.equal(again.ledger.credit(1), 110_000);
      assert.equal(held(again, 1), 0);
      assert.equal(verifyLedger(again.ledger).ok, true);
    } finally {
      if (again) again.close();
      else first.close();
    }
  });

  it('control: a restart under the same rule options keeps the streak and its held stake', () => {
    const first = testTable({ game: 'blackjack', config: STREAK });
    let again: TestTable | undefined;
    try {
      wonRoundWithStreak(first);
      first.stop();
      again = testTable({ game: 'blackjack', dir: first.dir, config: STREAK });
      assert.equal(again.ledger.credit(1), 105_000);
      assert.equal(held(again, 1), 5_000);
      assert.deepEqual(again.table.reads.station(1).betting.streak, { wins: 1, open: [{ bet: 'streak3', amount: 5_000 }] });
      assert.equal([...entriesOfTypes(again.ledger, ['held.return'])].length, 0);
    } finally {
      if (again) again.close();
      else first.close();
    }
  });

  it('the live rule switch between shoes returns the held stakes the same way before the new game plays', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      const table = new SwitchingTable(t.table);
      const next = TableConfig.parse({ ...t.config, ...NO_STREAK, profileOptions: {} });
      const sw = gameSwitch({ ledger: t.ledger, log: silent, timers: t.clock.timers, table, params: () => tableParams(next) });
      assert.equal(sw.refusal(next), null);
      sw.switchTo(next);
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(held(t, 1), 0);
      assert.equal(table.reads.station(1).betting.streak, undefined);
      assert.equal(verifyLedger(t.ledger).ok, true);
      table.stop();
    } finally {
      t.close();
    }
  });

  it('a switch whose new game the journal refuses to open leaves no game playing on unheard; a restart opens the journalled one', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    let again: TestTable | undefined;
    try {
      wonRoundWithStreak(t);
      const table = new SwitchingTable(t.table);
      const next = TableConfig.parse({ ...t.config, ...NO_STREAK, profileOptions: {} });
      const sw = gameSwitch({ ledger: t.ledger, log: silent, timers: t.clock.timers, table, params: () => tableParams(next) });
      assert.equal(sw.refusal(next), null);
      // The new game's first write (the held stake returned, before it opens) refused: a full disk.
      refusingOnce(t.ledger, 'held.return');
      assert.throws(() => sw.switchTo(next), /SQLITE_FULL/);
      const head = t.ledger.headOf().seq;
      // The old game is stopped (it hears the ledger no more) and the new one was never built: nothing may play on it.
      const bet = table.commands.placeBet(1, { bet: 'main' }, 10_000);
      assert.equal(bet.ok, false, 'a bet on a game that hears nothing of the ledger');
      assert.equal(t.ledger.headOf().seq, head, 'nothing journalled');
      assert.equal(held(t, 1), 5_000, 'the stake still held: the journal took nothing of the switch’s game');
      t.stop();
      // The journal has the rule set switched: a start opens that game and returns the stake, as the switch would have.
      again = testTable({ game: 'blackjack', dir: t.dir, config: { ...t.config, ...NO_STREAK, profileOptions: {} } });
      assert.equal(again.ledger.credit(1), 110_000);
      assert.equal(held(again, 1), 0);
      assert.equal(verifyLedger(again.ledger).ok, true);
    } finally {
      if (again) again.close();
      else t.close();
    }
  });
});
