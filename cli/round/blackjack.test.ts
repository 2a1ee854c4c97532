// The scripted-round and simulator command lines, run as a user runs them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

const dir = mkdtempSync(path.join(tmpdir(), 'bj-round-'));

function cli(tool: 'round' | 'sim', args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', tool, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function write(input: unknown): string {
  const file = path.join(dir, `r${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(input));
  return file;
}

function round(input: unknown, extra: string[] = []): { code: number | null; out: string; err: string } {
  return cli('round', ['--game', 'blackjack', '--rules', 'macau-2009', ...extra, '--input', write(input), '--json']);
}

describe('round --game blackjack', () => {
  it('prints hands, dealer and settlement lines as JSON', () => {
    const r = round(
      {
        seats: [{ seat: 1, bets: { main: 1000, perfectPairs: 100 } }],
        cards: ['AS', 'KH', 'AD', '9D', '5C', 'TC'],
        decisions: [{ seat: 1, hand: 0, action: 'split' }],
      },
      ['--set', 'perfectPairs=true', '--set', 'authorisation=DICJ-2026/7'],
    );
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as {
      hands: unknown[];
      dealer: unknown;
      settlements: { bet: string; net: number; rule: string; choices?: string[]; authorisation?: string }[];
    };
    assert.deepEqual(out.hands, [
      { seat: 1, hand: 0, cards: ['AS', '9D'], total: 20 },
      { seat: 1, hand: 1, cards: ['AD', '5C'], total: 16 },
    ]);
    assert.deepEqual(out.dealer, { cards: ['KH', 'TC'], total: 20 });
    assert.deepEqual(
      out.settlements.map((l) => [l.bet, l.net, l.rule]),
      [
        ['main', 0, 'macau-2009 art.11 n.1 2)'],
        ['main', -1000, 'macau-2009 art.9'],
        ['perfectPairs', 500, 'macau-2009 art.13 4), art.14 n.4'],
      ],
    );
    // The perfect-pairs line was made under the authorised choice (Art. 21 n.3): it says so; the main lines were not.
    assert.deepEqual(
      out.settlements.map((l) => [l.bet, l.choices ?? null, l.authorisation ?? null]),
      [
        ['main', null, null],
        ['main', null, null],
        ['perfectPairs', ['perfectPairs=true'], 'DICJ-2026/7'],
      ],
    );
    const refused = round({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: [] }, ['--set', 'perfectPairs=true']);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /perfectPairs=true needs the regulator's authorisation reference \(macau-2009 art\.21 n\.3\)/);
  });

  it('a double on 11 only (doubleOn=eleven) against a dealer Black Jack loses the whole doubled stake unless the house offers Art. 10 n.7', () => {
    const input = { seats: [{ seat: 1, bets: { main: 1000 } }], cards: ['6S', 'TH', '5D', '9C', 'AD'], decisions: [{ seat: 1, hand: 0, action: 'double' }] };
    type Out = { settlements: { bet: string; stake: number; net: number; rule: string }[] };
    const lines = (r: { code: number | null; out: string; err: string }) => {
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out) as Out).settlements.map((l) => [l.bet, l.stake, l.net, l.rule]);
    };
    const plain = round(input, ['--set', 'doubleOn=eleven', '--set', 'authorisation=DICJ-2026/8']);
    assert.deepEqual(lines(plain), [['main', 2000, -2000, 'macau-2009 art.12 n.2']]);
    const offered = round(input, ['--set', 'doubleOn=eleven', '--set', 'elevenDoubleOriginalOnly=true', '--set', 'authorisation=DICJ-2026/8']);
    assert.deepEqual(lines(offered), [['main', 2000, -1000, 'macau-2009 art.10 n.7']]);
    const anyTwo = round(input);
    assert.deepEqual(lines(anyTwo), [['main', 2000, -1000, 'macau-2009 art.17 n.3']]);
  });

  it('replays a Portugal jackpot round from the program and the pools in the round file (rules 40-44, 50), fractions carried in included', () => {
    const portugal = ['--set', 'jackpot=true', '--set', 'jackpotCards=3', '--set', 'authorisation=TEST-IGJ'];
    const program = {
      reference: 'TEST-IGJ-2026/1',
      stake: 100,
      incrementBasisPoints: 1_111,
      levels: [
        { level: 'main', start: 1_000_000, reset: 1_000_000, share: 7_000 },
        { level: 'minor', start: 1_000_000, reset: 1_000_000, share: 3_000 },
      ],
      awards: [
        { combination: 'four-aces-suited', level: 'main', pays: 'pool' },
        { combination: 'suited-blackjack', level: 'minor', pays: { fixed: 2_500 } },
      ],
    };
    // A suited Black Jack (AS KS) against a 9: the main bet is paid 3:2, the chip's fixed award from `minor`.
    const input = { seats: [{ seat: 1, bets: { main: 10_000, jackpot: 100 } }], cards: ['AS', '9H', 'KS', '7D'] };
    const run = (jackpot: unknown) =>
      spawnSync(
        process.execPath,
        ['bin/etg.js', 'round', '--game', 'blackjack', '--rules', 'portugal-2001', ...portugal, '--input', write({ ...input, jackpot }), '--json'],
        {
          encoding: 'utf8',
        },
      );
    const out = run({ program, pools: { main: 1_234_567, minor: 1_000_003 }, carry: { main: 50_000_000, minor: 90_000_000 } });
    assert.equal(out.status, 0, out.stderr);
    const r = JSON.parse(out.stdout) as {
      settlements: { bet: string; stake: number; net: number; rule: string }[];
      jackpot: { moves: { level: string; before: number; contribution: number; award: number; seed: number; after: number }[]; carry?: Record<string, number> };
    };
    assert.deepEqual(
      r.settlements.map((l) => [l.bet, l.stake, l.net, l.rule]),
      [
        ['main', 10_000, 15_000, 'portugal-2001 rule 21'],
        ['jackpot', 100, 2_400, 'portugal-2001 rules 42-43'],
      ],
    );
    // 100 × 11.11% = 11.11 units: 7.777 to main and 3.333 to minor, plus the fractions carried in (0.5 and 0.9).
    assert.deepEqual(
      r.jackpot.moves.map((m) => [m.level, m.before, m.contribution, m.award, m.seed, m.after]),
      [
        ['main', 1_234_567, 8, 0, 0, 1_234_575],
        ['minor', 1_000_003, 4, 2_500, 2_493, 1_000_000],
      ],
    );
    assert.deepEqual(r.jackpot.carry, { main: 27_700_000, minor: 23_300_000 });
    // Without the program and pools the dispute tool cannot settle the chip, and says what is missing.
    const none = run(undefined);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /jackpot/);
    // A program the rules refuse is named as such (rule 44: a start below 10,000 chips).
    const low = run({
      program: { ...program, levels: [{ level: 'main', start: 10, reset: 1_000_000, share: 10_000 }], awards: [program.awards[0]] },
      pools: { main: 10 },
    });
    assert.equal(low.status, 2);
    assert.match(low.stderr, /rule 44/);
    // Pools for a level the program does not have, or none for one it has, are refused.
    const wrong = run({ program, pools: { main: 1_000_000 } });
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /minor/);
  });

  it('exits 2 with a message on an illegal decision, left-over cards or a bad option (as JSON, as --json asks)', () => {
    /** The one JSON line a refusal prints on stderr under --json. */
    const refusal = (r: { err: string }) => JSON.parse(r.err) as { error: string; message: string };
    const illegal = round({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: ['TS', '9H', '8D', '8C'], decisions: [{ seat: 1, hand: 0, action: 'split' }] });
    assert.equal(illegal.code, 2);
    assert.equal(refusal(illegal).error, 'usage');
    assert.match(refusal(illegal).message, /"split" is not legal for seat 1 hand 0/);
    const left = round({
      seats: [{ seat: 1, bets: { main: 1000 } }],
      cards: ['TS', '9H', '8D', '8C', '2C'],
      decisions: [{ seat: 1, hand: 0, action: 'stand' }],
    });
    assert.equal(left.code, 2);
    assert.match(refusal(left).message, /left over/);
    const bad = round({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: [] }, ['--set', 'decks=12']);
    assert.equal(bad.code, 2);
    assert.match(refusal(bad).message, /decks must be/);
    // Overrides of a fixed article are refused with the article (issue 15's inspector's examples).
    for (const [set, article] of [
      ['surrender=late', /surrender="late" is not allowed by macau-2009 art\.18 n\.1/],
      ['evenMoney=none', /fixed at "vs-ace-or-ten" by macau-2009 art\.10 n\.3/],
      ['fiveCardHalfPay=false', /fixed at true by macau-2009 art\.19/],
    ] as const) {
      const r = round({ seats: [{ seat: 1, bets: { main: 1000 } }], cards: [] }, ['--set', set, '--set', 'authorisation=DICJ-1']);
      assert.equal(r.code, 2, set);
      assert.match(refusal(r).message, article);
    }
    const shape = round({ seats: 'x', cards: [] });
    assert.equal(shape.code, 2);
  });
});

describe('sim blackjack', () => {
  it('refuses an override of a fixed article with the article in the message, exit 2, as round does (issue 15)', () => {
    for (const [set, article] of [
      ['surrender=late', /macau-2009 art\.18 n\.1/],
      ['evenMoney=none', /fixed at "vs-ace-or-ten" by macau-2009 art\.10 n\.3/],
      ['fiveCardHalfPay=false', /fixed at true by macau-2009 art\.19/],
    ] as const) {
      const r = cli('sim', ['blackjack', '--rules', 'macau-2009', '--set', set, '--set', 'authorisation=DICJ-1', '--print-rules', '--json']);
      assert.equal(r.code, 2, set);
      assert.match((JSON.parse(r.err) as { message: string }).message, article, set);
    }
  });

  it('prints the resolved rules with their articles', () => {
    const r = cli('sim', ['blackjack', '--rules', 'portugal-2001', '--set', 'decks=4', '--print-rules', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { profile: string; rules: Record<string, { value: unknown; article: string; class: string; default?: unknown }> };
    assert.equal(out.profile, 'portugal-2001');
    assert.deepEqual(out.rules.decks, { value: 4, article: 'portugal-2001 rule 3', class: 'choice', default: 6 });
    assert.deepEqual(out.rules.minStandTotal, { value: 12, article: 'portugal-2001 rule 18: may stand only above 11', class: 'fixed' });
    // Art. 1 lists the material in items 1)–5): the decks are item 2), not a numbered paragraph.
    const m9 = JSON.parse(cli('sim', ['blackjack', '--rules', 'macau-2009', '--print-rules', '--json']).out) as typeof out;
    assert.deepEqual(m9.rules.decks, { value: 6, article: 'macau-2009 art.1 2)', class: 'choice' });
    assert.deepEqual(m9.rules.evenMoney, { value: 'vs-ace-or-ten', article: 'macau-2009 art.10 n.3', class: 'fixed' });
    assert.equal(m9.rules.surrender?.class, 'waivable');
    assert.equal(m9.rules.dealerSoft17?.class, 'interpretation');
  });

  it('simulates with workers and gives the same figures whatever their number', () => {
    const args = ['blackjack', '--rules', 'macau-2009', '--hands', '300000', '--seed', '3', '--shuffle', 'every-hand', '--json'];
    const one = cli('sim', [...args, '--workers', '1']);
    const two = cli('sim', [...args, '--workers', '2']);
    assert.equal(one.code, 0, one.err);
    assert.equal(two.code, 0, two.err);
    const a = JSON.parse(one.out) as {
      houseEdge: number;
      stdErr: number;
      hands: number;
      sideBets: Record<string, { houseEdge: number }>;
      handsPerSecond: number;
    };
    const b = JSON.parse(two.out) as typeof a;
    assert.equal(a.hands, 300000);
    assert.equal(a.houseEdge, b.houseEdge);
    assert.deepEqual(Object.keys(a.sideBets), ['anyPair', 'sevens', 'over13', 'under13']);
    assert.ok(a.handsPerSecond > 0);
  });

  it('blackjack-sidebets --exact prints the exact first-two-card edges', () => {
    const r = cli('sim', ['blackjack-sidebets', '--decks', '6', '--exact', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as { bets: Record<string, { houseEdge: number }> };
    // 6 decks: a same-rank second card is 23 of 311; any pair pays 11:1.
    assert.ok(Math.abs(out.bets.anyPair!.houseEdge - (1 - (12 * 23) / 311) * 100) < 1e-9);
    assert.deepEqual(Object.keys(out.bets).sort(), ['anyPair', 'anyPairOtherSeat', 'over13', 'perfectPairs', 'sevens', 'sevensNoSplit', 'under13']);
    assert.equal(out.bets.anyPairOtherSeat!.houseEdge, out.bets.anyPair!.houseEdge, "another seat's hand off a full shoe: the same edge");
  });

  it('blackjack-sidebets --streak-rounds gives the streak levels from the rounds won and lost, beside the simulator', () => {
    const r = cli('sim', ['blackjack-sidebets', '--decks', '6', '--exact', '--streak-rounds', '200000', '--seed', '3', '--json']);
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out) as {
      streak: {
        round: { won: number; tied: number; lost: number };
        levels: { level: number; won: number; houseEdge: number; standardError: number; simulated: { houseEdge: number; stdErr: number } }[];
      };
    };
    const { round, levels } = out.streak;
    assert.ok(Math.abs(round.won + round.tied + round.lost - 1) < 1e-9);
    const share = round.won / (round.won + round.lost);
    for (const l of levels) {
      assert.ok(Math.abs(l.won - share ** l.level) < 1e-12, `level ${l.level}`);
      // The formula and the simulator's own count of the same rounds agree within their errors.
      assert.ok(Math.abs(l.houseEdge - l.simulated.houseEdge) < 4 * Math.hypot(l.standardError, l.simulated.stdErr), `level ${l.level}`);
    }
  });
});
