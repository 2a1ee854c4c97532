import assert from 'node:assert/strict';

import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { entriesOfTypes, verifyLedger } from '../../ledger/index.js';
import { ViewState, type BetId, type DecisionAction, type Spot } from '../../protocol/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

/** A bet behind another station's seat. */
const behind = (seat: number): Spot => ({ bet: 'behind', seat });
const place = (t: TestTable, station: number, spot: Spot | BetId, amount: number) =>
  submitted(
    t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), {
      name: 'place-bet',
      spot: typeof spot === 'string' ? { bet: spot } : spot,
      amount,
    }),
  );
const decide = (t: TestTable, station: number, action: DecisionAction) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'decide', action }));
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);

/** Burns the shoe-start cards, so betting can close. */
function burnShoeStart(t: TestTable) {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

describe('bets behind (Macau 2009 Art. 20, option 1: the seated player decides)', () => {
  it("offers behind spots on the other stations' seats with limits, and refuses one's own seat and a fourth bettor", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      for (const s of [1, 2, 3, 4]) credit(t.ledger, s, 100_000);
      const spots = t.table.reads.station(2).betting.spots.flatMap((x) => (x.bet === 'behind' ? [x.seat] : []));
      assert.deepEqual(spots, [1, 3, 4, 5, 6, 7]);
      assert.equal(refusal(place(t, 2, behind(2), 10_000)), 'behind-not-allowed', 'not on its own seat');
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      assert.equal(place(t, 3, behind(1), 10_000).ok, true);
      const fourth = place(t, 4, behind(1), 10_000);
      assert.equal(refusal(fourth), 'behind-seat-full', "three bettors per seat at most: the house's cap, as alternative 1) names no number");
      // Art. 20 n.1 2) («no máximo três jogadores») is another alternative than the one played here.
      assert.equal(
        fourth.ok ? '' : fourth.error.detail,
        "seat 1 already has 3 bettors, the most allowed (the house's maxBettorsPerSeat=3; macau-2009 art.20 n.1 1) sets no number)",
      );
      assert.equal(place(t, 2, behind(1), 10_000).ok, true, 'a bettor already behind may add chips');
    } finally {
      t.close();
    }
  });

  it('lets the seat decide, charges each bettor its own stake on a double, and pays each at its own station', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.equal(t.ledger.credit(2), 90_000, "the bet behind left station 2's credit");
      t.table.shoe.onCard(parseCard('5S')); // seat 1
      t.table.shoe.onCard(parseCard('6H')); // dealer
      t.table.shoe.onCard(parseCard('6D')); // seat 1: 11
      assert.equal(t.table.reads.station(2).decision, null, 'the bettor behind does not decide');
      assert.equal(refusal(decide(t, 2, 'double')), 'no-decision');
      assert.ok(t.table.reads.station(1).decision?.legal.includes('double'));
      assert.equal(decide(t, 1, 'double').ok, true);
      assert.equal(t.ledger.credit(1), 60_000, 'the seat doubled its own stake');
      assert.equal(t.ledger.credit(2), 80_000, 'the stake behind followed the double, charged to station 2');
      t.table.shoe.onCard(parseCard('TC')); // seat 1: 21
      t.table.shoe.onCard(parseCard('TH')); // dealer 16
      t.table.shoe.onCard(parseCard('8S')); // dealer busts
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 140_000, 'seat 1 won 40 000 on 40 000');
      assert.equal(t.ledger.credit(2), 120_000, 'station 2 won 20 000 on 20 000 behind seat 1');
      // Each station is told its own result: the seat's lines hold both stakes, the nets do not mix.
      assert.equal(t.table.reads.station(1).betting.roundNet, 40_000);
      assert.equal(t.table.reads.station(2).betting.roundNet, 20_000, 'a station betting only behind still sees its result');
      assert.equal(t.table.reads.station(3).betting.roundNet, undefined, 'a station without bets has no result');
      const rec = t.ledger.rounds.recall({ station: 2, limit: 1 })[0];
      assert.ok(rec?.lines.every((l) => (l.station === 2 ? l.seat === 1 : true)));
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('asks the bettor behind for its own insurance once the seat insures, and charges and pays it there (rule 15)', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('TS')); // seat 1
      t.table.shoe.onCard(parseCard('AH')); // dealer: an ace up, insurance is offered
      t.table.shoe.onCard(parseCard('9D')); // seat 1: 19
      assert.ok(t.table.reads.station(1).decision?.legal.includes('insurance'));
      assert.equal(t.table.reads.station(2).decision, null);
      // Under half the bet: refused, and the detail names the article that sets the range.
      const under = submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'insurance', amount: 9_999 }));
      assert.equal(under.ok, false);
      assert.match(under.ok ? '' : under.error.detail, /from 10000 to 20000 \(macau-2009 art\.12 n\.1\)/);
      assert.equal(t.ledger.credit(1), 80_000, 'nothing taken for a refused insurance');
      assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'insurance', amount: 10_000 })).ok, true);
      assert.equal(t.ledger.credit(1), 70_000, 'the seat paid its own insurance');
      assert.ok(t.table.reads.station(2).decision?.legal.includes('insurance'), 'now the bettor behind is asked');
      assert.equal(submitted(t.hub.commands.submit('station/2', t.hub.version('station/2'), { name: 'decide', action: 'insurance', amount: 5_000 })).ok, true);
      assert.equal(t.ledger.credit(2), 85_000, 'the bettor behind paid its own insurance');
      assert.equal(t.ledger.credit(1), 70_000, 'not the seat');
      // Whatever the dealer's hand, the round settles and every line pays the station that staked it.
      for (let i = 0; i < 12 && t.table.reads.view().phase === 'dealing'; i++) {
        const d = t.table.reads.station(1).decision;
        if (d) assert.equal(decide(t, 1, d.legal.includes('stand') ? 'stand' : d.default).ok, true);
        else t.table.shoe.onCard(parseCard(i === 0 ? 'KC' : '2S'));
      }
      assert.equal(t.table.reads.view().phase, 'results');
      const rec = t.ledger.rounds.recall({ station: 2, limit: 1 })[0];
      const net = (st: number) => (rec?.lines ?? []).filter((l) => l.station === st).reduce((a, l) => a + l.stake + l.net, 0);
      assert.equal(t.ledger.credit(1), 70_000 + net(1));
      assert.equal(t.ledger.credit(2), 85_000 + net(2));
      assert.ok((rec?.lines ?? []).some((l) => l.station === 2 && l.bet === 'insurance'));
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('does not play a bet behind a seat that did not bet, and tells the station why', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 2, 100_000);
      credit(t.ledger, 3, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      assert.equal(place(t, 3, 'main', 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.ledger.credit(2), 100_000, 'nothing moved');
      const s = t.hub.state('station/2');
      assert.ok(s.kind === 'station');
      assert.deepEqual(s.betting.unplayed, [{ bet: 'behind', seat: 1, amount: 10_000, min: 10_000, reason: 'behind-seat-empty' }]);
    } finally {
      t.close();
    }
  });
});

