import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileItems } from './profile-items.js';

describe('configuration page: rule profile options with their articles', () => {
  it('lists every blackjack option with the article it comes from', () => {
    const items = profileItems('blackjack', 'macau-2009');
    assert.ok(items.length > 20);
    const decks = items.find((i) => i.key === 'rules.decks');
    assert.deepEqual(decks, { key: 'rules.decks', value: '6', article: 'macau-2009 art.1 n.2', editable: false });
    assert.ok(
      items.every((i) => /^macau-2009 /.test(i.article ?? '')),
      'every option names its article',
    );
  });

  it('names the rule of baccarat payouts and the regulation of war', () => {
    const banker = profileItems('baccarat', 'macau-commission').find((i) => i.key === 'rules.banker');
    assert.equal(banker?.article, 'macau-baccarat art.18 n.1');
    const war = profileItems('war', 'macau');
    assert.equal(war.find((i) => i.key === 'rules.tiePays')?.value, '10');
    assert.match(war[0]?.article ?? '', /Desafio ao Casino/);
  });

  it('says so for an unknown profile instead of throwing', () => {
    assert.match(profileItems('war', 'nowhere')[0]?.value ?? '', /no rule profile nowhere/);
  });
});
