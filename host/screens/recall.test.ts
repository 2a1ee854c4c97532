import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoundRecord } from '../../ledger/index.js';
import { HostMessage } from '../../protocol/index.js';
import { recallRound } from './recall.js';

const record = (roundId: string): RoundRecord => ({
  roundId,
  tableId: 'T',
  game: 'blackjack',
  profile: 'macau-2009',
  status: 'settled',
  seq: 9,
  ts: '2026-11-21T10:00:00.000Z',
  tzOffsetMin: 480,
  cards: [
    { card: 'AS', to: 'seat:1:hand:0' },
    { card: '9D', to: 'seat:2:hand:0' },
    { card: '7C', to: 'dealer' },
  ],
  decisions: [],
  bets: [
    { station: 1, seat: 1, bet: 'main', amount: 1000, seq: 3 },
    { station: 2, seat: 2, bet: 'main', amount: 5000, seq: 4 },
  ],
  lines: [
    { station: 1, seat: 1, bet: 'main', stake: 1000, net: 1000, rule: 'macau-2009 art.10' },
    { station: 2, seat: 2, bet: 'main', stake: 5000, net: -5000, rule: 'macau-2009 art.10' },
  ],
  credits: [
    { station: 1, before: 10000, after: 11000 },
    { station: 2, before: 90000, after: 85000 },
  ],
  entrySeqs: [3, 4, 9],
});

describe('a station’s recall', () => {
  it('carries its own bets, lines and credit, never another station’s, and fits its message', () => {
    const mine = recallRound(record('r1'), 1);
    assert.deepEqual(mine.bets, [{ seat: 1, bet: 'main', amount: 1000 }]);
    assert.deepEqual(
      mine.lines.map((l) => l.net),
      [1000],
    );
    assert.equal(mine.creditBefore, 10000);
    assert.equal(mine.creditAfter, 11000);
    assert.ok(!JSON.stringify(mine).includes('85000') && !JSON.stringify(mine).includes('5000,'));
    // The recall goes apart from the own part (protocol 5), to the screen that asked for it.
    const message = { type: 'recall', view: 'station/1', version: 2, rounds: [mine] };
    assert.equal(HostMessage.safeParse(message).success, true);
  });
});

