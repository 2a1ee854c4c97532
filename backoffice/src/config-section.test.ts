import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decimalToMinor, optionValue, profileChoices, proposalOf, stateKey } from './config-section.js';

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

  it('a rule profile by its code, with the authorisation reference; anything else is no proposal', () => {
    const fields = {
      key: 'profile',
      min: '',
      max: '',
      option: '',
      value: '',
      profile: ' macau-2004 ',
      creditLimit: '',
      authorisation: ' DICJ-2026/70 ',
      note: 'n',
    };
    assert.deepEqual(proposalOf(fields, 2), { key: 'profile', after: 'macau-2004', authorisation: 'DICJ-2026/70', note: 'n' });
    for (const profile of ['', 'Macau 2004', 'macau_2004', '2004', 'macau-2004; drop']) assert.equal(proposalOf({ ...fields, profile }, 2), null, profile);
    assert.equal(proposalOf({ ...fields, authorisation: '  ' }, 2), null);
    // The limits and a rule option as before.
    assert.deepEqual(proposalOf({ ...fields, key: 'limits', min: '200', max: '10000.5' }, 2), {
      key: 'limits',
      after: { min: 20_000, max: 1_000_050 },
      authorisation: 'DICJ-2026/70',
      note: 'n',
    });
    assert.equal(proposalOf({ ...fields, key: 'limits', min: '500', max: '100' }, 2), null);
    assert.deepEqual(proposalOf({ ...fields, key: 'profileOptions', option: 'surrender', value: 'late' }, 2)?.after, { surrender: 'late' });
  });

  it('a station credit limit in the major unit as minor units, whole and positive, up to what SAS 0x1A can say; anything else is no proposal', () => {
    const fields = {
      key: 'creditLimit',
      min: '',
      max: '',
      option: '',
      value: '',
      profile: '',
      creditLimit: '5000.50',
      authorisation: 'DICJ-2026/CL',
      note: '',
    };
    assert.deepEqual(proposalOf(fields, 2), { key: 'creditLimit', after: 500_050, authorisation: 'DICJ-2026/CL', note: '' });
    assert.deepEqual(proposalOf({ ...fields, creditLimit: '999999.99' }, 2)?.after, 99_999_999);
    for (const creditLimit of ['', '0', '-1', '1000000', '12.345', 'lots', '1e6']) assert.equal(proposalOf({ ...fields, creditLimit }, 2), null, creditLimit);
    assert.equal(proposalOf({ ...fields, authorisation: '' }, 2), null);
  });

  it("offers the profiles of the table's own game only, not the one it plays, and none when the table has not said", () => {
    const blackjack = { profile: 'macau-2009', profiles: ['macau-2009', 'macau-2004', 'portugal-2001'] };
    assert.deepEqual(profileChoices(blackjack), ['macau-2004', 'portugal-2001']);
    assert.deepEqual(profileChoices({ profile: 'macau-commission', profiles: ['macau-commission', 'macau-no-commission'] }), ['macau-no-commission']);
    // No heartbeat, or a build that does not say its game's profiles: no profile change offered.
    assert.deepEqual(profileChoices(null), []);
    assert.deepEqual(profileChoices({ profile: 'macau-2009' }), []);
    // A name that is no profile's code is not offered (the heartbeat is the table's word, checked).
    assert.deepEqual(profileChoices({ profiles: ['macau-2004', 'x" onclick="', 'macau-2004'] }), ['macau-2004']);
  });

  it("says a credit limit delivered is being made, not waiting for a shoe (the table makes it as it arrives); every other key's words as its state's", () => {
    assert.equal(stateKey({ key: 'creditLimit', state: 'delivered' }), 'backoffice.config.state.deliveredAtOnce');
    assert.equal(stateKey({ key: 'limits', state: 'delivered' }), 'backoffice.config.state.delivered');
    for (const state of ['proposed', 'approved', 'applied', 'refused', 'withdrawn'] as const)
      assert.equal(stateKey({ key: 'creditLimit', state }), `backoffice.config.state.${state}`);
  });
});