describe("a bettor behind without the credit to follow the seat's double or split (Portugal rules 28, 30; Macau Art. 20 silent, read alike)", () => {
  const stationLines = (t: TestTable, station: number) => (t.ledger.rounds.recall({ station, limit: 1 })[0]?.lines ?? []).filter((l) => l.station === station);
  const notFollowed = (t: TestTable, station: number) => {
    const s = ViewState.parse(t.hub.state(`station/${station}`));
    assert.ok(s.kind === 'station');
    return s.betting.notFollowed;
  };
  const decisionsJournalled = (t: TestTable) =>
    [...entriesOfTypes(t.ledger, ['round.decision'])].map((r) => (JSON.parse(r.body) as { payload: Record<string, unknown> }).payload);
  const total = (t: TestTable) => [1, 2, 3].reduce((a, s) => a + t.ledger.credit(s), 0);

  for (const profile of ['macau-2009', 'macau-2004'] as const) {
    it(`${profile}: the seat doubles; the poor bettor behind stays at its stake, is told, and is paid at its station; a bettor who can follows`, () => {
      const t = testTable({ game: 'blackjack', config: { profile } });
      try {
        credit(t.ledger, 1, 100_000);
        credit(t.ledger, 2, 10_000); // just its bet behind: nothing left to follow a double
        credit(t.ledger, 3, 100_000);
        burnShoeStart(t);
        assert.equal(place(t, 1, 'main', 20_000).ok, true);
        assert.equal(place(t, 2, behind(1), 10_000).ok, true);
        assert.equal(place(t, 3, behind(1), 10_000).ok, true);
        t.clock.runOut(t.table.reads.view().endsAt);
        assert.equal(t.ledger.credit(2), 0);
        t.table.shoe.onCard(parseCard('5S')); // seat 1
        t.table.shoe.onCard(parseCard('6H')); // dealer
        t.table.shoe.onCard(parseCard('6D')); // seat 1: 11
        assert.equal(decide(t, 1, 'double').ok, true, "the seated player's double is not refused for station 2's credit");
        assert.equal(t.ledger.credit(1), 60_000, 'the seat doubled its own stake');
        assert.equal(t.ledger.credit(2), 0, 'nothing more was taken from station 2');
        assert.equal(t.ledger.credit(3), 80_000, 'station 3 could cover its share and followed');
        assert.deepEqual(notFollowed(t, 2), [{ seat: 1, hand: 0, action: 'double', amount: 10_000 }]);
        assert.equal(notFollowed(t, 3), undefined);
        assert.equal(notFollowed(t, 1), undefined);
        assert.deepEqual(
          decisionsJournalled(t).map((d) => [d.action, d.notFollowing]),
          [['double', ['station:2']]],
          'journalled with the decision, for a replay',
        );
        t.table.shoe.onCard(parseCard('TC')); // seat 1: 21
        t.table.shoe.onCard(parseCard('TH')); // dealer 16
        t.table.shoe.onCard(parseCard('8S')); // dealer busts
        assert.equal(t.table.reads.view().phase, 'results');
        assert.deepEqual(notFollowed(t, 2), [{ seat: 1, hand: 0, action: 'double', amount: 10_000 }], 'still said with the results');
        assert.equal(t.ledger.credit(1), 140_000, 'seat 1 won 40 000 on 40 000');
        assert.equal(t.ledger.credit(2), 20_000, 'station 2 won 10 000 on its original 10 000');
        assert.equal(t.ledger.credit(3), 120_000, 'station 3 won 20 000 on its doubled 20 000');
        assert.deepEqual(
          stationLines(t, 2).map((l) => [l.seat, l.bet, l.stake, l.net, l.rule]),
          [[1, 'main', 10_000, 10_000, `${profile} art.10 n.4; art.20 silent, as portugal-2001 rule 30`]],
        );
        assert.deepEqual(
          stationLines(t, 3).map((l) => [l.stake, l.net, l.rule]),
          [[20_000, 20_000, `${profile} art.10 n.4`]],
        );
        // Conserved: what came in (210 000) and every line's net, nothing in play any more.
        const nets = (t.ledger.rounds.recall({ station: 1, limit: 1 })[0]?.lines ?? []).reduce((a, l) => a + l.net, 0);
        assert.equal(nets, 70_000);
        assert.equal(total(t), 210_000 + nets);
        assert.deepEqual(t.ledger.rounds.open(), []);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });
  }

  it('macau-2009: the seat splits; the poor bettor behind rides on the first hand only and loses with it though the second hand wins', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 15_000); // 5 000 left after its bet: not the 10 000 a split needs
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('8S')); // seat 1
      t.table.shoe.onCard(parseCard('9H')); // dealer
      t.table.shoe.onCard(parseCard('8D')); // seat 1: a pair of eights
      assert.equal(decide(t, 1, 'split').ok, true);
      assert.equal(t.ledger.credit(1), 60_000);
      assert.equal(t.ledger.credit(2), 5_000);
      assert.deepEqual(notFollowed(t, 2), [{ seat: 1, hand: 0, action: 'split', amount: 10_000 }]);
      t.table.shoe.onCard(parseCard('7C')); // hand 0: 15
      assert.equal(decide(t, 1, 'stand').ok, true);
      t.table.shoe.onCard(parseCard('AC')); // hand 1: 19
      assert.equal(decide(t, 1, 'stand').ok, true);
      t.table.shoe.onCard(parseCard('5C')); // dealer 14
      t.table.shoe.onCard(parseCard('4D')); // dealer 18: hand 0 loses, hand 1 wins
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 100_000, 'one hand lost, one won');
      assert.equal(t.ledger.credit(2), 5_000, 'the bet behind was decided by the first hand (rule 28): lost');
      assert.deepEqual(
        stationLines(t, 2).map((l) => [l.hand, l.stake, l.net, l.rule]),
        [[0, 10_000, -10_000, 'macau-2009 art.9; art.20 silent, as portugal-2001 rule 28']],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a restart after the double rebuilds the bets behind: the one that could not follow stays out, and every station is settled as it would have been', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      t.table.shoe.onNewShoe(); // a replay starts at the journalled shoe load
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 10_000);
      credit(t.ledger, 3, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      assert.equal(place(t, 3, behind(1), 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const c of ['5S', '6H', '6D']) t.table.shoe.onCard(parseCard(c));
      assert.equal(decide(t, 1, 'double').ok, true);
      t.stop(); // the host is killed here
    } finally {
      t.stop();
    }
    const again = testTable({ game: 'blackjack', dir: t.dir });
    try {
      assert.equal(again.table.reads.view().phase, 'dealing', 'the round goes on');
      assert.deepEqual(again.table.reads.station(2).betting.notFollowed, [{ seat: 1, hand: 0, action: 'double', amount: 10_000 }]);
      for (const c of ['TC', 'TH', '8S']) again.table.shoe.onCard(parseCard(c));
      assert.equal(again.table.reads.view().phase, 'results');
      assert.deepEqual(
        [1, 2, 3].map((s) => again.ledger.credit(s)),
        [140_000, 20_000, 120_000],
      );
      assert.deepEqual(again.ledger.rounds.open(), []);
      assert.equal(verifyLedger(again.ledger).ok, true);
    } finally {
      again.close();
    }
  });

  it("still refuses the seated player's own double when the seat's station cannot cover it", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 20_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, behind(1), 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('5S'));
      t.table.shoe.onCard(parseCard('6H'));
      t.table.shoe.onCard(parseCard('6D'));
      assert.equal(refusal(decide(t, 1, 'double')), 'over-credit');
      assert.equal(t.ledger.credit(2), 90_000, 'nothing was charged behind either');
      assert.equal(notFollowed(t, 2), undefined);
    } finally {
      t.close();
    }
  });
});

