import assert from 'node:assert/strict';
import type { CreditRule } from '../devices/credit-rule/credit-rule.js';

/** A credit rule for a test in which no note moves: a claim reaching it is a defect, and fails the test. */
export function noNoteMoves(): Pick<CreditRule, 'escrow' | 'credit' | 'returned'> {
  return {
    escrow: () => assert.fail('no note is escrowed in this test'),
    credit: () => assert.fail('no note is credited in this test'),
    returned: () => assert.fail('no note is returned in this test'),
  };
}
