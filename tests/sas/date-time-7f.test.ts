// Long poll 0x7F: the date a host sets is checked by the calendar itself, in every year BCD can
// carry (0000–9999). Until 7 December the days of a month were read from Date.UTC, which reads the
// years 0000–0099 as 1900–1999: 29 February 0000 (a leap year, divisible by 400, in the proleptic
// Gregorian calendar) was NACKed as impossible, read as 1900's, which is not one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { respond } from '../../hardware/sas/responder.js';
import { MemoryGame } from './fixture.js';
import { appendCrc, bcd } from './host/codec.js';

const A = 5;

function set7F(game: MemoryGame, t: { year: number; month: number; day: number }): 'ack' | 'nack' {
  const poll = appendCrc([A, 0x7f, ...bcd(t.month, 1), ...bcd(t.day, 1), ...bcd(t.year, 2), ...bcd(12, 1), ...bcd(0, 1), ...bcd(0, 1)]);
  const r = respond(Uint8Array.from(poll), game);
  assert.equal(r.kind, 'send');
  assert.ok(r.kind === 'send');
  if (r.bytes.length === 1 && r.bytes[0] === A) return 'ack';
  assert.deepEqual([...r.bytes], [A | 0x80]);
  return 'nack';
}

describe('0x7F: the date by the calendar, in every year', () => {
  it('29 February is a date in the leap years and only in them, 0000–0099 included', () => {
    const leap = [0, 4, 96, 400, 2000, 2024, 2400, 9996];
    const common = [1, 99, 100, 1900, 2100, 2026, 9999];
    for (const year of leap) {
      const game = new MemoryGame();
      assert.equal(set7F(game, { year, month: 2, day: 29 }), 'ack', `29 February ${year}`);
      assert.deepEqual(game.calls.at(-1), { call: 'time', t: { year, month: 2, day: 29, hour: 12, minute: 0, second: 0 } });
    }
    for (const year of common) {
      const game = new MemoryGame();
      assert.equal(set7F(game, { year, month: 2, day: 29 }), 'nack', `29 February ${year}`);
      assert.equal(game.calls.length, 0, 'nothing set');
      assert.equal(set7F(game, { year, month: 2, day: 28 }), 'ack', `28 February ${year}`);
    }
    for (const [month, days] of [
      [1, 31],
      [4, 30],
      [12, 31],
    ] as const) {
      const game = new MemoryGame();
      assert.equal(set7F(game, { year: 0, month, day: days }), 'ack');
      assert.equal(set7F(game, { year: 0, month, day: days + 1 }), 'nack');
    }
  });
});
