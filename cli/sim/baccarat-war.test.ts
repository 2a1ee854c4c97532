import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { exactBaccarat, fullShoeCounts } from '../../engine/baccarat/exact.js';
import { baccaratProfile } from '../../engine/baccarat/profiles.js';
import { optionsFromSets, baccaratRulesFromArgs, remainingCounts, UsageError, warRulesFromArgs } from '../baccarat-war-args.js';

function sim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'sim', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('sim baccarat / sim war', () => {
  it("baccarat --exact --json has the issue's shape and the published 8-deck figures", () => {
    const r = sim(['baccarat', '--rules', 'macau-commission', '--decks', '8', '--exact', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { probabilities: Record<string, number>; bets: Record<string, { houseEdge: number }> };
    assert.deepEqual(Object.keys(out), ['probabilities', 'bets']);
    assert.deepEqual(Object.keys(out.probabilities), ['banker', 'player', 'tie']);
    assert.deepEqual(Object.keys(out.bets), ['banker', 'player', 'tie', 'playerPair', 'bankerPair', 'lucky6']);
    assert.equal(out.bets.banker?.houseEdge.toFixed(2), '1.06');
    assert.equal(out.bets.player?.houseEdge.toFixed(2), '1.24');
    assert.equal(out.bets.tie?.houseEdge.toFixed(2), '14.36');
    // «6 Sortudo» at 12 and 20 to 1 (Art. 17 n.5): the published 16.68% at 8 decks; 6 decks as enumerated.
    assert.equal(out.bets.lucky6?.houseEdge.toFixed(4), '16.6836');
    const six = JSON.parse(sim(['baccarat', '--rules', 'macau-commission', '--decks', '6', '--exact', '--json']).stdout) as typeof out;
    assert.equal(six.bets.lucky6?.houseEdge.toFixed(4), '16.7163');
  });

  it("war --exact --json has the issue's shape; Monte Carlo on two threads reports standard errors", () => {
    const r = sim(['war', '--decks', '6', '--exact', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { probabilities: Record<string, number>; bets: Record<string, { houseEdge: number }> };
    assert.deepEqual(Object.keys(out.probabilities), ['tie']);
    assert.deepEqual(Object.keys(out.bets), ['main', 'mainSurrender', 'tie']);
    const mc = sim(['war', '--hands', '20000', '--seed', '3', '--threads', '2', '--json']);
    assert.equal(mc.status, 0, mc.stderr);
    const m = JSON.parse(mc.stdout) as { hands: number; bets: Record<string, { houseEdge: number; standardError: number }> };
    assert.equal(m.hands, 20000);
    for (const bet of ['main', 'mainSurrender', 'tie']) {
      const b = m.bets[bet];
      assert.ok(b && b.standardError > 0 && Math.abs(b.houseEdge - (out.bets[bet]?.houseEdge ?? NaN)) < 5 * b.standardError, bet);
    }
  });

  it('usage errors exit 2 with a message', () => {
    for (const args of [
      ['baccarat', '--exact', '--hands', '5'],
      ['baccarat', '--rules', 'macau', '--exact'],
      ['war', '--decks', '0', '--exact'],
      ['war', '--exact', '--set', 'tiePays=x'],
    ]) {
      const r = sim(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /^sim (baccarat|war): .+\nusage:/, args.join(' '));
    }
  });

  it('refuses an override of a fixed article with the article in the message, exit 2 (issue 15)', () => {
    for (const [args, article] of [
      [['baccarat', '--rules', 'macau-commission', '--set', 'banker.commissionBasisPoints=400', '--exact'], /fixed at 500 by macau-baccarat art\.18 n\.1/],
      [['war', '--rules', 'macau', '--set', 'tiePays=8', '--exact'], /fixed at 10 by macau-war \[art\.7\] n\.3/],
    ] as const) {
      const r = sim([...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, article, args.join(' '));
    }
  });
});

describe('--set', () => {
  it('sets the options a text leaves open, refuses what it fixes naming the article, and takes anything under generic', () => {
    assert.equal(baccaratRulesFromArgs('macau-commission', ['decks=6', 'cutCardFromEnd=14']).decks, 6);
    // Art. 18 n.1 fixes the commission at 5%: a regulated profile refuses another, naming the article.
    assert.throws(
      () => baccaratRulesFromArgs('macau-commission', ['banker.commissionBasisPoints=400']),
      /banker\.commissionBasisPoints=400 is refused: fixed at 500 by macau-baccarat art\.18 n\.1/,
    );
    assert.throws(() => baccaratRulesFromArgs('macau-no-commission', ['banker.winOnSixBasisPoints=4000']), /fixed at 5000 by macau-baccarat art\.18 n\.2/);
    assert.throws(
      () => baccaratRulesFromArgs('macau-commission', ['payouts.tie.win=9']),
      /not allowed by macau-baccarat art\.13 n\.1 3\), art\.17 \(n\.1–4 not on file: the figure Macau tables pay\); allowed: 8/,
    );
    assert.throws(() => warRulesFromArgs('macau', ['tiePays=8']), /tiePays=8 is refused: fixed at 10 by macau-war \[art\.7\] n\.3/);
    assert.throws(() => warRulesFromArgs('macau', ['warBurns=2']), /fixed at 3 by macau-war \[art\.7\] n\.5/);
    // The analysis profile takes any value, and its lines cite no article.
    const p = baccaratRulesFromArgs('generic', ['banker.commissionBasisPoints=400']);
    assert.equal(p.banker.kind === 'commission' && p.banker.commissionBasisPoints, 400);
    assert.equal(p.banker.rule, 'generic');
    assert.equal(warRulesFromArgs('generic', ['tiePays=8']).tiePays, 8);
    // A reading awaiting the regulator needs the reference of its view.
    assert.throws(() => warRulesFromArgs('macau', ['mainBetOnTieWithTieBet=choose']), /is a reading awaiting the regulator/);
    assert.equal(warRulesFromArgs('macau', ['mainBetOnTieWithTieBet=choose', 'authorisation=DICJ-W/1']).mainBetOnTieWithTieBet, 'choose');
    assert.throws(
      () => warRulesFromArgs('macau', ['mainBetOnTieWithTieBet=lost', 'authorisation=X']),
      /mainBetOnTieWithTieBet must be returned \| choose, got "lost"/,
    );
    assert.throws(() => baccaratRulesFromArgs('macau-commission', ['decks=0']), UsageError);
    assert.throws(() => optionsFromSets(['a']), /key=value/);
    assert.deepEqual(optionsFromSets(['decks=6', 'burn=none', 'authorisation=007']), { decks: 6, burn: 'none', authorisation: '007' });
  });
});

describe('--removed', () => {
  it('takes dealt cards out of the shoe for the exact calculators', () => {
    const counts = remainingCounts(1, 'AS, KH KD 5C');
    assert.deepEqual(counts, [3, 4, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 2]);
    assert.deepEqual(remainingCounts(8, ''), fullShoeCounts(8));
    assert.throws(() => remainingCounts(1, 'AS AS'), /only 1 × AS/);
    assert.throws(() => remainingCounts(1, 'ZZ'), UsageError);
    // 49 cards left, twelve ranks of 4 and one king: P(pair) = 12·4·3 / (49·48)
    const p = baccaratProfile('macau-commission');
    const fewer = exactBaccarat({ ...p, decks: 1 }, remainingCounts(1, 'KS KH KD'));
    const pPair = (12 * 4 * 3) / (49 * 48);
    assert.ok(Math.abs(fewer.bets.playerPair.houseEdge - -100 * (12 * pPair - 1)) < 1e-9);
  });
});