describe('bets behind at portugal-2001: each bettor chooses to follow a split or double (rules 28, 30)', () => {
  const lines = (t: TestTable, station: number) =>
    (t.ledger.rounds.recall({ station, limit: 1 })[0]?.lines ?? []).filter((l) => l.station === station).map((l) => [l.hand ?? 0, l.stake, l.net, l.rule]);
  const decisions = (t: TestTable) =>
    Array.from({ length: t.ledger.headOf().seq }, (_, i) => t.ledger.entry(i + 1))
      .filter((e) => e?.type === 'round.decision')
      .map((e) => {
        if (!e) throw new Error('unreachable');
        const p = (JSON.parse(e.body) as { payload: { station: number; action: string; auto?: boolean; notFollowing?: string[] } }).payload;
        return [p.station, p.action, p.auto ?? false, p.notFollowing ?? []];
      });

  /** Seat 1 (station 1) bets 200.00, station 2 bets 100.00 behind it; seat 1 gets 5+6 against a 6. */
  function toDouble(credit2 = 100_000): TestTable {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    t.table.shoe.onNewShoe(); // a replay starts at the journalled shoe load
    credit(t.ledger, 1, 100_000);
    credit(t.ledger, 2, credit2);
    burnShoeStart(t);
    assert.equal(place(t, 1, 'main', 20_000).ok, true);
    assert.equal(place(t, 2, behind(1), 10_000).ok, true);
    t.clock.runOut(t.table.reads.view().endsAt);
    for (const c of ['5S', '6H', '6D', 'TH']) t.table.shoe.onCard(parseCard(c)); // seat 1: 11; dealer 6 and (no peek) a hole card
    return t;
  }

  it('asks the bettor behind when the seat doubles, with what following costs; following doubles its bet and pays it doubled', () => {
    const t = toDouble();
    try {
      assert.equal(decide(t, 1, 'double').ok, true);
      assert.equal(t.ledger.credit(1), 80_000, 'the double takes effect, and is charged, once the bettors behind have answered');
      assert.equal(t.table.reads.cue()?.kind, 'decision', 'no card is called while the bettor behind is asked');
      assert.equal(t.table.reads.station(1).decision, null, 'the seat has decided');
      const asked = t.table.reads.station(2).decision;
      assert.deepEqual(asked && { legal: asked.legal, default: asked.default, cost: asked.cost, seat: asked.seat }, {
        legal: ['follow-double', 'decline-follow'],
        default: 'decline-follow',
        cost: 10_000,
        seat: 1,
      });
      assert.ok(ViewState.safeParse(t.hub.state('station/2')).success, 'the offer passes the protocol schema');
      assert.equal(decide(t, 2, 'follow-double').ok, true);
      assert.equal(t.ledger.credit(2), 80_000, 'the bettor behind pays its own share of the double');
      assert.equal(t.ledger.credit(1), 60_000);
      t.table.shoe.onCard(parseCard('TC')); // seat 1: 21
      t.table.shoe.onCard(parseCard('8S')); // dealer 16 + 8: bust
      assert.equal(t.table.reads.view().phase, 'results');
      assert.deepEqual(lines(t, 2), [[0, 20_000, 20_000, 'portugal-2001 rules 1 b), 23']], "a bet that followed is settled as the seat's own");
      assert.equal(t.ledger.credit(2), 120_000);
      assert.deepEqual(decisions(t), [
        [1, 'double', false, []],
        [2, 'follow-double', false, []],
      ]);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a bettor who answers no stays at its stake on the doubled hand and is charged nothing', () => {
    const t = toDouble();
    try {
      assert.equal(decide(t, 1, 'double').ok, true);
      assert.equal(refusal(decide(t, 1, 'follow-double')), 'no-decision', 'only the bettor behind answers');
      assert.equal(refusal(decide(t, 2, 'hit')), 'illegal-action');
      assert.equal(decide(t, 2, 'decline-follow').ok, true);
      assert.equal(t.ledger.credit(2), 90_000);
      assert.equal(t.table.reads.station(2).betting.notFollowed, undefined, 'declining is not reported as a want of credit');
      for (const c of ['TC', '8S']) t.table.shoe.onCard(parseCard(c));
      assert.deepEqual(lines(t, 2), [[0, 10_000, 10_000, 'portugal-2001 rules 1 b), 23; rule 30']]);
      assert.deepEqual(decisions(t), [
        [1, 'double', false, []],
        [2, 'decline-follow', false, ['station:2']],
      ]);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a bettor who cannot pay its share is not asked, stays out and is told why', () => {
    const t = toDouble(10_000);
    try {
      assert.equal(decide(t, 1, 'double').ok, true);
      assert.equal(t.table.reads.station(2).decision, null);
      assert.deepEqual(t.table.reads.station(2).betting.notFollowed, [{ seat: 1, hand: 0, action: 'double', amount: 10_000 }]);
      assert.equal(t.table.reads.cue()?.kind, 'card', 'the double takes effect at once');
      assert.deepEqual(decisions(t), [[1, 'double', false, ['station:2']]]);
    } finally {
      t.close();
    }
  });

  it('on a split, a bettor who lets the time run out stays on the first hand (rule 28); one who follows has a bet on each', () => {
    for (const follow of [false, true]) {
      const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
      try {
        credit(t.ledger, 1, 100_000);
        credit(t.ledger, 2, 100_000);
        burnShoeStart(t);
        assert.equal(place(t, 1, 'main', 20_000).ok, true);
        assert.equal(place(t, 2, behind(1), 10_000).ok, true);
        t.clock.runOut(t.table.reads.view().endsAt);
        for (const c of ['8S', '6H', '8D', 'TH']) t.table.shoe.onCard(parseCard(c)); // seat 1: 8-8 against a 6
        assert.equal(decide(t, 1, 'split').ok, true);
        assert.deepEqual(t.table.reads.station(2).decision?.legal, ['follow-split', 'decline-follow']);
        if (follow) assert.equal(decide(t, 2, 'follow-split').ok, true);
        else t.clock.runOut(t.table.reads.station(2).decision?.endsAt as number);
        assert.equal(t.ledger.credit(2), follow ? 80_000 : 90_000);
        t.table.shoe.onCard(parseCard('TC')); // hand 0: 18
        assert.equal(decide(t, 1, 'stand').ok, true);
        t.table.shoe.onCard(parseCard('QC')); // hand 1: 18
        assert.equal(decide(t, 1, 'stand').ok, true);
        t.table.shoe.onCard(parseCard('9S')); // dealer 16 + 9: bust
        assert.equal(t.table.reads.view().phase, 'results');
        assert.deepEqual(
          lines(t, 2),
          follow
            ? [
                [0, 10_000, 10_000, 'portugal-2001 rules 1 b), 23'],
                [1, 10_000, 10_000, 'portugal-2001 rules 1 b), 23'],
              ]
            : [[0, 10_000, 10_000, 'portugal-2001 rules 1 b), 23; rule 28']],
        );
        assert.deepEqual(decisions(t)[1], follow ? [2, 'follow-split', false, []] : [2, 'decline-follow', true, ['station:2']]);
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    }
  });

  it('a host killed while the bettor behind is asked asks it again after the restart, then finishes the round', () => {
    const t = toDouble();
    try {
      assert.equal(decide(t, 1, 'double').ok, true);
      t.stop(); // killed while station 2 is asked
    } finally {
      t.stop();
    }
    const again = testTable({ game: 'blackjack', dir: t.dir, config: t.config });
    try {
      assert.equal(again.table.reads.view().phase, 'dealing');
      assert.deepEqual(again.table.reads.station(2).decision?.legal, ['follow-double', 'decline-follow']);
      assert.equal(again.table.commands.decide(2, 'follow-double').ok, true);
      for (const c of ['TC', '8S']) again.table.shoe.onCard(parseCard(c));
      assert.equal(again.table.reads.view().phase, 'results');
      assert.deepEqual(
        [1, 2].map((s) => again.ledger.credit(s)),
        [140_000, 120_000],
      );
      assert.deepEqual(again.ledger.rounds.open(), []);
      assert.equal(verifyLedger(again.ledger).ok, true);
    } finally {
      again.close();
    }
  });
});

describe("a seat full of bettors: the refusal names what fixes the number (Art. 20 n.1 2), or the house's option)", () => {
  const cases: [string, Parameters<typeof testTable>[0], string][] = [
    [
      'macau-2009 alternative 2)',
      { game: 'blackjack', config: { profileOptions: { betBehind: 'seated-or-nearest' }, profileAuthorisation: 'DICJ-2026-7' } },
      'macau-2009 art.20 n.1 2)',
    ],
    [
      'macau-2009 alternative 3)',
      { game: 'blackjack', config: { profileOptions: { betBehind: 'highest-bet' }, profileAuthorisation: 'DICJ-2026-7' } },
      "the house's maxBettorsPerSeat=3; macau-2009 art.20 n.1 3) sets no number",
    ],
    [
      'portugal-2001 (rule 15: the table maximum only)',
      { game: 'blackjack', config: { profile: 'portugal-2001', profileOptions: { maxBettorsPerSeat: 3 } } },
      "the house's maxBettorsPerSeat=3; portugal-2001 rule 15 limits a seat only by the table maximum",
    ],
  ];
  for (const [name, options, cap] of cases) {
    it(name, () => {
      const t = testTable(options);
      try {
        for (const s of [1, 2, 3, 4]) credit(t.ledger, s, 100_000);
        assert.equal(place(t, 2, behind(1), 10_000).ok, true);
        assert.equal(place(t, 3, behind(1), 10_000).ok, true);
        const fourth = place(t, 4, behind(1), 10_000);
        assert.equal(refusal(fourth), 'behind-seat-full');
        assert.equal(fourth.ok ? '' : fourth.error.detail, `seat 1 already has 3 bettors, the most allowed (${cap})`);
      } finally {
        t.close();
      }
    });
  }
});

describe('bets behind (Art. 20 n.1 (3), authorised: the highest bet decides)', () => {
  it('gives the decision to the station behind with the highest bet, and the seat waits for it', () => {
    const t = testTable({ game: 'blackjack', config: { profileOptions: { betBehind: 'highest-bet' }, profileAuthorisation: 'DICJ-2026-7' } });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      assert.equal(place(t, 2, behind(1), 30_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('TS'));
      t.table.shoe.onCard(parseCard('7H'));
      t.table.shoe.onCard(parseCard('8D')); // seat 1: 18
      assert.equal(t.table.reads.station(1).decision, null, 'the seated player does not decide');
      assert.equal(refusal(decide(t, 1, 'stand')), 'no-decision');
      assert.ok(t.table.reads.station(2).decision?.legal.includes('stand'));
      assert.equal(decide(t, 2, 'stand').ok, true);
      t.table.shoe.onCard(parseCard('QC')); // dealer 17: stands; 18 wins
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(t.ledger.credit(2), 130_000);
      const settled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(
        settled?.decisions.map((d) => [d.seat, d.station, d.action]),
        [[1, 2, 'stand']],
        'recall names the deciding station',
      );
    } finally {
      t.close();
    }
  });

  it("refuses rule options without the regulator's authorisation reference", () => {
    const r = TableConfig.safeParse({ ...simulatedTableConfig('blackjack'), profileOptions: { betBehind: 'highest-bet' } });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), /authorisation reference/);
    // Every game's options go through the engine's guard: war's are its profile's fields.
    const war = TableConfig.safeParse({ ...simulatedTableConfig('war'), profileOptions: { x: 1 }, profileAuthorisation: 'A-1' });
    assert.match(JSON.stringify(war.error?.issues), /unknown rule option \\"x\\"/);
    assert.equal(
      TableConfig.safeParse({ ...simulatedTableConfig('war'), profileOptions: { mainBetOnTieWithTieBet: 'choose' }, profileAuthorisation: 'A-1' }).success,
      true,
    );
  });
});

describe('bets behind at a game without them', () => {
  it('refuses a bet behind at casino war and offers no behind spots', () => {
    const t = testTable({ game: 'war' });
    try {
      credit(t.ledger, 2, 100_000);
      assert.equal(refusal(place(t, 2, behind(1), 10_000)), 'behind-not-allowed');
      assert.deepEqual(
        t.table.reads.station(2).betting.spots.map((x) => x.bet),
        ['main', 'tie'],
      );
    } finally {
      t.close();
    }
  });
});
