import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseCard, RANKS, SUITS, type Card } from '../cards/card.js';
import { bankerDraws, coupResult, CoupCompleteError, dealCard, EMPTY_COUP, handTotal, nextExpected, playCoup, type CoupCards } from './tableau.js';

const cards = (s: string): Card[] => s.split(/\s+/).filter(Boolean).map(parseCard);

/**
 * The banker's third-card chart as printed on punto-banco layouts: rows are the banker's
 * two-card total 0–7, columns the player's third card ("-" = the player stood, then 0–9).
 * D = banker draws, S = banker stands. Written out independently of the engine's `switch`.
 */
const BANKER_CHART = `
  -0123456789
0 DDDDDDDDDDD
1 DDDDDDDDDDD
2 DDDDDDDDDDD
3 DDDDDDDDDSD
4 DSSDDDDDDSS
5 DSSSSDDDDSS
6 SSSSSSSDDSS
7 SSSSSSSSSSS
`;

const CHART_ROWS = BANKER_CHART.trim()
  .split('\n')
  .slice(1)
  .map((line) => line.slice(2));

function chart(bankerTotal: number, playerThird: number | null): boolean {
  const ch = CHART_ROWS[bankerTotal]?.[playerThird === null ? 0 : playerThird + 1];
  if (ch !== 'D' && ch !== 'S') throw new Error(`no chart cell for banker ${bankerTotal}, player third ${playerThird}`);
  return ch === 'D';
}

const VALUE: Record<string, number> = { A: 1, T: 0, J: 0, Q: 0, K: 0 };
const value = (c: Card): number => VALUE[c.rank] ?? Number(c.rank);

/** An independent coup: the cards as six positions of the shoe, decided from the chart. */
function referenceCoup(shoe: Card[]): { player: Card[]; banker: Card[] } {
  const [a, b, c, d, ...rest] = shoe as [Card, Card, Card, Card, ...Card[]];
  const player = [a, c];
  const banker = [b, d];
  const pt = (value(a) + value(c)) % 10;
  const bt = (value(b) + value(d)) % 10;
  if (pt >= 8 || bt >= 8) return { player, banker };
  if (pt <= 5) {
    const p3 = rest[0] as Card;
    player.push(p3);
    if (chart(bt, value(p3))) banker.push(rest[1] as Card);
  } else if (chart(bt, null)) {
    banker.push(rest[0] as Card);
  }
  return { player, banker };
}

const cardArb = fc.record({ rank: fc.constantFrom(...RANKS), suit: fc.constantFrom(...SUITS) });

describe('baccarat tableau', () => {
  it('matches the printed banker chart in every cell', () => {
    for (let bt = 0; bt <= 7; bt++) {
      assert.equal(bankerDraws(bt, null), chart(bt, null), `banker ${bt}, player stood`);
      for (let p3 = 0; p3 <= 9; p3++) assert.equal(bankerDraws(bt, p3), chart(bt, p3), `banker ${bt}, player third ${p3}`);
    }
  });

  it('deals P1 B1 P2 B2 and then asks for the third cards the tableau wants', () => {
    // Player 2+3=5 draws; banker K+4=4 with player third 7 draws.
    const seq = cards('2S KH 3D 4C 7S 9H');
    let coup: CoupCards = EMPTY_COUP;
    const asked: string[] = [];
    for (const c of seq) {
      const e = nextExpected(coup);
      assert.ok(e);
      asked.push(`${e.to[0]}${e.position}`);
      coup = dealCard(coup, c);
    }
    assert.deepEqual(asked, ['p1', 'b1', 'p2', 'b2', 'p3', 'b3']);
    assert.equal(nextExpected(coup), null);
    const r = coupResult(coup);
    assert.equal(r.playerTotal, 2); // 2+3+7 = 12
    assert.equal(r.bankerTotal, 3); // 0+4+9 = 13
    assert.equal(r.winner, 'banker');
    assert.throws(() => dealCard(coup, parseCard('AS')), CoupCompleteError);
  });

  it('stops at four cards on a natural, whoever has it', () => {
    assert.equal(playCoup(cards('2S 9H 3D KC 5S 5H')).used, 4); // banker natural 9, player 5 does not draw
    const r = playCoup(cards('4S 2H 4D 5C')).result; // player natural 8
    assert.equal(r.natural, true);
    assert.equal(r.winner, 'player');
  });

  it('player stands on 6–7; banker then draws on 0–5 only', () => {
    const a = playCoup(cards('6S 2H KD 3C 4S'));
    assert.equal(a.used, 5); // player 6 stands, banker 5 draws
    assert.equal(a.result.bankerTotal, 9);
    assert.equal(playCoup(cards('7S 3H KD 3C')).used, 4); // banker 6 stands when the player stood
  });

  it('banker 6 draws only on a player third card of 6 or 7', () => {
    assert.equal(playCoup(cards('AS 3H 2D 3C 6S 2H')).used, 6);
    assert.equal(playCoup(cards('AS 3H 2D 3C 5S 2H')).used, 5);
  });

  it('marks pairs by rank, not by point value', () => {
    const r = playCoup(cards('KS QH KD JC 5S 5H')).result; // player K-K, banker Q-J
    assert.equal(r.playerPair, true);
    assert.equal(r.bankerPair, false);
  });

  it('exhaustively: every sequence of six point values is played as the chart-driven coup', () => {
    // One rank per point value (K for 0); 10^6 sequences cover every tableau path.
    const byValue = ['K', 'A', '2', '3', '4', '5', '6', '7', '8', '9'].map((r) => ({ rank: r, suit: 'S' }) as Card);
    const shoe: Card[] = new Array<Card>(6);
    let checked = 0;
    for (let n = 0; n < 1_000_000; n++) {
      let x = n;
      for (let i = 0; i < 6; i++) {
        shoe[i] = byValue[x % 10] as Card;
        x = Math.floor(x / 10);
      }
      const { result, used } = playCoup(shoe);
      const ref = referenceCoup(shoe);
      if (used !== ref.player.length + ref.banker.length || result.player.length !== ref.player.length) {
        assert.fail(`values ${shoe.map(value).join(' ')}: engine ${used} cards, chart ${ref.player.length}+${ref.banker.length}`);
      }
      checked++;
    }
    assert.equal(checked, 1_000_000);
  });

  it('property: the engine plays every coup exactly as the independent chart-driven coup', () => {
    fc.assert(
      fc.property(fc.array(cardArb, { minLength: 6, maxLength: 6 }), (shoe) => {
        const { result, used } = playCoup(shoe);
        const ref = referenceCoup(shoe);
        assert.deepEqual(result.player, ref.player);
        assert.deepEqual(result.banker, ref.banker);
        assert.equal(used, ref.player.length + ref.banker.length);
        assert.equal(result.playerTotal, handTotal(ref.player));
        assert.ok(used >= 4 && used <= 6, 'every coup ends with 4 to 6 cards');
      }),
      { numRuns: 3000 },
    );
  });
});
