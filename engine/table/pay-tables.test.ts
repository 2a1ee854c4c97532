import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableGame } from '../games.js';
import { payRef, type Pays } from './pay-line.js';
import type { GameKind } from './vocabulary.js';
import { WAR_RULES } from '../war/profiles.js';

/** The pay table a station's help shows for a game under a profile (and options). */
const payTable = (game: GameKind, profile: string, options: Readonly<Record<string, unknown>> = {}) => [...tableGame(game, profile, options).rules.payTable];

/** A compact spelling of a line's payout for comparisons: `3:2`, `1:1 less 500bp`, `half returned`. */
const spell = (p: Pays) =>
  p.kind === 'returned' ? `${p.part} returned` : `${p.win}:${p.per}${p.commissionBasisPoints ? ` less ${p.commissionBasisPoints}bp` : ''}`;
const pays = (lines: ReturnType<typeof payTable>) => Object.fromEntries(lines.map((l) => [l.item, spell(l.pays)]));

describe('the help pay table comes from the active profile', () => {
  it('baccarat with commission pays the banker 1 : 1 less 5%; without commission 1 : 1 and 1 : 2 on a six', () => {
    assert.deepEqual(pays(payTable('baccarat', 'macau-commission')), {
      player: '1:1',
      bankerCommission: '1:1 less 500bp',
      tie: '8:1',
      playerPair: '11:1',
      bankerPair: '11:1',
      tieStandsOff: 'all returned',
    });
    const nc = payTable('baccarat', 'macau-no-commission', { authorisation: 'TEST-DICJ' });
    assert.equal(pays(nc).banker, '1:1');
    assert.equal(pays(nc).bankerSix, '1:2');
    assert.equal(pays(nc).bankerCommission, undefined);
    // Art. 18 n.2 for the banker; the rest the bet's article (Art. 13 n.1) and Art. 17, the prizes.
    assert.deepEqual(
      nc.map((l) => [l.item, l.rule, l.ref?.n]),
      [
        ['player', 'macau-baccarat art.13 n.1 1), art.17', 13],
        ['banker', 'macau-baccarat art.18 n.2', 18],
        ['bankerSix', 'macau-baccarat art.18 n.2', 18],
        ['tie', 'macau-baccarat art.13 n.1 3), art.17', 13],
        ['playerPair', 'macau-baccarat art.13 n.1 4)(1), art.17', 13],
        ['bankerPair', 'macau-baccarat art.13 n.1 4)(1), art.17', 13],
        ['tieStandsOff', 'macau-baccarat art.13 n.1 1)–2)', 13],
      ],
    );
  });

  it('blackjack quotes the rule its settlement uses, and offers five-card half pay only where the profile has it', () => {
    const m = payTable('blackjack', 'macau-2009');
    assert.equal(pays(m).blackjack, '3:2');
    assert.equal(m.find((l) => l.item === 'blackjack')?.rule, 'macau-2009 art.10 n.2');
    assert.equal(pays(m).fiveCard, '1:2');
    assert.equal(pays(payTable('blackjack', 'portugal-2001')).fiveCard, undefined);
  });

  it('war pays its tie bet as the profile says', () => {
    const w = payTable('war', 'macau');
    assert.equal(pays(w).tieBet, '10:1');
    // «Perder metade do valor da aposta inicial» (Art. 7 n.4 al.1), not blackjack's surrender (放棄牌局, «desistência»).
    assert.equal(pays(w).warSurrender, 'half returned');
    assert.equal(pays(w).surrender, undefined);
    assert.equal(w.find((l) => l.item === 'tieBet')?.rule, 'macau-war [art.7] n.3');
  });

  it('war lists every way its settlement pays, the tie at war (Art. 7 n.5 al.2) too', () => {
    const w = payTable('war', 'macau');
    // «Em caso de empate, o jogador ganha o valor em jogo e ainda um montante igual ao da aposta
    // inicial»: the first bet and the raise each paid 1 to 1 (net +2B on the 2B staked), not the
    // war won's raise paid and first bet returned (net +B). engine/war/war.test.ts settles it so (ratio 2).
    assert.equal(pays(w).warTie, '1:1');
    assert.equal(w.find((l) => l.item === 'warTie')?.rule, WAR_RULES.warTie);
    const paying = new Set([WAR_RULES.win, WAR_RULES.tieBetWins, WAR_RULES.warHigher, WAR_RULES.warTie]);
    assert.deepEqual(new Set(w.filter((l) => paying.has(l.rule as never)).map((l) => l.rule)), paying, 'each paying rule has its line');
  });

  it('no line pays a decimal, a zero or a negative ratio', () => {
    const all = [
      ...payTable('baccarat', 'macau-commission'),
      ...payTable('baccarat', 'macau-no-commission', { authorisation: 'TEST-DICJ' }),
      ...payTable('war', 'macau'),
      ...(['macau-2009', 'macau-2004', 'portugal-2001'] as const).flatMap((p) => payTable('blackjack', p)),
    ];
    for (const l of all)
      if (l.pays.kind === 'odds') assert.ok(Number.isInteger(l.pays.win) && l.pays.win > 0 && Number.isInteger(l.pays.per) && l.pays.per > 0, l.item);
  });

  it('names the article a player can look up, or none where the text has none', () => {
    assert.deepEqual(payRef('macau-2009 art.13 1)(1), art.14 n.1'), { kind: 'article', n: 13 });
    assert.deepEqual(payRef('macau-war [art.7] n.4 al.1'), { kind: 'article-reconstructed', n: 7 });
    assert.deepEqual(payRef('portugal-2001 rule 23'), { kind: 'rule', n: 23 });
    assert.deepEqual(payRef('portugal-2001 rules 43, 46, 50'), { kind: 'rule', n: 43 });
    assert.equal(payRef('macau-baccarat pay-table:tie-push'), undefined);
    assert.equal(payRef('portugal-2001 (not in the text)'), undefined);
    const side = payTable('blackjack', 'macau-2009').find((l) => l.item === 'anyPair');
    assert.deepEqual(side?.ref, { kind: 'article', n: 13 });
  });

  it('blackjack lists the additional bets the table offers at the odds of Art. 14, on their own page', () => {
    const m = payTable('blackjack', 'macau-2009');
    const side = m.filter((l) => l.side);
    assert.deepEqual(pays(side), {
      anyPair: '11:1',
      sevensTwo: '50:1',
      sevensTwoSuited: '150:1',
      sevensThree: '500:1',
      sevensThreeSuited: '5000:1',
      over13: '1:1',
      under13: '1:1',
    });
    assert.equal(side.find((l) => l.item === 'sevensThreeSuited')?.rule, 'macau-2009 art.13 2), art.14 n.2');
    // Perfect pairs needs the DICJ's authorisation (Art. 21 n.3): listed only when the table has it.
    assert.equal(pays(m).perfectPairMixed, undefined);
    const pp = payTable('blackjack', 'macau-2009', { perfectPairs: true, authorisation: 'TEST-DICJ' });
    assert.deepEqual([pays(pp).perfectPairMixed, pays(pp).perfectPairColoured, pays(pp).perfectPairPerfect], ['5:1', '12:1', '25:1']);
    // The winning streak likewise (Art. 21 n.3): 3, 8, 18, 38 to 1 (Art. 14 n.5).
    assert.equal(pays(m).streak2, undefined);
    const ws = payTable('blackjack', 'macau-2009', { winningStreak: true, authorisation: 'TEST-DICJ' });
    assert.deepEqual([pays(ws).streak2, pays(ws).streak3, pays(ws).streak4, pays(ws).streak5], ['3:1', '8:1', '18:1', '38:1']);
    assert.equal(ws.find((l) => l.item === 'streak5')?.rule, 'macau-2009 art.13 5)(2) i), art.14 n.5');
    const off = payTable('blackjack', 'macau-2009', { anyPair: false, sevens: false, overUnder13: false, authorisation: 'TEST-DICJ' });
    assert.deepEqual(
      off.filter((l) => l.side),
      [],
    );
    assert.deepEqual(
      payTable('blackjack', 'portugal-2001').filter((l) => l.side),
      [],
    );
  });

  it("the Art. 15 special prize says whether it replaces the bet's result or comes on top of it", () => {
    assert.equal(payTable('blackjack', 'macau-2009').find((l) => l.item.startsWith('special678'))?.item, 'special678');
    assert.equal(payTable('blackjack', 'portugal-2001').find((l) => l.item.startsWith('special678'))?.item, 'special678Extra');
    assert.equal(
      payTable('blackjack', 'macau-2009', { bonus678: 'none', authorisation: 'TEST-DICJ' }).find((l) => l.item.startsWith('special678')),
      undefined,
    );
  });
});
