import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileItems } from './profile-items.js';

describe('configuration page: rule profile options with their class and articles', () => {
  it('lists every blackjack option with its class, its article (where the text has one), its default and the values of its type', () => {
    const items = profileItems('blackjack', 'macau-2009', {}, true);
    assert.ok(items.length > 40);
    const decks = items.find((i) => i.key === 'rules.decks');
    assert.deepEqual(decks, {
      key: 'rules.decks',
      value: '6',
      article: 'macau-2009 art.1 2)',
      editable: true,
      optionClass: 'choice',
      default: '6',
      values: [],
      choice: false,
    });
    const even = items.find((i) => i.key === 'rules.evenMoney');
    assert.equal(even?.optionClass, 'fixed');
    assert.equal(even?.article, 'macau-2009 art.10 n.3');
    assert.deepEqual(even?.values, ['"none"', '"vs-ace"', '"vs-ace-or-ten"']);
    // An option the 2009 text does not have cites no article.
    assert.equal(items.find((i) => i.key === 'rules.jackpot')?.article, undefined);
    assert.ok(
      items.every((i) => i.article === undefined || /^macau-2009 /.test(i.article)),
      'every article is the profile text',
    );
  });

  it("shows the table's choices: the value set, marked as chosen", () => {
    const items = profileItems('blackjack', 'macau-2009', { surrender: 'none', authorisation: 'DICJ-1' }, false);
    const s = items.find((i) => i.key === 'rules.surrender');
    assert.deepEqual([s?.value, s?.default, s?.optionClass, s?.choice, s?.editable], ['none', 'not-vs-ace', 'waivable', true, false]);
  });

  it('names the article of baccarat and war options, or none where it is not on file', () => {
    const commission = profileItems('baccarat', 'macau-commission', {}, true).find((i) => i.key === 'rules.banker.commissionBasisPoints');
    assert.deepEqual([commission?.article, commission?.optionClass], ['macau-baccarat art.18 n.1', 'fixed']);
    const war = profileItems('war', 'macau', {}, true);
    assert.deepEqual(
      war.filter((i) => i.key === 'rules.tiePays' || i.key === 'rules.mainBetOnTieWithTieBet').map((i) => [i.key, i.value, i.optionClass, i.article]),
      [
        ['rules.mainBetOnTieWithTieBet', 'returned', 'interpretation', 'macau-war [art.7] n.4 (silent on it)'],
        ['rules.tiePays', '10', 'fixed', 'macau-war [art.7] n.3'],
      ],
    );
  });

  it('says so for an unknown profile instead of throwing', () => {
    assert.match(profileItems('war', 'nowhere', {}, true)[0]?.value ?? '', /no rule profile nowhere/);
  });
});
