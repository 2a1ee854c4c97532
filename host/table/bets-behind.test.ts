import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { simulatedTableConfig, TableConfig } from '../config/table-config.js';
import { credit, floorTable, type FloorTable } from '../testing/floor-kit.js';

const place = (t: FloorTable, station: number, bet: string, amount: number) =>
  t.host.apply(`station/${station}`, t.host.version(`station/${station}`), { name: 'place-bet', bet, amount });
const decide = (t: FloorTable, station: number, action: string) =>
  t.host.apply(`station/${station}`, t.host.version(`station/${station}`), { name: 'decide', action });
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);

/** Burns the shoe-start cards, so betting can close. */
function burnShoeStart(t: FloorTable) {
  for (let i = 0; i < 20 && t.rounds.cue()?.kind === 'card'; i++) t.rounds.onCard(parseCard('2C'));
}

describe('bets behind (Macau 2009 Art. 20, option 1: the seated player decides)', () => {
  it('offers behind spots on the other stations\' seats with limits, and refuses one\'s own seat and a fourth bettor', () => {
    const t = floorTable({ game: 'blackjack' });
    try {
      for (const s of [1, 2, 3, 4]) credit(t.ledger, s, 100_000);
      const spots = t.rounds.betting(2).spots.map((x) => x.bet);
      assert.deepEqual(spots.filter((b) => b.startsWith('behind:')), ['behind:1', 'behind:3', 'behind:4', 'behind:5', 'behind:6', 'behind:7']);
      assert.equal(refusal(place(t, 2, 'behind:2', 10_000)), 'behind-not-allowed', 'not on its own seat');
      assert.equal(place(t, 2, 'behind:1', 10_000).ok, true);
      assert.equal(place(t, 3, 'behind:1', 10_000).ok, true);
      assert.equal(refusal(place(t, 4, 'behind:1', 10_000)), 'behind-not-allowed', 'three bettors per seat at most (art.20 n.1 (2))');
      assert.equal(place(t, 2, 'behind:1', 10_000).ok, true, 'a bettor already behind may add chips');
    } finally {
      t.close();
    }
  });

  it('lets the seat decide, charges each bettor its own stake on a double, and pays each at its own station', () => {
    const t = floorTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, 'behind:1', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      assert.equal(t.rounds.view().phase, 'dealing');
      assert.equal(t.ledger.credit(2), 90_000, 'the bet behind left station 2\'s credit');
      t.rounds.onCard(parseCard('5S')); // seat 1
      t.rounds.onCard(parseCard('6H')); // dealer
      t.rounds.onCard(parseCard('6D')); // seat 1: 11
      assert.equal(t.rounds.decisionFor(2), null, 'the bettor behind does not decide');
      assert.equal(refusal(decide(t, 2, 'double')), 'no-decision');
      assert.ok(t.rounds.decisionFor(1)?.legal.includes('double'));
      assert.equal(decide(t, 1, 'double').ok, true);
      assert.equal(t.ledger.credit(1), 60_000, 'the seat doubled its own stake');
      assert.equal(t.ledger.credit(2), 80_000, 'the stake behind followed the double, charged to station 2');
      t.rounds.onCard(parseCard('TC')); // seat 1: 21
      t.rounds.onCard(parseCard('TH')); // dealer 16
      t.rounds.onCard(parseCard('8S')); // dealer busts
      assert.equal(t.rounds.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 140_000, 'seat 1 won 40 000 on 40 000');
      assert.equal(t.ledger.credit(2), 120_000, 'station 2 won 20 000 on 20 000 behind seat 1');
      const rec = t.ledger.recall({ station: 2, limit: 1 })[0];
      assert.ok(rec?.lines.every((l) => l.station === 2 ? l.seat === 1 : true));
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('asks the bettor behind for its own insurance once the seat insures, and charges and pays it there (rule 15)', () => {
    const t = floorTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 20_000).ok, true);
      assert.equal(place(t, 2, 'behind:1', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      t.rounds.onCard(parseCard('TS')); // seat 1
      t.rounds.onCard(parseCard('AH')); // dealer: an ace up, insurance is offered
      t.rounds.onCard(parseCard('9D')); // seat 1: 19
      assert.ok(t.rounds.decisionFor(1)?.legal.includes('insurance'));
      assert.equal(t.rounds.decisionFor(2), null);
      assert.equal(t.host.apply('station/1', t.host.version('station/1'), { name: 'decide', action: 'insurance', amount: 10_000 }).ok, true);
      assert.equal(t.ledger.credit(1), 70_000, 'the seat paid its own insurance');
      assert.ok(t.rounds.decisionFor(2)?.legal.includes('insurance'), 'now the bettor behind is asked');
      assert.equal(t.host.apply('station/2', t.host.version('station/2'), { name: 'decide', action: 'insurance', amount: 5_000 }).ok, true);
      assert.equal(t.ledger.credit(2), 85_000, 'the bettor behind paid its own insurance');
      assert.equal(t.ledger.credit(1), 70_000, 'not the seat');
      // Whatever the dealer's hand, the round settles and every line pays the station that staked it.
      for (let i = 0; i < 12 && t.rounds.view().phase === 'dealing'; i++) {
        const d = t.rounds.decisionFor(1);
        if (d) assert.equal(decide(t, 1, d.legal.includes('stand') ? 'stand' : d.default).ok, true);
        else t.rounds.onCard(parseCard(i === 0 ? 'KC' : '2S'));
      }
      assert.equal(t.rounds.view().phase, 'results');
      const rec = t.ledger.recall({ station: 2, limit: 1 })[0];
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
    const t = floorTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 2, 100_000);
      credit(t.ledger, 3, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 2, 'behind:1', 10_000).ok, true);
      assert.equal(place(t, 3, 'main', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      assert.equal(t.ledger.credit(2), 100_000, 'nothing moved');
      const s = t.host.state('station/2');
      assert.ok(s.kind === 'station');
      assert.deepEqual(s.betting.unplayed, [{ bet: 'behind:1', amount: 10_000, min: 10_000, reason: 'behind-seat-empty' }]);
    } finally {
      t.close();
    }
  });
});

describe('bets behind (Art. 20 n.1 (3), authorised: the highest bet decides)', () => {
  it('gives the decision to the station behind with the highest bet, and the seat waits for it', () => {
    const t = floorTable({ game: 'blackjack', config: { profileOptions: { betBehind: 'highest-bet' }, profileAuthorisation: 'DICJ-2026-7' } });
    try {
      credit(t.ledger, 1, 100_000);
      credit(t.ledger, 2, 100_000);
      burnShoeStart(t);
      assert.equal(place(t, 1, 'main', 10_000).ok, true);
      assert.equal(place(t, 2, 'behind:1', 30_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      t.rounds.onCard(parseCard('TS'));
      t.rounds.onCard(parseCard('7H'));
      t.rounds.onCard(parseCard('8D')); // seat 1: 18
      assert.equal(t.rounds.decisionFor(1), null, 'the seated player does not decide');
      assert.equal(refusal(decide(t, 1, 'stand')), 'no-decision');
      assert.ok(t.rounds.decisionFor(2)?.legal.includes('stand'));
      assert.equal(decide(t, 2, 'stand').ok, true);
      t.rounds.onCard(parseCard('QC')); // dealer 17: stands; 18 wins
      assert.equal(t.rounds.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(t.ledger.credit(2), 130_000);
      const settled = t.ledger.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(settled?.decisions.map((d) => [d.seat, d.station, d.action]), [[1, 2, 'stand']], 'recall names the deciding station');
    } finally {
      t.close();
    }
  });

  it('refuses rule options without the regulator\'s authorisation reference', () => {
    const r = TableConfig.safeParse({ ...simulatedTableConfig('blackjack'), profileOptions: { betBehind: 'highest-bet' } });
    assert.equal(r.success, false);
    assert.match(JSON.stringify(r.error?.issues), /authorisation reference/);
    const war = TableConfig.safeParse({ ...simulatedTableConfig('war'), profileOptions: { x: 1 }, profileAuthorisation: 'A-1' });
    assert.match(JSON.stringify(war.error?.issues), /blackjack profiles only/);
  });
});

describe('bets behind at a game without them', () => {
  it('refuses a bet behind at casino war and offers no behind spots', () => {
    const t = floorTable({ game: 'war' });
    try {
      credit(t.ledger, 2, 100_000);
      assert.equal(refusal(place(t, 2, 'behind:1', 10_000)), 'behind-not-allowed');
      assert.deepEqual(t.rounds.betting(2).spots.map((x) => x.bet), ['main', 'tie']);
    } finally {
      t.close();
    }
  });
});
