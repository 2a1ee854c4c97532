import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { baccaratRulesFromArgs, UsageError, warRulesFromArgs } from './baccarat-war-args.js';

describe("--set overrides checked by the engine's one guard", () => {
  it('refuses a bad override with a usage error naming the field', () => {
    assert.throws(
      () => baccaratRulesFromArgs('macau-commission', ['banker.commissionBasisPoints=-1']),
      (e) => e instanceof UsageError && e.message === 'banker.commissionBasisPoints must be an integer 0–10000, got -1',
    );
    assert.throws(() => baccaratRulesFromArgs('macau-commission', ['payouts.tie.win=eight']), UsageError);
    assert.throws(() => warRulesFromArgs('macau', ['tiePays=x']), { message: 'tiePays must be an integer 1–100, got "x"' });
  });

  it('the round runner exits 2 with the field on stderr', () => {
    const r = spawnSync(process.execPath, ['bin/etg.js', 'round', '--game', 'war', '--set', 'warBurns=11', '--input', '-'], {
      encoding: 'utf8',
      input: '{}',
    });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim(), 'round war: warBurns must be an integer 0–10, got 11');
  });

  it('an inherited name is not a profile: exit 2, not a crash', () => {
    const r = spawnSync(process.execPath, ['bin/etg.js', 'sim', 'baccarat', '--rules', 'toString', '--exact'], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^sim baccarat: unknown baccarat profile "toString"/);
  });

  it("--set reaches only the profile's options, never an inherited field nor a rule a line quotes", () => {
    assert.throws(() => baccaratRulesFromArgs('macau-commission', ['__proto__.toString=1']), /unknown rule option "__proto__\.toString"/);
    assert.equal(typeof Object.prototype.toString, 'function');
    assert.throws(() => baccaratRulesFromArgs('macau-commission', ['toString=1']), /unknown rule option "toString"/);
    assert.throws(() => warRulesFromArgs('macau', ['constructor=1']), /unknown rule option "constructor"/);
    // The citations are data, not options: no setting makes a line cite something else.
    assert.throws(() => baccaratRulesFromArgs('macau-commission', ['payouts.tie.rule=art.99']), /unknown rule option "payouts\.tie\.rule"/);
    assert.throws(() => warRulesFromArgs('generic', ['title=x']), /unknown rule option "title"/);
  });
});
