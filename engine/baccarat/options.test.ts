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

  it('Art. 1 1): six to twelve decks at a table, set by the house without authorisation; fewer or more refused naming the article', () => {
    for (const decks of [6, 7, 12]) {
      assert.deepEqual(reasons('macau-commission', { decks }), [], `${decks}`);
      assert.deepEqual(reasons('macau-no-commission', { decks, authorisation: 'DICJ 2/2026' }), [], `${decks}`);
    }
    for (const decks of [1, 4, 5, 13, 16]) {
      const r = checkBaccaratOptions('macau-commission', { decks, authorisation: 'DICJ 1/2026' }, true);
      assert.deepEqual(
        r.map((x) => [x.option, x.reason, x.article, x.allowed]),
        [['decks', 'out-of-range', 'macau-baccarat art.1 1)', '6–12']],
        `${decks}`,
      );
    }
    assert.throws(() => baccaratTableGame('macau-commission', { decks: 4 }), /decks=4 is out of the range set by macau-baccarat art\.1 1\); allowed: 6–12/);
    assert.equal(baccaratTableGame('macau-commission', { decks: 6 }).profile, 'macau-commission');
    // The analysis profile keeps any count its schema allows (a one-deck enumeration).
    assert.deepEqual(reasons('generic', { decks: 1 }, false), []);
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
    let shoe = g.shoe.initial();
    // As many burns as decks (8), no card turned first.
    assert.deepEqual(g.shoe.shoeCue(shoe), { kind: 'card', to: 'burn', burnsLeft: 8 });
    for (let i = 0; i < 8; i++) {
      const r = g.shoe.takeShoeCard(shoe, parseCard('2C'));
      assert.ok(r.ok);
      shoe = r.shoe;
    }
    assert.equal(g.shoe.shoeCue(shoe), null);
    let round = g.round.startRound(shoe, [{ seat: 1, bets: { player: 100 }, behind: [] }]);
    for (const c of ['2S', '3H', '4D', '4C'] as const) {
      const r = g.round.takeCard(round.shoe, round.round, parseCard(c));
      assert.ok(r.ok);
      round = { shoe: r.shoe, round: r.round };
    }
    const [line] = g.round.settle(round.shoe, round.round).lines;
    assert.deepEqual(
      [line?.rule, line?.choices, line?.authorisation],
      ['macau-baccarat art.13 n.1 1), art.17', ['burn=decks', 'coupsAfterCutCard=0'], 'DICJ 77/2026'],
    );
  });
});

describe('«6 Sortudo» (Lucky 6) where the table offers it (Art. 13 n.1 4)(3), Art. 17 n.5)', () => {
  it('is off by default; a table offers it only with the reference of the DICJ’s authorisation', () => {
    assert.deepEqual(reasons('macau-commission', { lucky6: true }), [['lucky6', 'needs-authorisation', null]]);
    assert.deepEqual(reasons('macau-commission', { lucky6: true, authorisation: 'DICJ 56/2018 authorisation 12' }), []);
    assert.deepEqual(
      reasons('macau-commission', { lucky6: 'yes', authorisation: 'A' }).map(([o, r]) => [o, r]),
      [['lucky6', 'bad-type']],
    );
    // Its figures are the text's: refused with the article.
    assert.deepEqual(reasons('macau-commission', { 'payouts.lucky6Three.win': 23, authorisation: 'A' }), [
      ['payouts.lucky6Three.win', 'fixed', 'macau-baccarat art.13 n.1 4)(3), art.17 n.5'],
    ]);
    assert.equal(baccaratTableGame('macau-commission').rules.bets.includes('lucky6'), false);
    assert.equal(
      baccaratTableGame('macau-commission').rules.payTable.some((l) => l.item.startsWith('lucky6')),
      false,
    );
  });

  it('offered, it is a spot of the table, its pay-table lines cite Art. 17 n.5, and its lines carry the reference', () => {
    const g = baccaratTableGame('macau-no-commission', { lucky6: true, authorisation: 'DICJ 77/2026' });
    assert.ok(g.rules.bets.includes('lucky6'));
    assert.deepEqual(
      g.rules.payTable
        .filter((l) => l.item.startsWith('lucky6'))
        .map((l) => [l.item, l.pays.kind === 'odds' ? `${l.pays.win}:${l.pays.per}` : l.pays.kind, l.rule, l.ref?.n]),
      [
        ['lucky6Two', '12:1', 'macau-baccarat art.13 n.1 4)(3), art.17 n.5', 13],
        ['lucky6Three', '20:1', 'macau-baccarat art.13 n.1 4)(3), art.17 n.5', 13],
      ],
    );
    let shoe = g.shoe.initial();
    for (let i = 0; g.shoe.shoeCue(shoe) !== null && i < 20; i++) {
      const r = g.shoe.takeShoeCard(shoe, parseCard('3C'));
      assert.ok(r.ok);
      shoe = r.shoe;
    }
    let round = g.round.startRound(shoe, [{ seat: 2, bets: { lucky6: 100, banker: 100 }, behind: [] }]);
    // P 5 draws T, B 6 stands: banker wins on 6 with two cards.
    for (const c of ['TS', '2H', '5D', '4C', 'TH'] as const) {
      const r = g.round.takeCard(round.shoe, round.round, parseCard(c));
      assert.ok(r.ok);
      round = { shoe: r.shoe, round: r.round };
    }
    const lines = g.round.settle(round.shoe, round.round).lines;
    assert.deepEqual(
      lines.map((l) => [l.bet, l.net, l.rule, l.choices, l.authorisation]),
      [
        ['banker', 50, 'macau-baccarat art.18 n.2', ['banker=no-commission'], 'DICJ 77/2026'],
        ['lucky6', 1200, 'macau-baccarat art.13 n.1 4)(3), art.17 n.5', ['lucky6=true'], 'DICJ 77/2026'],
      ],
    );
    assert.equal(g.screens.prizeOf(lines[1]!), 'side-bet');
  });
});

describe('the prizes of Art. 17 n.1–4, whose text is not on file (a review of 4 December)', () => {
  it('the player 1:1, the tie 8:1 and the pairs 11:1 are a reading, not fixed by the text; another figure is still refused, naming that', () => {
    for (const [key, figure] of [
      ['payouts.player.win', 1],
      ['payouts.tie.win', 8],
      ['payouts.playerPair.win', 11],
      ['payouts.bankerPair.win', 11],
    ] as const) {
      const info = baccaratOptionInfos('macau-commission').find((i) => i.key === key);
      assert.ok(info, key);
      assert.equal(info.class, 'interpretation', key);
      assert.equal(info.default, figure);
      assert.match(info.article ?? '', /art\.17 \(n\.1–4 not on file/, key);
      const refused = checkBaccaratOptions('macau-commission', { [key]: figure + 1, authorisation: 'DICJ 9/2026' }, true);
      assert.deepEqual(
        refused.map((r) => [r.option, r.reason]),
        [[key, 'not-offered']],
        key,
      );
    }
    // The prizes the text on file does fix stay fixed: Art. 18's and «6 Sortudo»'s (Art. 17 n.5).
    for (const key of ['banker.commissionBasisPoints', 'payouts.lucky6Two.win'])
      assert.equal(baccaratOptionInfos('macau-commission').find((i) => i.key === key)?.class, 'fixed', key);
  });
});
