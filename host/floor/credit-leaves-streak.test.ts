// Credit leaving a station's table by the other ways a player has, with an open winning-streak
// stake held (Macau 2009 Art. 13 5)): `move-credit` from its home table to another, `leave-table`
// at a table that is not its home (its credit sent home). The stake does not go with the credit
// and a round dealt here without this station's bet loses it (the engine's reading of 5)(2) vi)),
// as after a cash-out; so the host refuses either, `streak-held`, unless the command says the
// player confirmed (`endsStreak`), whatever the station's screen showed. The transfers with peer
// tables are a recording stand-in here (host/peers/host-transfers.ts is tested with real hosts in
// tests/transfers/peer-hosts.test.ts): what is asserted is the hub's and the floor's decision.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Outcome } from '../../engine/table/game.js';
import { verifyLedger } from '../../ledger/index.js';
import { CommandBody, type TransferCommand } from '../../protocol/index.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { held, station2Round, STREAK, wonRoundWithStreak } from '../testing/streak-rounds.js';

type Body = Parameters<TestTable['hub']['commands']['submit']>[2];
const cmd = (t: TestTable, station: number, command: unknown) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command as Body));
const refusal = (r: ReturnType<typeof cmd>) => (r.ok ? null : r.error.refusal);

/** The peer tables as the hub reaches them: each command recorded; moved only if the floor's gate (when given) lets it. */
function recordingTransfers(t: TestTable, answer: (station: number, c: TransferCommand) => Outcome | null = () => null) {
  const moved: [number, TransferCommand][] = [];
  const asked: number[] = [];
  t.hub.attachTransfers({
    command(station: number, c: TransferCommand, gate?: () => Outcome | null): Outcome {
      asked.push(station);
      const refused = answer(station, c) ?? gate?.() ?? null;
      if (refused) return refused;
      moved.push([station, c]);
      return { ok: true };
    },
    transfersOf: (station) => ({ station, home: t.config.tableId, table: t.config.tableId, transfers: [] }),
    watch: () => undefined,
  });
  return { moved, asked };
}

const MOVE = { name: 'move-credit', to: 'bac-1', amount: 10_000 } as const;
const LEAVE = { name: 'leave-table' } as const;

describe('credit leaving the table with an open winning-streak stake held (Macau 2009 Art. 13 5)(2) vi))', () => {
  for (const c of [MOVE, LEAVE]) {
    it(`${c.name} is refused until the player confirms (streak-held, the amount and the article in the detail); nothing moves`, () => {
      const t = testTable({ game: 'blackjack', config: STREAK });
      try {
        const { moved } = recordingTransfers(t);
        wonRoundWithStreak(t);
        const r = cmd(t, 1, c);
        assert.equal(refusal(r), 'streak-held');
        assert.ok(!r.ok && r.error.detail.includes('5000') && r.error.detail.includes('art.13 5)(2) vi)'), !r.ok ? r.error.detail : 'accepted');
        assert.deepEqual(moved, []);
        assert.equal(t.ledger.credit(1), 105_000);
        assert.equal(held(t, 1), 5_000);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });

    it(`${c.name} confirmed (endsStreak) goes ahead and leaves the stake held, lost at the next round dealt without the station`, () => {
      const t = testTable({ game: 'blackjack', config: STREAK });
      try {
        const { moved } = recordingTransfers(t);
        wonRoundWithStreak(t);
        assert.equal(cmd(t, 1, { ...c, endsStreak: true }).ok, true);
        assert.deepEqual(moved, [[1, { ...c, endsStreak: true }]]);
        assert.equal(held(t, 1), 5_000, 'the stake does not go with the credit');
        station2Round(t);
        assert.equal(held(t, 1), 0);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });
  }

  it("the transfers' own refusals come first (a move the peer tables refuse anyway says why, not this)", () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      recordingTransfers(t, () => ({ ok: false, reason: 'this is the home table', refusal: 'not-away-table' }));
      wonRoundWithStreak(t);
      assert.equal(refusal(cmd(t, 1, LEAVE)), 'not-away-table');
    } finally {
      t.close();
    }
  });

  it('a hostile station: the flag with nothing held is a plain move, malformed or on another command fails the schema, and a lie moves no stake', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      const { moved } = recordingTransfers(t);
      wonRoundWithStreak(t);
      assert.equal(cmd(t, 2, { ...MOVE, endsStreak: true }).ok, true, 'station 2 holds nothing: the plain move');
      for (const bad of ['yes', 1, false, null, {}]) {
        assert.equal(CommandBody.safeParse({ ...MOVE, endsStreak: bad }).success, false, `move-credit ${JSON.stringify(bad)}`);
        assert.equal(CommandBody.safeParse({ ...LEAVE, endsStreak: bad }).success, false, `leave-table ${JSON.stringify(bad)}`);
      }
      assert.equal(CommandBody.safeParse({ ...MOVE, endsStreak: true }).success, true);
      assert.equal(CommandBody.safeParse({ ...LEAVE, endsStreak: true }).success, true);
      for (const where of [
        { name: 'place-bet', spot: { bet: 'main' }, amount: 1_000, endsStreak: true },
        { name: 'clear-bets', endsStreak: true },
        { name: 'decide', action: 'stand', endsStreak: true },
        { name: 'set-language', language: 'en', endsStreak: true },
      ])
        assert.equal(CommandBody.safeParse(where).success, false, `${where.name} carries no endsStreak`);
      // Confirmed by a station that lies: the credit moves, the stake stays held where it is (nothing gained).
      assert.equal(cmd(t, 1, { ...MOVE, endsStreak: true }).ok, true);
      assert.equal(held(t, 1), 5_000);
      assert.deepEqual(
        moved.map(([s]) => s),
        [2, 1],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('once the streak is over (lost at a round dealt without the station) the plain move goes ahead', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      const { moved } = recordingTransfers(t);
      wonRoundWithStreak(t);
      station2Round(t);
      credit(t.ledger, 1, 1);
      assert.equal(cmd(t, 1, MOVE).ok, true);
      assert.equal(moved.length, 1);
    } finally {
      t.close();
    }
  });
});
