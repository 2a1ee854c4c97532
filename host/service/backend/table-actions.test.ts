// A new shoe declared from service mode before the shoe is spent. Portugal rule 12 lets the dealer
// spread the shoe's remaining cards only when play is interrupted: no players, or players who make
// no bet. So at a portugal-2001 table, while a stake is on the layout and the cut card has not come
// out, the supervisor's new shoe is refused, naming the rule; the Macau texts have no such article.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../../engine/cards/card.js';
import { entriesOfTypes } from '../../../ledger/index.js';
import { credit, silent, testTable, type TestTable, submitted } from '../../testing/table-kit.js';
import type { ServiceJournal } from './service-journal.js';
import { tableActions } from './table-actions.js';

/** The service.action records the journal holds, as `action: detail` (a declared shoe's goes in its step's write). */
const recorded = (t: TestTable) =>
  [...entriesOfTypes(t.ledger, ['service.action'])].map((e) => {
    const p = (JSON.parse(e.body) as { payload: { action: string; detail: string } }).payload;
    return `${p.action}: ${p.detail}`;
  });

function actions(t: TestTable) {
  const journalled: string[] = [];
  const journal: ServiceJournal = {
    action: (_by, action, detail) => void journalled.push(`${action}: ${detail}`),
    test: () => undefined,
  };
  // A real shoe (no simulator): the supervisor's declaration is the new shoe.
  return { act: tableActions({ table: t.table, config: t.config, shoe: { simulator: () => null }, floor: t.floor, log: silent }, journal), journalled };
}

function burnShoeStart(t: TestTable) {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

const place = (t: TestTable, station: number, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot: { bet: 'main' }, amount }));

describe('a new shoe from service mode before the shoe is spent (Portugal rule 12)', () => {
  it('portugal-2001: refused while a stake is on the layout, naming rule 12; taken once the stake is withdrawn', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    try {
      t.table.shoe.onNewShoe();
      burnShoeStart(t);
      credit(t.ledger, 1, 100_000);
      assert.equal(place(t, 1, 10_000).ok, true);
      const { act, journalled } = actions(t);
      const shoeNo = t.table.state.shoeNo;
      const r = act.newShoe('sup');
      assert.equal(r.ok, false, 'a stake is on the layout');
      if (r.ok) return;
      assert.equal(r.code, 'refused');
      assert.match(r.detail, /\(Portaria 1364\/2001, rule 12\)/);
      assert.deepEqual(r.notice, { key: 'service.ruleRefusal.shoe-end-with-stakes', values: { article: 'portugal-2001 rule 12' } });
      assert.equal(t.table.state.shoeNo, shoeNo, 'the shoe is the same');
      assert.deepEqual([...journalled, ...recorded(t)], [], 'nothing declared');
      assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'clear-bets' })).ok, true);
      const again = act.newShoe('sup');
      assert.equal(again.ok, true, 'no player bets: play is interrupted');
      assert.equal(t.table.state.shoeNo, shoeNo + 1);
      assert.deepEqual([...journalled, ...recorded(t)], ['new-shoe: declared by hand']);
    } finally {
      t.close();
    }
  });

  it('portugal-2001: taken with a stake on the layout once the cut card is out (the shoe is spent)', () => {
    const t = testTable({ game: 'blackjack', config: { profile: 'portugal-2001' } });
    try {
      t.table.shoe.onNewShoe();
      burnShoeStart(t);
      t.table.shoe.onCutCard();
      credit(t.ledger, 1, 100_000);
      assert.equal(place(t, 1, 10_000).ok, true);
      const r = actions(t).act.newShoe('sup');
      assert.equal(r.ok, true, r.ok ? '' : r.detail);
    } finally {
      t.close();
    }
  });

  it('macau-2009 has no such article: taken with a stake on the layout', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      t.table.shoe.onNewShoe();
      burnShoeStart(t);
      credit(t.ledger, 1, 100_000);
      assert.equal(place(t, 1, 10_000).ok, true);
      const r = actions(t).act.newShoe('sup');
      assert.equal(r.ok, true, r.ok ? '' : r.detail);
    } finally {
      t.close();
    }
  });
});
