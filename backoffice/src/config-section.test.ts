import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decimalToMinor, optionValue } from './config-section.js';

// The proposal form's reading of what a supervisor typed (issue 49 item 6): an amount becomes
// whole minor units by its digits, never through a float; anything else is refused, not guessed.
describe('the configuration form reads what was typed', () => {
  it('an amount of the major unit as minor units, exactly', () => {
    assert.equal(decimalToMinor('100', 2), 10_000);
    assert.equal(decimalToMinor('1234.5', 2), 123_450);
    assert.equal(decimalToMinor('0,07', 2), 7);
    // 0.1 + 0.2 in floats is 0.30000000000000004: by digits it is 30 avos.
    assert.equal(decimalToMinor('0.30', 2), 30);
    assert.equal(decimalToMinor('99999999999.99', 2), 9_999_999_999_999);
    for (const bad of ['', '0', '-5', '1.234', '1e3', '12a', '1.2.3', ' . ']) assert.equal(decimalToMinor(bad, 2), null, JSON.stringify(bad));
  });

  it("a rule option's value as true/false, a number, or its text", () => {
    assert.equal(optionValue('true'), true);
    assert.equal(optionValue(' false '), false);
    assert.equal(optionValue('400'), 400);
    assert.equal(optionValue('late'), 'late');
  });
});
