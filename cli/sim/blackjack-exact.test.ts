import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import type { ExactReport } from '../blackjack-exact-report.js';

function sim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'sim', 'blackjack', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// One deck keeps the exact part quick; the checks are about the tool, the figures are tested in the engine.
// One deck is a choice Art. 1 2) offers, set with the regulator's reference (Art. 21 n.1).
const ONE_DECK = ['--rules', 'macau-2009', '--set', 'decks=1', '--set', 'cutCardFromEnd=30', '--set', 'authorisation=DICJ-TEST'];

describe('sim blackjack --exact', () => {
  it("--json: every strategy with its EV and house edge, the notes, the time, and the Monte Carlo against the simulator's strategy", () => {
    const r = sim([...ONE_DECK, '--exact', '--hands', '100000', '--seed', '5', '--workers', '1', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as ExactReport;
    assert.equal(out.profile, 'macau-2009');
    assert.equal(out.decks, 1);
    assert.deepEqual(
      out.exact.strategies.map((s) => s.strategy),
      ['total-dependent', 'composition-dependent', 'simulator-basic'],
    );
    assert.equal(out.exact.primary, 'total-dependent');
    for (const s of out.exact.strategies) assert.ok(Math.abs(s.houseEdge + 100 * s.ev) < 1e-12 && s.about.length > 0);
    assert.ok(out.exact.notes.some((n) => n.topic === 'splits' && n.treatment === 'approximate'));
    assert.ok(out.exact.notes.some((n) => n.topic === 'dealer Black Jack' && n.bound !== undefined && n.bound > 0));
    assert.ok(out.exact.seconds > 0 && out.exact.dealerPasses > 0);
    const mc = out.monteCarlo;
    assert.ok(mc);
    assert.equal(mc.hands, 100000);
    assert.equal(mc.shuffle, 'every-hand');
    const basic = out.exact.strategies.find((s) => s.strategy === 'simulator-basic');
    assert.equal(mc.exactHouseEdge, basic?.houseEdge);
    assert.ok(Math.abs(mc.differenceInStdErr - (mc.houseEdge - mc.exactHouseEdge) / mc.stdErr) < 1e-9);
    assert.ok(Math.abs(mc.differenceInStdErr) < 4, `${mc.differenceInStdErr} standard errors`);
  });

  it('--hands 0 skips the Monte Carlo; the text names the strategy and the time', () => {
    // No split at all is outside Art. 16 n.1 (four hands or more): the analysis profile plays it.
    const r = sim(['--rules', 'generic', '--set', 'decks=1', '--set', 'cutCardFromEnd=30', '--set', 'maxHands=1', '--exact', '--hands', '0']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\* total-dependent +EV [+-]\d+\.\d{4}% per unit, house edge [+-]\d+\.\d{4}%/);
    assert.match(r.stdout, /Time: \d+\.\d\d s/);
    assert.doesNotMatch(r.stdout, /Monte Carlo/);
  });

  it('--help prints the usage with --exact and exits 0', () => {
    const r = sim(['--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--exact \[--hands N/);
  });
});
