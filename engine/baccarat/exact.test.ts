import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RANKS, type Card } from '../cards/card.js';
import { baccaratProfile } from './profiles.js';
import { enumerateCoups, exactBaccarat, fullShoeCounts, pairProbability } from './exact.js';
import { simulateBaccarat, summariseBaccarat } from './simulate.js';
import { playCoup } from './tableau.js';

const COMMISSION = baccaratProfile('macau-commission');
const NO_COMMISSION = baccaratProfile('macau-no-commission');
const round2 = (x: number): number => Math.round(x * 100) / 100;

describe('baccarat exact calculator', () => {
  it('reproduces the published 8-deck combination counts', () => {
    // Published counts of the 4,998,398,275,503,360 ordered 6-card sequences of an 8-deck shoe
    // (Wizard of Odds, "Baccarat" analysis): banker, player, tie.
    const k = enumerateCoups(fullShoeCounts(8));
    assert.equal(k.total, 4_998_398_275_503_360);
    assert.equal(k.bankerWinsOnSix + k.bankerWinsOther, 2_292_252_566_437_888);
    assert.equal(k.playerWins, 2_230_518_282_592_256);
    assert.equal(k.ties, 475_627_426_473_216);
  });

  it('gives the published 8-deck edges: banker 1.06%, player 1.24%, tie 14.36%, pairs 10.36%, no-commission banker 1.46%', () => {
    const e = exactBaccarat(COMMISSION);
    assert.equal(round2(e.bets.banker.houseEdge), 1.06);
    assert.equal(round2(e.bets.player.houseEdge), 1.24);
    assert.equal(round2(e.bets.tie.houseEdge), 14.36);
    assert.equal(round2(e.bets.playerPair.houseEdge), 10.36);
    assert.equal(round2(e.bets.bankerPair.houseEdge), 10.36);
    assert.equal(round2(exactBaccarat(NO_COMMISSION).bets.banker.houseEdge), 1.46);
    const p = e.probabilities;
    assert.ok(Math.abs(p.banker + p.player + p.tie - 1) < 1e-12);
  });

  it('«6 Sortudo» (Lucky 6): the published 8-deck counts of a banker win on 6 with two and three cards, and its exact edge at 12 and 20 to 1 (Art. 17 n.5)', () => {
    // Published counts (Wizard of Odds, "Lucky 6", Macau pay table 12 and 20 to 1: house edge 16.6836%).
    const k = enumerateCoups(fullShoeCounts(8));
    assert.equal(k.bankerWinsOnSixTwoCards, 186_173_936_904_192);
    assert.equal(k.bankerWinsOnSixThreeCards, 83_058_367_551_488);
    assert.equal(k.bankerWinsOnSixTwoCards + k.bankerWinsOnSixThreeCards, k.bankerWinsOnSix);
    const edge8 = exactBaccarat(COMMISSION).bets.lucky6.houseEdge;
    assert.equal(Math.round(edge8 * 10_000) / 10_000, 16.6836);
    // The same from the counts, written out: 12 × P(two) + 20 × P(three) − P(neither).
    const t = k.total;
    assert.ok(Math.abs(edge8 - -100 * ((12 * k.bankerWinsOnSixTwoCards + 20 * k.bankerWinsOnSixThreeCards - (t - k.bankerWinsOnSix)) / t)) < 1e-9);
    // Six decks: the figure of the same enumeration (checked by brute force below; no published count found).
    const edge6 = exactBaccarat({ ...COMMISSION, decks: 6 }).bets.lucky6.houseEdge;
    assert.equal(Math.round(edge6 * 10_000) / 10_000, 16.7163);
  });

  it('agrees with brute force over every ordered draw of a small shoe', () => {
    // 11 cards: every ordered 6-card sequence is played through the tableau itself.
    const shoe: Card[] = ['A', '2', '3', '3', '5', '6', '7', '8', '9', 'T', 'K'].map((rank) => ({ rank, suit: 'S' }) as Card);
    const counts = RANKS.map((r) => shoe.filter((c) => c.rank === r).length);
    const tally = { banker: 0, player: 0, tie: 0, six: 0, sixThree: 0, total: 0, pair: 0, pairTotal: 0 };
    const n = shoe.length;
    const idx: number[] = [];
    const walk = (): void => {
      if (idx.length === 6) {
        const r = playCoup(idx.map((i) => shoe[i] as Card)).result;
        tally.total++;
        tally[r.winner]++;
        if (r.winner === 'banker' && r.bankerTotal === 6) tally.six++;
        if (r.winner === 'banker' && r.bankerTotal === 6 && r.banker.length === 3) tally.sixThree++;
        if (r.playerPair) tally.pair++;
        return;
      }
      for (let i = 0; i < n; i++) {
        if (idx.includes(i)) continue;
        idx.push(i);
        walk();
        idx.pop();
      }
    };
    walk();
    const k = enumerateCoups(counts);
    assert.equal(k.total, tally.total);
    assert.equal(k.playerWins, tally.player);
    assert.equal(k.ties, tally.tie);
    assert.equal(k.bankerWinsOnSix, tally.six);
    assert.equal(k.bankerWinsOnSixThreeCards, tally.sixThree);
    assert.equal(k.bankerWinsOnSixTwoCards, tally.six - tally.sixThree);
    assert.equal(k.bankerWinsOther + k.bankerWinsOnSix, tally.banker);
    assert.ok(Math.abs(pairProbability(counts) - tally.pair / tally.total) < 1e-12);
  });

  it('Monte Carlo agrees with the exact figures within 4 standard errors', () => {
    for (const profile of [COMMISSION, NO_COMMISSION]) {
      const exact = exactBaccarat(profile);
      const sim = summariseBaccarat(simulateBaccarat(profile, 150_000, 7));
      for (const [bet, { houseEdge, standardError }] of Object.entries(sim.bets)) {
        const want = exact.bets[bet as keyof typeof exact.bets].houseEdge;
        assert.ok(Math.abs(houseEdge - want) < 4 * standardError, `${profile.id} ${bet}: ${houseEdge} vs ${want} ± ${standardError}`);
      }
    }
  });
});
