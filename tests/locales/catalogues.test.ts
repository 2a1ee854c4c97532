import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableGame } from '../../engine/games.js';
import { catalogues } from '../../locales/index.js';
import { DecisionAction, ErrorCode, HoldReason, Language, OFFER_ACTIONS, RefusalReason, refusalKey } from '../../protocol/index.js';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const variables = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

describe('locale catalogues', () => {
  const source = flatten(catalogues['zh-Hant'] as Tree);

  it('exist for every language of the protocol', () => {
    assert.deepEqual(Object.keys(catalogues).sort(), [...Language.options].sort());
  });

  for (const lang of Language.options) {
    it(`${lang} has exactly the keys of zh-Hant, each non-empty, with the same variables`, () => {
      const cat = flatten(catalogues[lang] as Tree);
      assert.deepEqual([...cat.keys()].sort(), [...source.keys()].sort());
      for (const [key, text] of cat) {
        assert.ok(text.trim().length > 0, `${lang} ${key} is empty`);
        assert.deepEqual(variables(text), variables(source.get(key) ?? ''), `${lang} ${key}`);
      }
    });
  }

  it('have a message for every protocol error code', () => {
    for (const code of ErrorCode.options) assert.ok(source.has(`errors.${code}`), code);
  });

  it('word every reason a station command can be refused for', () => {
    for (const reason of RefusalReason.options) assert.ok(source.has(refusalKey(reason)), reason);
  });

  // Keys the screens build at run time (`action.${a}`, `desk.offer.${a}`, `hold.${reason}`,
  // `result.${outcome}`): every value the protocol allows has its words, so no screen shows a key.
  it('word every decision the protocol allows, and ask every offer as a question', () => {
    for (const a of DecisionAction.options) assert.ok(source.has(`action.${a}`), `action.${a}`);
    assert.ok(source.has('action.warSurrender'));
    for (const a of OFFER_ACTIONS) assert.ok(source.get(`desk.offer.${a}`)?.match(/[？?]$/), `desk.offer.${a}`);
  });

  it('word every reason the table can be on hold', () => {
    for (const r of HoldReason.options) assert.ok(source.has(`hold.${r}`), `hold.${r}`);
  });

  it('word every outcome and prize the screens celebrate or show', () => {
    for (const o of ['win', 'lose', 'push']) assert.ok(source.has(`result.${o}`), o);
    for (const k of ['prize.special', 'prize.fiveCard', 'prize.sideBet', 'help.item.tieBet']) assert.ok(source.has(k), k);
  });

  it("use the 2009 text's terms for dealer and seat in Chinese", () => {
    assert.equal(source.get('table.dealer'), '莊家');
    assert.match(source.get('table.seat') ?? '', /門/);
  });

  // The games' own words (engine/<game>/table-game.ts): what they name their own way, and every
  // line of every profile's pay table, has its words in every language.
  it("word every game's own names and every pay-table line of every profile", () => {
    const games = [
      tableGame('baccarat', 'macau-commission'),
      tableGame('baccarat', 'macau-no-commission'),
      tableGame('war', 'macau'),
      ...(['macau-2009', 'macau-2004', 'portugal-2001'] as const).map((p) => tableGame('blackjack', p)),
      tableGame('blackjack', 'macau-2009', { perfectPairs: true }),
    ];
    for (const g of games) {
      for (const l of g.payTable) assert.ok(source.has(`help.item.${l.item}`), `help.item.${l.item}`);
      for (const key of [...Object.values(g.presentation.actionWords ?? {}), ...Object.values(g.presentation.betWords ?? {})])
        assert.ok(key && source.has(key), key);
      for (const bet of g.bets) assert.ok(source.has(`bet.${bet}`), `bet.${bet}`);
    }
  });
});
