import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { warProfile } from '../../engine/war/profiles.js';
import { playWarRound, RoundError } from './war.js';

const MACAU = warProfile('macau');

function cli(args: string[], input: unknown): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'round-'));
  const file = path.join(dir, 'round.json');
  writeFileSync(file, JSON.stringify(input));
  const r = spawnSync(process.execPath, ['bin/etg.js', 'round', '--game', 'war', ...args, '--input', file], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const WAR_ROUND = {
  seats: [
    { seat: 1, bets: { main: 5000 } },
    { seat: 2, bets: { main: 1000, tie: 100 } },
  ],
  cards: ['QS', 'QD', 'QH', '2C', '2D', '2H', 'KS', '3C', '3D', '3H', '4S'],
  decisions: [{ seat: 1, action: 'war' }],
};

describe('round runner: «Desafio ao Casino»', () => {
  it('plays a war with its burns and prints hands, totals and settlement lines', () => {
    const r = cli(['--rules', 'macau', '--json'], WAR_ROUND);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as ReturnType<typeof playWarRound>;
    assert.deepEqual(out.hands, [
      { seat: 1, cards: ['QS', 'KS'], decision: 'war' },
      { seat: 2, cards: ['QD'] },
    ]);
    assert.deepEqual(out.croupier, { card: 'QH', war: [{ seat: 1, card: '4S' }] });
    assert.deepEqual(out.burns, ['2C', '2D', '2H', '3C', '3D', '3H']);
    assert.deepEqual(out.settlements, [
      { seat: 1, bet: 'main', stake: 10000, net: 5000, rule: 'macau-war [art.7] n.5 al.1' },
      { seat: 2, bet: 'main', stake: 1000, net: 0, rule: 'macau-war interp:main-returned-with-tie-bet' },
      { seat: 2, bet: 'tie', stake: 100, net: 1000, rule: 'macau-war [art.7] n.3' },
    ]);
    assert.deepEqual(out.totals, [
      { seat: 1, staked: 10000, net: 5000 },
      { seat: 2, staked: 1100, net: 1000 },
    ]);
  });

  it('with --main-with-tie-bet choose, a missing decision is an error (exit 2)', () => {
    // A reading awaiting the regulator: refused without the reference of its view, then played.
    const unauthorised = cli(['--main-with-tie-bet', 'choose', '--json'], WAR_ROUND);
    assert.equal(unauthorised.status, 2);
    assert.match((JSON.parse(unauthorised.stderr) as { message: string }).message, /mainBetOnTieWithTieBet="choose" is a reading awaiting the regulator/);
    const r = cli(['--main-with-tie-bet', 'choose', '--set', 'authorisation=DICJ-W/1', '--json'], WAR_ROUND);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /seat 2 tied the croupier and must decide/);
  });

  it('refuses illegal input', () => {
    const seats = [{ seat: 1, bets: { main: 100 } }];
    const bad: Array<[unknown, RegExp]> = [
      [{ seats, cards: ['7S', '7D'] }, /seat 1 tied the croupier and must decide/],
      [
        { seats, cards: ['7S', '7D', '2C'], decisions: [{ seat: 1, action: 'war' }] },
        /too few cards: 3 given, the coup expects a burn card \(2 more before the seat 1 war card\)/,
      ],
      [{ seats, cards: ['7S', '7D', '2C', '2D', '2H', '9S', '3C', '3D', '3H'], decisions: [{ seat: 1, action: 'war' }] }, /the war card of the croupier/],
      [{ seats, cards: ['7S', '8D', '2C'] }, /1 card\(s\) left over after the coup completed with 2: 2C/],
      [{ seats, cards: ['7S', '8D'], decisions: [{ seat: 1, action: 'war' }] }, /seat 1 has no decision to make/],
      [{ seats, cards: ['7S', '7D'], decisions: [{ seat: 1, action: 'fold' }] }, /decisions\.0\.action/],
      [
        {
          seats,
          cards: ['7S', '7D'],
          decisions: [
            { seat: 1, action: 'war' },
            { seat: 1, action: 'surrender' },
          ],
        },
        /seat 1 has two decisions/,
      ],
      [{ seats: [{ seat: 1, bets: { main: 100, ante: 5 } }], cards: [] }, /Unrecognized key/],
      [{ seats: [{ seat: 1, bets: {} }], cards: ['2S', '3S'] }, /seat 1 has no bet/],
      [{ seats, cards: Array(7).fill('AS') }, /a 6-deck shoe has only 6 × AS/],
    ];
    for (const [input, msg] of bad)
      assert.throws(
        () => playWarRound(input, MACAU),
        (e: unknown) => e instanceof RoundError && msg.test(e.message),
        msg.source,
      );
  });

  it('surrender and the tie bet settle per Art. 7 n.4 al.1 and n.3', () => {
    const out = playWarRound(
      {
        seats: [
          { seat: 3, bets: { main: 1001 } },
          { seat: 4, bets: { tie: 50 } },
        ],
        cards: ['5S', '5D', '5H'],
        decisions: [{ seat: 3, action: 'surrender' }],
      },
      MACAU,
    );
    assert.deepEqual(
      out.settlements.map((l) => [l.seat, l.net, l.rule]),
      [
        [3, -500, 'macau-war [art.7] n.4 al.1'],
        [4, 500, 'macau-war [art.7] n.3'],
      ],
    );
  });
});
