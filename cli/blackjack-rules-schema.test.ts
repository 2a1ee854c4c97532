import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PROFILE_IDS, resolveRules } from '../engine/blackjack/rules.js';
import { blackjackOverridesSchema, blackjackRulesConfigSchema, blackjackRulesSchema } from './blackjack-rules-schema.js';

describe('zod schema of the blackjack rules', () => {
  it('accepts every profile as resolved, and refuses unknown keys and wrong types', () => {
    for (const p of PROFILE_IDS) assert.equal(blackjackRulesSchema.safeParse(resolveRules(p)).success, true, p);
    assert.equal(blackjackOverridesSchema.safeParse({ decks: 8, dealerSoft17: 'hit' }).success, true);
    assert.equal(blackjackOverridesSchema.safeParse({ decks: 9 }).success, false);
    assert.equal(blackjackOverridesSchema.safeParse({ dealerSoft17: 'sometimes' }).success, false);
    assert.equal(blackjackOverridesSchema.safeParse({ surender: 'none' }).success, false);
    assert.equal(blackjackRulesConfigSchema.safeParse({ profile: 'macau-2009', overrides: { holeCard: 'peek', dealProcedure: 'macau-3' } }).success, true);
  });
});
