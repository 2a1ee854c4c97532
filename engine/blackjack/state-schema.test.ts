import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REGULATED_PROFILE_IDS } from './option-table.js';
import { resolveRules } from './rules.js';
import { RULES_SCHEMA } from './state-schema.js';

// The rules schema is built from the option table's specs (engine/blackjack/state-schema.ts): every
// profile's resolved rules, with the options a table may choose, must parse, and a value out of
// its option's type must not.
describe("blackjack's rules as a checkpoint holds them", () => {
  it("parses every regulated profile's resolved rules, and the choices a table makes", () => {
    for (const profile of REGULATED_PROFILE_IDS) assert.deepEqual(RULES_SCHEMA.parse(JSON.parse(JSON.stringify(resolveRules(profile)))), resolveRules(profile));
    const chosen = resolveRules('macau-2009', { dealProcedure: 'macau-3', holeCard: 'peek', surrender: 'none', authorisation: 'DICJ-1' });
    assert.deepEqual(RULES_SCHEMA.parse(JSON.parse(JSON.stringify(chosen))), chosen);
    const jackpot = resolveRules('portugal-2001', { jackpot: true, jackpotCards: 3, authorisation: 'X' });
    assert.deepEqual(RULES_SCHEMA.parse(JSON.parse(JSON.stringify(jackpot))), jackpot);
  });

  it('refuses a value outside its option, an option no table has and a choice of an unknown option', () => {
    const r = JSON.parse(JSON.stringify(resolveRules('macau-2009'))) as Record<string, unknown>;
    const refusedAt = (edit: (x: Record<string, unknown>) => void) => {
      const x = structuredClone(r);
      edit(x);
      const p = RULES_SCHEMA.safeParse(x);
      return p.success ? null : p.error.issues[0]?.path.join('.');
    };
    assert.equal(
      refusedAt(() => {}),
      null,
    );
    assert.equal(
      refusedAt((x) => (x.dealerSoft17 = 'always')),
      'dealerSoft17',
    );
    assert.equal(
      refusedAt((x) => (x.maxHands = 100)),
      'maxHands',
    );
    assert.equal(
      refusedAt((x) => (x.anyPair = 'yes')),
      'anyPair',
    );
    assert.equal(
      refusedAt((x) => (x.profile = 'vegas')),
      'profile',
    );
    assert.equal(
      refusedAt((x) => delete x.surrender),
      'surrender',
    );
    assert.equal(
      refusedAt((x) => (x.payAllBlackjacks = true)),
      '',
    );
    assert.equal(
      refusedAt((x) => (x.choices = { madeUp: 'x' })),
      'choices',
    );
  });
});
