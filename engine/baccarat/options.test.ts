import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../cards/card.js';
import { baccaratTableGame } from './table-game.js';
import { RuleOptionsError } from '../table/rule-options.js';
import { baccaratOptionInfos, checkBaccaratOptions, resolveBaccarat } from './options.js';

const reasons = (id: string, options: Record<string, unknown>, forTable = true) =>
  checkBaccaratOptions(id, options, forTable).map((r) => [r.option, r.reason, r.article]);

describe("the shoe's procedure as the house's authorised choices (Art. 2 n.1, Art. 3 n.1, Art. 19)", () => {
  it('the three burn formulas of Art. 2 n.1 and none (n.3) are choices that need the authorisation reference at a table', () => {
    for (const burn of ['decks', 'fixed', 'none'])
      assert.deepEqual(reasons('macau-commission', { burn }), [['burn', 'needs-authorisation', 'macau-baccarat art.19']]);
    assert.deepEqual(reasons('macau-commission', { burn: 'decks', authorisation: 'DICJ 123/2026' }), []);
    assert.deepEqual(
      reasons('macau-commission', { burn: 'all', authorisation: 'DICJ 123/2026' }).map(([o, r]) => [o, r]),
      [['burn', 'bad-type']],
    );
    // One to eight, fixed by the house: nine is not a value the text offers.
    assert.deepEqual(
      reasons('macau-commission', { burn: 'fixed', burnFixedCards: 9, authorisation: 'A' }).map(([o, r]) => [o, r]),
      [['burnFixedCards', 'bad-type']],
    );
    assert.deepEqual(reasons('macau-commission', { burn: 'fixed', burnFixedCards: 5, authorisation: 'A' }), []);
    // The fixed number under another formula would be read by none: refused.
    assert.deepEqual(reasons('macau-commission', { burnFixedCards: 5, authorisation: 'A' }), [
      ['burnFixedCards', 'inconsistent', 'macau-baccarat art.2 n.1, n.3'],
    ]);
  });

  it('Art. 3 n.1 allows the cut card coup to be the last or one more: 0 with authorisation, 2 and 3 refused', () => {
    assert.deepEqual(reasons('macau-no-commission', { coupsAfterCutCard: 0, authorisation: 'DICJ 9' }), []);
    assert.deepEqual(reasons('macau-commission', { coupsAfterCutCard: 0 }), [['coupsAfterCutCard', 'needs-authorisation', 'macau-baccarat art.19']]);
    for (const n of [2, 3])
      assert.deepEqual(reasons('macau-commission', { coupsAfterCutCard: n, authorisation: 'A' }), [
        ['coupsAfterCutCard', 'not-offered', 'macau-baccarat art.3 n.1'],
      ]);
    // The analysis profile still takes any count the schema allows.
    assert.deepEqual(reasons('generic', { coupsAfterCutCard: 3 }, false), []);
    assert.throws(() => resolveBaccarat('macau-commission', { coupsAfterCutCard: 2 }, true), RuleOptionsError);
  });

  it('each choice is listed with its article and the authorisation it needs, like blackjack’s', () => {
    const infos = Object.fromEntries(baccaratOptionInfos('macau-commission').map((i) => [i.key, i]));
    assert.equal(infos.burn?.class, 'choice');
    assert.equal(infos.burn?.article, 'macau-baccarat art.2 n.1, n.3');
    assert.deepEqual(
      infos.burn?.alternatives.map((a) => a.value),
      ['decks', 'fixed', 'none'],
    );
    assert.deepEqual(infos.burn?.authorisation, { article: 'macau-baccarat art.19' });
    assert.equal(infos.coupsAfterCutCard?.class, 'choice');
    assert.equal(infos.coupsAfterCutCard?.article, 'macau-baccarat art.3 n.1');
    assert.deepEqual(infos.burnFixedCards?.range, { min: 1, max: 8 });
  });

  it('a line dealt from a shoe under a chosen formula carries the choice and the authorisation reference', () => {
    const g = baccaratTableGame('macau-commission', { burn: 'decks', coupsAfterCutCard: 0, authorisation: 'DICJ 77/2026' });
    let shoe = g.initial();
    // As many burns as decks (8), no card turned first.
    assert.deepEqual(g.shoeCue(shoe), { kind: 'card', to: 'burn', burnsLeft: 8 });
    for (let i = 0; i < 8; i++) {
      const r = g.takeShoeCard(shoe, parseCard('2C'));
      assert.ok(r.ok);
      shoe = r.shoe;
    }
    assert.equal(g.shoeCue(shoe), null);
    let round = g.startRound(shoe, [{ seat: 1, bets: { player: 100 }, behind: [] }]);
    for (const c of ['2S', '3H', '4D', '4C'] as const) {
      const r = g.takeCard(round.shoe, round.round, parseCard(c));
      assert.ok(r.ok);
      round = { shoe: r.shoe, round: r.round };
    }
    const [line] = g.settle(round.shoe, round.round).lines;
    assert.deepEqual(
      [line?.rule, line?.choices, line?.authorisation],
      ['macau-baccarat art.13 n.1 1), art.17', ['burn=decks', 'coupsAfterCutCard=0'], 'DICJ 77/2026'],
    );
  });
});