// A station's recall kept its first 32 bets and 64 lines of a round and dropped the rest unsaid,
// and the station's recall list shows a round's net as the sum of the lines it was sent: a
// legitimate heavy blackjack round lost money from what the player reads. Here station 1 plays
// its own seat and bets behind the six others (Macau 2009 Art. 20), each seat splits to five hands
// (procedure 3, Art. 5 n.2 3)(7)) and doubles each, the bets behind following (Art. 20): 70 bets
// (each box's initial bet, 4 splits, 5 doubles), and 77 lines (each hand's, a jackpot line each
// hand, an insurance line a box).
describe('a station’s recall of a round with more bets and lines than its message holds one by one', () => {
  const heavy = (): RoundRecord => {
    const base = record('r-heavy');
    const bets: RoundRecord['bets'] = [];
    const lines: RoundRecord['lines'] = [];
    let seq = 3;
    for (let seat = 1; seat <= 7; seat++) {
      bets.push({ station: 1, seat, bet: seat === 1 ? 'main' : 'behind', amount: 1000, seq: seq++ });
      for (let i = 0; i < 4; i++) bets.push({ station: 1, seat, bet: 'split', amount: 1000, seq: seq++ });
      for (let i = 0; i < 5; i++) bets.push({ station: 1, seat, bet: 'double', amount: 1000 + seat, seq: seq++ });
      for (let hand = 0; hand < 5; hand++) {
        const won = (seat + hand) % 3 !== 0;
        lines.push({
          station: 1,
          seat,
          bet: seat === 1 ? 'main' : 'behind',
          hand,
          stake: 2000 + seat,
          net: won ? 2000 + seat : -(2000 + seat),
          rule: won ? 'macau-2009 art.9' : 'macau-2009 art.9 n.2',
        });
        lines.push({ station: 1, seat, bet: 'jackpot', hand, stake: 100, net: hand === 4 && seat === 7 ? 50_000 : -100, rule: 'portugal-2001 rule 43' });
      }
      lines.push({ station: 1, seat, bet: 'insurance', stake: 500, net: -500, rule: 'macau-2009 art.12' });
    }
    return { ...base, bets: [...base.bets, ...bets], lines: [...base.lines, ...lines], credits: [{ station: 1, before: 500_000, after: 500_000 }] };
  };
  const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);

  it('keeps every minor unit of its bets, stakes and nets, and still fits its message', () => {
    const r = heavy();
    const own = { bets: r.bets.filter((b) => b.station === 1), lines: r.lines.filter((l) => l.station === 1) };
    assert.ok(own.bets.length > 32 && own.lines.length > 64, 'the round is over both caps');
    const mine = recallRound(r, 1);
    assert.equal(
      sum(mine.bets, (b) => b.amount),
      sum(own.bets, (b) => b.amount),
      'the bets shown sum to what was placed',
    );
    assert.equal(
      sum(mine.lines, (l) => l.net),
      sum(own.lines, (l) => l.net),
      'the lines shown sum to the round’s net',
    );
    assert.equal(
      sum(mine.lines, (l) => l.stake),
      sum(own.lines, (l) => l.stake),
      'the lines shown sum to the stakes',
    );
    // Each seat's jackpot lines kept apart from its main ones, and the jackpot won still shown.
    assert.ok(mine.lines.some((l) => l.seat === 7 && l.bet === 'jackpot' && l.net > 0));
    assert.ok(mine.bets.every((b) => b.seat >= 1 && b.seat <= 7));
    const message = { type: 'recall', view: 'station/1', version: 2, rounds: [mine] };
    assert.equal(HostMessage.safeParse(message).success, true);
  });

  it('sums each bet across the seats when each seat’s are still too many, each rule said whole or not at all', () => {
    const kinds = ['main', 'behind', 'anyPair', 'perfectPairs', 'sevens', 'over13', 'jackpot', 'insurance', 'double', 'split'] as const;
    const lines: RoundRecord['lines'] = [];
    for (let seat = 1; seat <= 7; seat++)
      for (const [k, bet] of kinds.entries())
        lines.push({
          station: 1,
          seat,
          bet,
          hand: 0,
          stake: 100 * seat + k,
          net: seat % 2 ? 300 + k : -(200 + seat),
          rule: `macau-2009 art.${seat}${k} n.${k} — a reading of seat ${seat}`,
        });
    const r = { ...record('r-wide'), lines };
    const mine = recallRound(r, 1);
    assert.ok(mine.lines.length <= 64);
    assert.equal(
      sum(mine.lines, (l) => l.net),
      sum(lines, (l) => l.net),
    );
    assert.equal(
      sum(mine.lines, (l) => l.stake),
      sum(lines, (l) => l.stake),
    );
    const whole = new Set(lines.map((l) => l.rule));
    for (const l of mine.lines) {
      assert.ok(l.rule.length <= 128);
      for (const part of l.rule.split(' · ')) assert.ok(part === '…' || whole.has(part), `a rule cut short: "${part}"`);
    }
  });

  it('sends a round within the caps line by line, as recorded', () => {
    const r = heavy();
    const small = { ...r, bets: r.bets.slice(0, 32), lines: r.lines.slice(0, 64) };
    const mine = recallRound(small, 1);
    assert.equal(mine.bets.length, small.bets.filter((b) => b.station === 1).length);
    assert.equal(mine.lines.length, small.lines.filter((l) => l.station === 1).length);
  });
});

// The last step past the caps sums a kind of bet across the seats: it was said under the first
// seat's number alone ('behind seat 2: 7,000' for the bets behind six seats), another seat's money
// shown as that seat's. Now such an entry names every seat it sums.
describe('a station’s recall summed across the seats', () => {
  const kinds = ['behind', 'double', 'split', 'insurance', 'anyPair'] as const;
  const wide = (): RoundRecord => {
    const bets: RoundRecord['bets'] = [];
    const lines: RoundRecord['lines'] = [];
    let seq = 3;
    for (let seat = 1; seat <= 7; seat++)
      for (const [k, bet] of kinds.entries()) {
        bets.push({ station: 1, seat, bet, amount: 1000 * seat + k, seq: seq++ });
        for (let n = 0; n < 2; n++)
          lines.push({ station: 1, seat, bet, hand: n, stake: 1000 * seat + k, net: seat % 2 ? 10 * seat + k : -(10 * seat + k), rule: `r${seat}${k}${n}` });
      }
    return { ...record('r-across'), bets, lines: [...lines, ...lines.map((l) => ({ ...l, hand: 2, rule: `${l.rule}x` }))] };
  };

  it('names every seat an entry sums, and each entry holds only those seats’ money', () => {
    const r = wide();
    assert.ok(r.bets.length > 32 && r.lines.length > 64);
    const mine = recallRound(r, 1);
    const seatsOf = (x: { seat: number; seats?: readonly number[] }) => x.seats ?? [x.seat];
    for (const b of mine.bets) {
      const summed = r.bets.filter((x) => seatsOf(b).includes(x.seat) && x.bet === b.bet).reduce((a, x) => a + x.amount, 0);
      assert.equal(b.amount, summed, `the ${b.bet} said of seat(s) ${seatsOf(b).join(',')} holds only theirs`);
    }
    for (const l of mine.lines) {
      const summed = r.lines.filter((x) => seatsOf(l).includes(x.seat) && x.bet === l.bet).reduce((a, x) => a + x.net, 0);
      assert.equal(l.net, summed, `the ${l.bet} line said of seat(s) ${seatsOf(l).join(',')} holds only theirs`);
    }
    assert.ok(
      mine.bets.some((b) => (b.seats?.length ?? 0) > 1),
      'summed across the seats, and said so',
    );
    const message = { type: 'recall', view: 'station/1', version: 2, rounds: [mine] };
    assert.equal(HostMessage.safeParse(message).success, true);
  });
});

