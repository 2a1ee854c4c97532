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
  return { code: r.status, out: r.stdout, err: message(r.stderr) };
}

/** The refusal's message: --json prints it as {"error", "message"}, anything else as it came. */
function message(stderr: string): string {
  try {
    const parsed: unknown = JSON.parse(stderr);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text as printed
  }
  return stderr;
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
      it(`${game}: an unknown ${where === 'top' ? 'top-level' : where === 'seat' ? 'seat' : 'bet'} key "${key}" is refused, exit 2, naming it and where it is`, () => {
        const r = round(game, withExtra(game, where, key));
        assert.equal(r.code, 2, `exit ${r.code}; stdout ${r.out}`);
        assert.equal(r.out, '', 'nothing settled is printed');
        assert.match(r.err, new RegExp(`${WHERE[where]}: Unrecognized key: "${key}"`), r.err);
      });
    }
  }
});

/** How the refusal names the place of each extra key (the zod path, `input` for the top level). */
const WHERE = { top: '(?:^|[ .])input', seat: 'seats\\.0', bets: 'seats\\.0\\.bets' } as const;

describe('etg round refuses a key it does not know deeper in the file', () => {
  const deeper: { game: Game; what: string; file: () => unknown; where: string; key: string }[] = [
    {
      game: 'blackjack',
      what: 'a decision',
      file: () => ({ ...GAMES.blackjack(), decisions: [{ seat: 1, hand: 0, action: 'stand', stake: 500 }] }),
      where: 'decisions\\.0',
      key: 'stake',
    },
    {
      game: 'blackjack',
      what: 'a bet behind',
      file: () => ({ ...GAMES.blackjack(), seats: [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'B', main: 100, perfectPair: 50 }] }] }),
      where: 'seats\\.0\\.behind\\.0',
      key: 'perfectPair',
    },
    {
      game: 'blackjack',
      what: 'a winning-streak level',
      file: () => ({ ...GAMES.blackjack(), seats: [{ seat: 1, bets: { main: 1000, streak: { 2: 100, 9: 100 } } }] }),
      where: 'seats\\.0\\.bets\\.streak',
      key: '9',
    },
    {
      game: 'war',
      what: 'a decision',
      file: () => ({
        seats: [{ seat: 1, bets: { main: 1000 } }],
        cards: ['7S', '7D', '2C', '2D', '2H', 'KS', '3C', '3D', '3H', '5H'],
        decisions: [{ seat: 1, action: 'war', raise: 1000 }],
      }),
      where: 'decisions\\.0',
      key: 'raise',
    },
  ];
  for (const d of deeper) {
    it(`${d.game}: an unknown key "${d.key}" in ${d.what} is refused, exit 2, naming it and where it is`, () => {
      const r = round(d.game, d.file());
      assert.equal(r.code, 2, `exit ${r.code}; stdout ${r.out}`);
      assert.equal(r.out, '', 'nothing settled is printed');
      assert.match(r.err, new RegExp(`${d.where}: Unrecognized key: "${d.key}"`), r.err);
    });
  }
  it('war: the same decision without the extra key plays (the control for the decision case)', () => {
    const r = round('war', {
      seats: [{ seat: 1, bets: { main: 1000 } }],
      cards: ['7S', '7D', '2C', '2D', '2H', 'KS', '3C', '3D', '3H', '5H'],
      decisions: [{ seat: 1, action: 'war' }],
    });
    assert.equal(r.code, 0, r.err);
  });
  it('blackjack: a bet behind and a streak bet without extra keys play (the control for those cases)', () => {
    const r = round('blackjack', { ...GAMES.blackjack(), seats: [{ seat: 1, bets: { main: 1000 }, behind: [{ owner: 'B', main: 100 }] }] });
    assert.equal(r.code, 0, r.err);
  });
});
