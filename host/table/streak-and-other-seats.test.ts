// The winning streak (Macau 2009 Art. 13 5), Art. 14 n.5) and the additional bets on another
// seat's hand (Art. 13 1)-3)) as the table plays them: placed at a station, journalled, held by
// the ledger across rounds, settled with their article, the ledger verifying after each round.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { account } from '../../ledger/entries.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { ViewState, type BetId, type Spot } from '../../protocol/index.js';
import { recallRound } from '../screens/recall.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

const SIDE = { min: 500, max: 50_000 };
const SIDE_LIMITS = { betLimits: { anyPair: SIDE, sevens: SIDE, over13: SIDE, under13: SIDE, streak2: SIDE, streak3: SIDE, streak4: SIDE, streak5: SIDE } };
const STREAK = { ...SIDE_LIMITS, profileOptions: { winningStreak: true }, profileAuthorisation: 'DICJ-TEST-16' };

const place = (t: TestTable, station: number, spot: Spot | BetId, amount: number) =>
  submitted(
    t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), {
      name: 'place-bet',
      spot: typeof spot === 'string' ? { bet: spot } : spot,
      amount,
    }),
  );
const decide = (t: TestTable, station: number, action: 'stand' | 'hit') =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);
const cards = (t: TestTable, codes: string) => {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
};
const close = (t: TestTable) => t.clock.runOut(t.table.reads.view().endsAt);
/** From the results of one round to the next betting window. */
const nextRound = (t: TestTable) => {
  close(t);
  assert.equal(t.table.reads.view().phase, 'betting');
};
function burnShoeStart(t: TestTable) {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}
/** The last round's settlement as journalled. */
function lastSettle(t: TestTable) {
  const all = [...entriesOfTypes(t.ledger, ['round.settle'])];
  const last = all.at(-1);
  assert.ok(last);
  return (JSON.parse(last.body) as EntryBody).payload as {
    lines: { station: number; seat: number; bet: string; hand?: number; stake: number; net: number; rule: string; carried?: true }[];
    held?: { station: number; seat: number; bet: string; amount: number }[];
  };
}
const held = (t: TestTable, station: number) => 0 - t.ledger.balance(account.heldBets(station));