// A station's recall kept a round's first 96 cards and dropped the rest unsaid: a legitimate heavy
// blackjack round (seven seats, each split to five hands and doubled: 105 cards to the seats) lost
// the dealer's cards, dealt last, so the station's recall and replay showed the dealer's hand short.
describe('a station’s recall of a round with more cards than its message holds', () => {
  it('keeps the dealer’s cards and the station’s own seats’, in the order dealt', () => {
    const cards: RoundRecord['cards'] = [{ card: '2C', to: 'burn' }];
    const faces = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
    let n = 0;
    const next = () => `${faces[n++ % faces.length]}${'SHDC'[Math.floor(n / 13) % 4]}`;
    for (let seat = 1; seat <= 7; seat++)
      for (let hand = 0; hand < 5; hand++) for (let i = 0; i < 3; i++) cards.push({ card: next(), to: `seat:${seat}:hand:${hand}` });
    const dealer = [next(), next(), next()];
    for (const card of dealer) cards.push({ card, to: 'dealer' });
    const r = { ...record('r-cards'), cards };
    assert.ok(cards.length > 96);
    const mine = recallRound(r, 1);
    assert.deepEqual(
      mine.cards.filter((c) => c.to === 'dealer').map((c) => c.card),
      dealer,
      'the dealer’s hand whole',
    );
    assert.deepEqual(
      mine.cards.filter((c) => c.to.startsWith('seat:1:')),
      cards.filter((c) => c.to.startsWith('seat:1:')),
      'the station’s own seat’s cards whole',
    );
    // Each kept card found in the record after the one before it: a subsequence, in the order dealt.
    let at = 0;
    for (const c of mine.cards) {
      while (at < cards.length && !(cards[at]?.card === c.card && cards[at]?.to === c.to)) at++;
      assert.ok(at++ < cards.length, `in the order dealt: ${c.card}→${c.to}`);
    }
    const message = { type: 'recall', view: 'station/1', version: 2, rounds: [mine] };
    assert.equal(HostMessage.safeParse(message).success, true);
  });
});

// A round's corrections past the recall's 16 were cut unsaid (service mode's page now says how
// many it leaves out): the player read a round of 20 corrected dealing errors as one of 16.
describe('a station’s recall of a round with more corrections than it carries', () => {
  it('says how many it leaves out, and fits its message', () => {
    const correction = (i: number) => ({ correction: 'undue-card', article: 'macau-2009 art.6 1)', card: '4C', confirmedBy: ['a', 'b'], seq: 10 + i });
    const many = recallRound({ ...record('r1'), corrections: Array.from({ length: 20 }, (_, i) => correction(i)) }, 1);
    assert.equal(many.corrections?.length, 16);
    assert.equal(many.correctionsOmitted, 4);
    const few = recallRound({ ...record('r2'), corrections: [correction(0)] }, 1);
    assert.equal(few.correctionsOmitted, undefined, 'nothing said of a round shown whole');
    const sent = HostMessage.safeParse({ type: 'recall', view: 'station/1', version: 1, rounds: [many, few] });
    assert.ok(sent.success, sent.error?.message);
  });
});

// Portugal's rules set no limit on splitting (engine/blackjack/option-table.ts: maxHands up to 99):
// a seat split to nine hands settles a line on hand 8, which the recall's schema refused (hand at
// most 7). StationRecallRound.parse threw, and the station's recall (its whole view with it) failed
// for as long as the round was among its last ten.
describe('a station’s recall of a seat split past eight hands', () => {
  it('is read, each hand’s line kept', () => {
    const r = record('r1');
    const lines = Array.from({ length: 10 }, (_, hand) => ({ station: 1, seat: 1, bet: 'main', hand, stake: 1000, net: 1000, rule: 'portugal-2001 rule 27' }));
    const mine = recallRound({ ...r, profile: 'portugal-2001', lines }, 1);
    assert.deepEqual(
      mine.lines.map((l) => l.hand),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.ok(HostMessage.safeParse({ type: 'recall', view: 'station/1', version: 1, rounds: [mine] }).success);
  });
});
