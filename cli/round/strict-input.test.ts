// An inspector's replay must never lose a bet: a round file with a key the game does not know
// (a misspelt side bet, a field of another game, a stray top-level key) is refused, exit 2,
// naming the key — in every game, as a user runs `etg round` (issue 33 item 9).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

const dir = mkdtempSync(path.join(tmpdir(), 'round-strict-'));

type Game = 'blackjack' | 'baccarat' | 'war';

interface RoundFile {
  seats: { seat: number; bets: Record<string, number>; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** A valid round of each game (fresh each call, so a test may add to it). */
const GAMES: Record<Game, () => RoundFile> = {
  blackjack: () => ({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: ['TS', 'KH', '9D', '8C'], decisions: [{ seat: 1, hand: 0, action: 'stand' }] }),
  baccarat: () => ({ seats: [{ seat: 1, bets: { player: 1000 } }], cards: ['9S', '8H', 'KD', 'QC'] }),
  war: () => ({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: ['KS', '5H'] }),
};

function round(game: Game, input: unknown): { code: number | null; out: string; err: string } {
  const file = path.join(dir, `r${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(input));
  const r = spawnSync(
    process.execPath,
    ['bin/etg.js', 'round', '--game', game, ...(game === 'blackjack' ? ['--rules', 'macau-2009'] : []), '--input', file, '--json'],
    { encoding: 'utf8' },
  );
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The valid round with `key` added at `where` (top level, the seat, or the seat's bets). */
function withExtra(game: Game, where: 'top' | 'seat' | 'bets', key: string): RoundFile {
  const file = GAMES[game]();
  const seat = file.seats[0];
  assert.ok(seat);
  if (where === 'top') file[key] = 1;
  else if (where === 'seat') seat[key] = 1;
  else seat.bets[key] = 500;
  return file;
}

describe('etg round refuses a key it does not know, in every game', () => {
  for (const game of ['blackjack', 'baccarat', 'war'] as const) {
    it(`${game}: the valid round plays (the control)`, () => {
      const r = round(game, GAMES[game]());
      assert.equal(r.code, 0, r.err);
    });
    for (const [where, key] of [
      ['bets', 'perfectPair'],
      ['bets', 'luckySix'],
      ['seat', 'stake'],
      ['top', 'comment'],
    ] as const) {
      it(`${game}: an unknown ${where === 'top' ? 'top-level' : where === 'seat' ? 'seat' : 'bet'} key "${key}" is refused, exit 2, naming it`, () => {
        const r = round(game, withExtra(game, where, key));
        assert.equal(r.code, 2, `exit ${r.code}; stdout ${r.out}`);
        assert.equal(r.out, '', 'nothing settled is printed');
        assert.match(r.err, new RegExp(key), r.err);
      });
    }
  }
});