describe('winning streak at the table (Macau 2009 Art. 13 5), Art. 14 n.5)', () => {
  it('holds the open stakes across rounds, moves the marker, pays level 2 at 3:1 and loses the rest when the seat does not bet (5)(2) vi))', () => {
    const t = testTable({ game: 'blackjack', config: STREAK });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      const offered = t.table.reads
        .station(1)
        .betting.spots.filter((s) => !('seat' in s))
        .map((s) => s.bet);
      assert.deepEqual(
        offered.filter((b) => b.startsWith('streak')),
        ['streak2', 'streak3', 'streak4', 'streak5'],
      );
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      assert.equal(place(t, 1, 'streak2', 1_000).ok, true);
      assert.equal(place(t, 1, 'streak3', 1_000).ok, true, 'several levels at once are one streak bet (5)(2) iv))');
      assert.equal(refusal(place(t, 1, 'anyPair', 1_000)), 'one-additional-bet', 'one additional bet per player (art.13)');
      assert.equal(refusal(place(t, 2, { bet: 'streak2', seat: 1 }, 1_000)), 'not-on-other-seat', "a streak is the seat's own");
      close(t);
      // Round 1: 19 against the dealer's 17: won.
      cards(t, 'TS 9H 9D');
      assert.equal(decide(t, 1, 'stand').ok, true);
      cards(t, '8C');
      assert.equal(t.table.reads.view().phase, 'results');
      const r1 = lastSettle(t);
      assert.deepEqual(
        r1.held,
        [
          { station: 1, seat: 1, bet: 'streak2', amount: 1_000 },
          { station: 1, seat: 1, bet: 'streak3', amount: 1_000 },
        ],
        'the open streak stakes are held, not settled',
      );
      assert.equal(t.ledger.credit(1), 108_000);
      assert.equal(held(t, 1), 2_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
      assert.deepEqual(t.table.reads.station(1).betting.streak, {
        wins: 1,
        open: [
          { bet: 'streak2', amount: 1_000 },
          { bet: 'streak3', amount: 1_000 },
        ],
      });
      assert.equal(t.table.reads.station(2).betting.streak, undefined, "a station sees only its own seat's marker");
      assert.deepEqual(
        t.table.reads.tableExtras(7).streaks?.map((x) => [x.seat, x.wins]),
        [[1, 1]],
      );
      const recalled = (station: number) => {
        const rec = t.ledger.rounds.recall({ station, limit: 1 })[0];
        assert.ok(rec);
        return recallRound(rec, station);
      };
      // Recall shows the marker before and after the round, to the seat's own station only.
      assert.deepEqual(recalled(1).streak, {
        before: {
          wins: 0,
          open: [
            { bet: 'streak2', amount: 1_000 },
            { bet: 'streak3', amount: 1_000 },
          ],
        },
        after: {
          wins: 1,
          open: [
            { bet: 'streak2', amount: 1_000 },
            { bet: 'streak3', amount: 1_000 },
          ],
        },
      });

      // Round 2: the open bets may not change (5)(2) v)); won again: level 2 is paid, level 3 rides.
      nextRound(t);
      assert.equal(refusal(place(t, 1, 'streak2', 1_000)), 'streak-open');
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      close(t);
      cards(t, 'TD 9S 9C');
      assert.equal(decide(t, 1, 'stand').ok, true);
      cards(t, '8D');
      const r2 = lastSettle(t);
      const s2 = r2.lines.find((l) => l.bet === 'streak2');
      assert.deepEqual(s2, {
        station: 1,
        seat: 1,
        bet: 'streak2',
        hand: 0,
        stake: 1_000,
        net: 3_000,
        rule: 'macau-2009 art.13 5)(2) i), art.14 n.5',
        choices: ['winningStreak=true'],
        authorisation: 'DICJ-TEST-16',
        carried: true,
      });
      assert.equal(r2.held, undefined, 'nothing new is held');
      // The screens' views with a carried line in the results are valid messages.
      for (const screen of ['table', 'station/1'] as const) {
        const view = t.hub.state(screen);
        assert.equal(ViewState.safeParse(view).success, true, JSON.stringify(ViewState.safeParse(view).error?.issues.slice(0, 3)));
      }
      assert.deepEqual(recalled(1).lines.find((l) => l.bet === 'streak2')?.carried, true);
      assert.deepEqual(recalled(1).streak?.after, { wins: 2, open: [{ bet: 'streak3', amount: 1_000 }] });
      assert.equal(t.ledger.credit(1), 108_000 + 10_000 + 4_000);
      assert.equal(held(t, 1), 1_000);
      assert.deepEqual(t.table.reads.station(1).betting.streak, { wins: 2, open: [{ bet: 'streak3', amount: 1_000 }] });
      assert.equal(verifyLedger(t.ledger).ok, true);

      // Round 3: seat 1 does not bet: its open streak bet is lost (our reading of 5)(2) vi)).
      nextRound(t);
      assert.equal(place(t, 2, 'main', 10_000).ok, true);
      close(t);
      cards(t, 'TH 9D 9H');
      assert.equal(decide(t, 2, 'stand').ok, true);
      cards(t, '8H');
      const r3 = lastSettle(t);
      assert.deepEqual(
        r3.lines.filter((l) => l.station === 1).map((l) => [l.bet, l.stake, l.net, l.rule, l.carried]),
        [['streak3', 1_000, -1_000, 'macau-2009 art.13 5)(2) vi), our reading: the text names no consequence', true]],
      );
      assert.equal(t.ledger.credit(1), 122_000);
      assert.equal(held(t, 1), 0);
      assert.equal(t.table.reads.station(1).betting.streak, undefined);
      assert.deepEqual(recalled(1).streak, { before: { wins: 2, open: [{ bet: 'streak3', amount: 1_000 }] }, after: null });
      assert.equal(recalled(2).streak, undefined, "station 2 does not see seat 1's marker");
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('additional bets on another seat (Macau 2009 Art. 13 1)-3), Art. 20 n.1 (2))', () => {
  it("settles any pair against the seat's hand at the station that bet it, naming seat and hand", () => {
    const t = testTable({ game: 'blackjack', config: SIDE_LIMITS });
    try {
      for (const s of [1, 2, 3, 4, 5]) credit(t.ledger, s, 100_000);
      burnShoeStart(t);
      const other = t.table.reads
        .station(2)
        .betting.spots.filter((s) => 'seat' in s && s.bet !== 'behind')
        .map((s) => `${s.bet}@${'seat' in s ? s.seat : ''}`);
      assert.ok(other.includes('anyPair@1') && other.includes('sevens@3') && other.includes('over13@1'), other.join(' '));
      assert.ok(!other.some((x) => x.startsWith('anyPair@2')), 'not on its own seat: that is its own spot');
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      assert.equal(place(t, 2, 'main', 10_000).ok, true);
      const r = place(t, 2, { bet: 'anyPair', seat: 1 }, 1_000);
      assert.equal(r.ok, true, JSON.stringify(r));
      assert.equal(refusal(place(t, 2, { bet: 'sevens', seat: 1 }, 1_000)), 'one-additional-bet', 'one additional bet per player, on any hand');
      // Station 4 bets behind seat 1 and its any pair: one bettor, counted once.
      assert.equal(place(t, 4, { bet: 'behind', seat: 1 }, 10_000).ok, true);
      assert.equal(place(t, 4, { bet: 'anyPair', seat: 1 }, 1_000).ok, true);
      // A station betting only on the seat's hand is one of its bettors too.
      assert.equal(
        refusal(place(t, 5, { bet: 'anyPair', seat: 1 }, 1_000)),
        'behind-seat-full',
        "three bettors on a seat at most (the house's cap under alternative 1); art.20 n.1 2) names three)",
      );
      // Station 3 bets only an additional bet: it does not play without an initial bet (art.13).
      assert.equal(place(t, 3, { bet: 'anyPair', seat: 2 }, 1_000).ok, true);
      close(t);
      assert.deepEqual(
        t.table.reads.station(3).betting.unplayed?.map((u) => [u.bet, u.seat, u.reason]),
        [['anyPair', 2, 'needs-initial-bet']],
      );
      // Seat 1: 8-8 (a pair), seat 2: T-9, dealer 9.
      cards(t, '8S TC 9H 8D 9C');
      assert.equal(decide(t, 1, 'stand').ok, true);
      assert.equal(decide(t, 2, 'stand').ok, true);
      cards(t, '8C');
      assert.equal(t.table.reads.view().phase, 'results');
      const lines = lastSettle(t).lines.filter((l) => l.bet === 'anyPair');
      assert.deepEqual(
        lines.map((l) => [l.station, l.seat, l.hand, l.stake, l.net, l.rule]),
        [
          [2, 1, 0, 1_000, 11_000, 'macau-2009 art.13 1)(1), art.14 n.1'],
          [4, 1, 0, 1_000, 11_000, 'macau-2009 art.13 1)(1), art.14 n.1'],
        ],
      );
      assert.equal(t.ledger.credit(2), 100_000 - 11_000 + 20_000 + 12_000);
      assert.equal(t.ledger.credit(3), 100_000, 'the unplayed chips stayed credit');
      assert.equal(t.ledger.credit(4), 100_000 - 11_000 + 12_000, 'behind seat 1 (16 against 17) lost, its any pair won');
      assert.equal(t.table.reads.station(2).betting.prizes?.[0]?.seat, 1);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('Macau 2004 Art. 13: an additional bet on another seat needs an initial bet too', () => {
  // «Para além da aposta inicial e aposta de seguro, o jogador pode ainda fazer uma das seguintes
  // apostas: 1) Em «qualquer par» de uma ou mais mãos de qualquer jogador», the same words as 2009's
  // Art. 13. Before a review of the citations, the 2004 table named no rule for it, and a station
  // with only an any pair on another seat's hand played it.
  it('a station that bets only any pair on seat 1 does not play it: it stays credit, told why', () => {
    const t = testTable({ game: 'blackjack', config: { ...SIDE_LIMITS, profile: 'macau-2004' } });
    try {
      for (const s of [1, 2]) credit(t.ledger, s, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      assert.equal(place(t, 2, { bet: 'anyPair', seat: 1 }, 1_000).ok, true);
      close(t);
      assert.deepEqual(
        t.table.reads.station(2).betting.unplayed?.map((u) => [u.bet, u.seat, u.reason]),
        [['anyPair', 1, 'needs-initial-bet']],
      );
      assert.equal(t.ledger.credit(2), 100_000, 'nothing of station 2 moved');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
