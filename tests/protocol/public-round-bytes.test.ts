// The public round (every screen's round) carried every settlement line of the round, one by one:
// a line is up to 1.6 KB under its schema (a rule and an authorisation reference of 128
// characters, twelve choices of 96), and the rules allow very many lines: Portugal sets no limit
// on splitting and ten bettors a seat (rule 15), so one seat split to 99 hands with nine bettors
// behind it following is 990 lines, 1.57 MB at their largest, past MAX_HOST_MESSAGE_BYTES (every
// screen would refuse the round as oversized); an eight-deck shoe deals some 200 hands to the
// seats, over 2,000 lines, past the schema's 2,048 too. Past PUBLIC_LINES the bets behind are now
// summed (engine/table/public-lines.ts); the seats' own lines, which the table shows, stay whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publicLines, PUBLIC_LINES } from '../../engine/table/public-lines.js';
import type { ResultLineView } from '../../engine/table/views.js';
import { MAX_HOST_MESSAGE_BYTES, RoundView, utf8ByteLength } from '../../protocol/index.js';

const long = (n: number, c: string) => c.repeat(n);

/** Each seat's hands, `bettors` lines a hand (the seat's own, then those behind), every string at its longest. */
function lines(seats: number, hands: number, bettors: number): ResultLineView[] {
  const out: ResultLineView[] = [];
  for (let seat = 1; seat <= seats; seat++)
    for (let hand = 0; hand < hands; hand++)
      for (let b = 0; b < bettors; b++)
        out.push({
          seat,
          bet: b === 0 ? 'main' : 'behind',
          hand,
          stake: 1_000 + b,
          net: b % 2 ? -(1_000 + b) : 2_000 + hand,
          rule: long(128, String.fromCharCode(97 + (hand % 3))),
          choices: Array.from({ length: 12 }, () => long(96, 'c')),
          authorisation: long(128, 'a'),
          owner: b === 0 ? 'seat' : 'behind',
        });
  return out;
}

function round(seats: number, hands: number, results: ResultLineView[]) {
  return {
    roundId: long(64, 'R'),
    phase: 'results',
    endsAt: Number.MAX_SAFE_INTEGER,
    cue: null,
    hands: [
      { owner: 'dealer', cards: Array.from({ length: 24 }, () => 'QS'), total: 40 },
      ...Array.from({ length: seats * hands }, (_, i) => ({
        owner: 'seat',
        seat: 1 + Math.floor(i / hands),
        hand: i % hands,
        cards: Array.from({ length: 24 }, () => 'QS'),
        total: 40,
        soft: false,
        natural: true,
        status: long(32, 's'),
      })),
    ],
    results,
    hold: null,
  };
}

const sums = (ls: readonly ResultLineView[], owner: 'seat' | 'behind') => {
  const by = new Map<number, [number, number]>();
  for (const l of ls) if (l.owner === owner) by.set(l.seat, [(by.get(l.seat)?.[0] ?? 0) + l.stake, (by.get(l.seat)?.[1] ?? 0) + l.net]);
  return [...by].sort((a, b) => a[0] - b[0]);
};

describe('the public round of very many split hands', () => {
  for (const [seats, hands, bettors] of [
    [1, 99, 10],
    [7, 30, 10],
    // 207 hands to the seats: about all an eight-deck shoe of 416 cards deals (two cards a hand at least, the dealer's too).
    [3, 69, 10],
  ] as const) {
    it(`${seats} seat(s) of ${hands} hands, ${bettors} bettors each: one message every screen takes, the seats' own lines whole, every unit behind kept`, () => {
      const all = lines(seats, hands, bettors);
      const shown = publicLines(all);
      const r = round(seats, hands, shown);
      const parsed = RoundView.safeParse(r);
      assert.equal(
        parsed.success,
        true,
        parsed.error?.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.')}: ${i.message}`)
          .join('; '),
      );
      // The round and room for the rest of the table's snapshot (history, seats, tilts: well under 64 KiB).
      const bytes = utf8ByteLength(JSON.stringify(r));
      assert.ok(bytes < MAX_HOST_MESSAGE_BYTES - 64 * 1024, `${bytes} bytes`);
      assert.deepEqual(
        shown.filter((l) => l.owner === 'seat'),
        all.filter((l) => l.owner === 'seat'),
        "the seats' own lines as settled",
      );
      assert.deepEqual(sums(shown, 'behind'), sums(all, 'behind'), 'the bets behind: every minor unit');
    });
  }

  it('leaves a round of PUBLIC_LINES lines or fewer as settled', () => {
    const all = lines(2, 20, 10);
    assert.equal(all.length, PUBLIC_LINES);
    assert.equal(publicLines(all), all);
  });
});
