import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

// «6 Sortudo» (Despacho 55/2004 Art. 13 n.1 4)(3) and Art. 17 n.5, added by 56/2018) at the live
// table: offered only where the table's configuration has it with the authorisation reference.

function burnShoeStart(t: TestTable): void {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('3C'));
}

describe('«6 Sortudo» (Lucky 6) at the live baccarat table', () => {
  it('is refused where the table does not offer it', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      credit(t.ledger, 1, 50_000);
      burnShoeStart(t);
      const r = t.table.commands.placeBet(1, { bet: 'lucky6' }, 10_000);
      assert.equal(r.ok, false);
      assert.equal(t.ledger.credit(1), 50_000);
    } finally {
      t.close();
    }
  });

  it('offered with the reference: placed at the station, paid 12 to 1 on a two-card banker 6, recalled with its article and the reference', () => {
    const t = testTable({ game: 'baccarat', config: { profileOptions: { lucky6: true }, profileAuthorisation: 'DICJ-L6-2026' } });
    try {
      credit(t.ledger, 1, 50_000);
      burnShoeStart(t);
      assert.equal(t.table.commands.placeBet(1, { bet: 'lucky6' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'dealing', JSON.stringify(t.table.reads.view()).slice(0, 400));
      // P 5 draws T → 5; B 6 on two cards stands and wins.
      for (const c of 'TS 2H 5D 4C TH'.split(' ')) t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.view().phase, 'results', JSON.stringify(t.table.reads.view()).slice(0, 600));
      assert.equal(t.ledger.credit(1), 50_000 + 120_000);
      const [round] = t.ledger.rounds.recall({ station: 1 });
      const line = round?.lines.find((l) => l.bet === 'lucky6');
      assert.ok(line, JSON.stringify(round?.lines));
      assert.deepEqual(
        [line.net, line.rule, line.choices, line.authorisation],
        [120_000, 'macau-baccarat art.13 n.1 4)(3), art.17 n.5', ['lucky6=true'], 'DICJ-L6-2026'],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
