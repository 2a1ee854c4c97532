import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { playBaccaratRound, RoundError } from './baccarat.js';

const COMMISSION = baccaratProfile('macau-commission');
const NO_COMMISSION = baccaratProfile('macau-no-commission');

function cli(args: string[], input: unknown): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'round-'));
  const file = path.join(dir, 'round.json');
  writeFileSync(file, JSON.stringify(input));
  const r = spawnSync(process.execPath, ['bin/etg.js', 'round', '--game', 'baccarat', ...args, '--input', file], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('round runner: baccarat', () => {
  it('plays a coup, prints hands, totals and settlement lines as JSON', () => {
    const r = cli(['--rules', 'macau-no-commission', '--json'], {
      seats: [{ seat: 1, bets: { banker: 1000, tie: 100 } }],
      // P 2+3=5 draws 7 → 2; B K+6=6, player third 7 → banker draws K → 6: banker wins with 6
      cards: ['2S', 'KH', '3D', '6C', '7S', 'KD'],
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      game: 'baccarat',
      rules: 'macau-no-commission',
      hands: [
        { hand: 'player', cards: ['2S', '3D', '7S'], total: 2 },
        { hand: 'banker', cards: ['KH', '6C', 'KD'], total: 6 },
      ],
      result: { winner: 'banker', natural: false, playerPair: false, bankerPair: false },
      settlements: [
        // The no-commission alternative is a choice (Art. 19): the banker's line names it.
        { seat: 1, bet: 'banker', stake: 1000, net: 500, rule: 'macau-baccarat art.18 n.2', choices: ['banker=no-commission'] },
        { seat: 1, bet: 'tie', stake: 100, net: -100, rule: 'macau-baccarat art.13 n.1 3), art.17' },
      ],
      totals: [{ seat: 1, staked: 1100, net: 400 }],
    });
  });

  it('exits 2 with a clear message on too few cards', () => {
    const r = cli(['--rules', 'macau-commission', '--json'], { seats: [{ seat: 1, bets: { banker: 1000 } }], cards: ['2S', 'KH', '3D', '4C', '7S'] });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /too few cards: 5 given, the coup expects banker card 3 next/);
  });

  it('refuses leftover cards, bad cards, unknown bets, inventory breaks, decisions and duplicate seats', () => {
    const seats = [{ seat: 1, bets: { player: 100 } }];
    const bad: Array<[unknown, RegExp]> = [
      [{ seats, cards: ['9S', 'KH', 'KD', '4C', '7S'] }, /1 card\(s\) left over after the coup completed with 4: 7S/],
      [{ seats, cards: ['9S', 'KH', 'XD', '4C'] }, /cards\[2\]: "XD" is not a card/],
      [{ seats: [{ seat: 1, bets: { bank: 100 } }], cards: [] }, /seats\.0\.bets: Unrecognized key/],
      [{ seats: [{ seat: 1, bets: { banker: 10.5 } }], cards: [] }, /seats\.0\.bets\.banker/],
      [{ seats: [{ seat: 1, bets: { banker: 0 } }], cards: [] }, /seat 1 has no bet/],
      [{ seats: [seats[0], seats[0]], cards: [] }, /seat 1 appears twice/],
      [{ seats, cards: Array(9).fill('AS') }, /cards\[8\]: a 8-deck shoe has only 8 × AS/],
      [{ seats, cards: [], decisions: [{ seat: 1, action: 'war' }] }, /baccarat has no player decisions/],
      [{ seats: [], cards: [] }, /seats/],
    ];
    for (const [input, msg] of bad)
      assert.throws(
        () => playBaccaratRound(input, COMMISSION),
        (e: unknown) => e instanceof RoundError && msg.test(e.message),
        msg.source,
      );
  });

  it('settles several seats and bets on one coup, pairs and ties included', () => {
    // P 5-5 (0) draws 9 → 9; B 5-5 (0) draws 9 → 9: tie, both pairs
    const out = playBaccaratRound(
      {
        seats: [
          { seat: 2, bets: { banker: 400, player: 300 } },
          { seat: 5, bets: { tie: 100, playerPair: 10, bankerPair: 20 } },
        ],
        cards: ['5S', '5H', '5D', '5C', '9S', '9H'],
      },
      COMMISSION,
    );
    assert.deepEqual(out.totals, [
      { seat: 2, staked: 700, net: 0 },
      { seat: 5, staked: 130, net: 800 + 110 + 220 },
    ]);
    assert.equal(
      playBaccaratRound({ seats: [{ seat: 1, bets: { banker: 1000 } }], cards: ['2S', 'KH', '3D', '6C', '7S', 'KD'] }, NO_COMMISSION).totals[0]?.net,
      500,
    );
  });
});
