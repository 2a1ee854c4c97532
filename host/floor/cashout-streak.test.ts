// A cash-out while the station holds an open winning-streak stake (Macau 2009 Art. 13 5)): the
// stake is not part of the cash-out and a round dealt without this station's bet loses it (the
// engine's reading of 5)(2) vi)). The player is told first: the host refuses the cash-out unless
// the command says the player confirmed it (`endsStreak`), whatever the screen showed.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { layoutDefined, printerRig, type PrinterRig } from '../../hardware/printer/printer-rig.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { CommandBody } from '../../protocol/index.js';
import { handpays } from '../service/backend/handpays.js';
import { credit, submitted, testTable, type TestTable } from '../testing/table-kit.js';
import { cards, close, held, place, station2Round, STREAK, wonRoundWithStreak } from '../testing/streak-rounds.js';

const rigs: PrinterRig[] = [];
after(async () => {
  for (const r of rigs) await r.p.close();
});

type Body = Parameters<TestTable['hub']['commands']['submit']>[2];
const cmd = (t: TestTable, station: number, command: Body) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), command));
const refusal = (r: ReturnType<typeof cmd>) => (r.ok ? null : r.error.refusal);
const station1Lines = (t: TestTable) => {
  const last = [...entriesOfTypes(t.ledger, ['round.settle'])].at(-1);
  assert.ok(last);
  const p = (JSON.parse(last.body) as EntryBody).payload as { lines: { station: number; net: number; rule: string; carried?: true }[] };
  return p.lines.filter((l) => l.station === 1).map((l) => [l.net, l.rule, l.carried]);
};
const LOST = [[-5_000, 'macau-2009 art.13 5)(2) vi), our reading: the text names no consequence', true]];

describe('a cash-out with an open winning-streak stake held (Macau 2009 Art. 13 5)(2) vi))', () => {
  it('is refused until the player confirms (streak-held, the amount and the article in the detail); nothing moves', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      const r = cmd(t, 1, { name: 'cash-out' });
      assert.equal(refusal(r), 'streak-held');
      assert.ok(!r.ok && r.error.detail.includes('5000') && r.error.detail.includes('art.13 5)(2) vi)'), !r.ok ? r.error.detail : 'accepted');
      assert.equal(refusal(cmd(t, 1, { name: 'cash-out', via: 'handpay' })), 'streak-held', 'a handpay asked for by name too');
      assert.equal(t.ledger.credit(1), 105_000, 'the credit stays');
      assert.equal(held(t, 1), 5_000);
      assert.deepEqual(t.floor.handpays.pending(), []);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('confirmed (endsStreak), pays the credit and leaves the stake held: the next round dealt without the station loses it', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      assert.equal(cmd(t, 1, { name: 'cash-out', endsStreak: true }).ok, true);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(t.floor.handpays.pending()[0]?.amount, 105_000, 'the held stake is not part of the cash-out');
      assert.equal(held(t, 1), 5_000);
      station2Round(t);
      assert.deepEqual(station1Lines(t), LOST);
      assert.equal(held(t, 1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('confirmed, by ticket where the station prints them: the same; a player who then bets the next round keeps the streak', async () => {
    const r = printerRig();
    rigs.push(r);
    await layoutDefined(r);
    const t = testTable({
      game: 'blackjack',
      config: { ...STREAK, tickets: { limit: 5_000_000, expiryDays: 90, machineId: 77 } },
      printers: { at: (s) => (s === 1 ? r.p : undefined) },
    });
    try {
      wonRoundWithStreak(t);
      assert.equal(refusal(cmd(t, 1, { name: 'cash-out' })), 'streak-held');
      assert.equal(t.ledger.credit(1), 105_000);
      assert.equal(cmd(t, 1, { name: 'cash-out', endsStreak: true }).ok, true);
      const end = Date.now() + 5000;
      while (t.ledger.credit(1) !== 0 && Date.now() < end) await new Promise((ok) => setTimeout(ok, 5));
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(held(t, 1), 5_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
      // Money in again once the ticket is printed, and a bet in the next round: the obligation is met.
      const printed = Date.now() + 5000;
      while (refusal(place(t, 1, 'main', 10_000)) === 'station-locked' && Date.now() < printed) await new Promise((ok) => setTimeout(ok, 5));
      credit(t.ledger, 1, 20_000);
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      close(t);
      cards(t, 'TS 9H 9D');
      assert.equal(cmd(t, 1, { name: 'decide', action: 'stand' }).ok, true);
      cards(t, '8C');
      assert.deepEqual(
        station1Lines(t).filter(([, , carried]) => carried),
        [],
        'won, two in a row: streak 3 not yet reached, nothing lost',
      );
      assert.equal(held(t, 1), 5_000);
      assert.deepEqual(t.table.reads.station(1).betting.streak, { wins: 2, open: [{ bet: 'streak3', amount: 5_000 }] });
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a station that confirms with nothing held, or sends the flag malformed, gains nothing: money is conserved', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      credit(t.ledger, 1, 30_000);
      assert.equal(cmd(t, 1, { name: 'cash-out', endsStreak: true }).ok, true, 'nothing held: the plain cash-out');
      assert.equal(t.floor.handpays.pending()[0]?.amount, 30_000);
      assert.equal(refusal(cmd(t, 2, { name: 'cash-out', endsStreak: true })), 'cash-out-empty', 'no credit: the usual refusal');
      for (const bad of ['yes', 1, false, null, {}])
        assert.equal(CommandBody.safeParse({ name: 'cash-out', endsStreak: bad }).success, false, JSON.stringify(bad));
      assert.equal(CommandBody.safeParse({ name: 'cash-out', endsStreak: true, via: 'handpay' }).success, true);
      assert.equal(t.ledger.credit(1), 0);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a station with a stake held and a handpay waiting, or no credit, is told the usual refusal, not asked to confirm', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      assert.equal(cmd(t, 1, { name: 'cash-out', endsStreak: true }).ok, true);
      assert.equal(refusal(cmd(t, 1, { name: 'cash-out' })), 'cash-out-pending');
      const [p] = t.floor.handpays.pending();
      assert.ok(p);
      assert.equal(t.floor.handpays.confirm(p.requestTxId, 'att-1').ok, true);
      assert.equal(refusal(cmd(t, 1, { name: 'cash-out' })), 'cash-out-empty');
      assert.equal(held(t, 1), 5_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it("tells the attendant, on the handpay's row, of the streak stake the station still holds (not part of the handpay)", () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      wonRoundWithStreak(t);
      credit(t.ledger, 3, 7_000);
      assert.equal(cmd(t, 1, { name: 'cash-out', endsStreak: true }).ok, true);
      assert.equal(cmd(t, 3, { name: 'cash-out' }).ok, true, 'nothing held at station 3');
      const rows = handpays({ floor: t.floor, ledger: t.ledger, config: t.config }, {} as never).pending();
      assert.deepEqual(
        rows?.map((r) => [r.station, r.amount, r.streakHeld]),
        [
          [1, 105_000, 5_000],
          [3, 7_000, undefined],
        ],
      );
      station2Round(t);
      assert.deepEqual(
        handpays({ floor: t.floor, ledger: t.ledger, config: t.config }, {} as never)
          .pending()
          ?.map((r) => r.streakHeld),
        [undefined, undefined],
        'lost at the round dealt without station 1: nothing held any more',
      );
    } finally {
      t.close();
    }
  });
});
