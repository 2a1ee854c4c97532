// Where a table's shoe left off, said to the shoe's driver when the host starts again
// (`lastSequence`, host/start/shoe.ts): the driver expects the next frame after it. A shoe numbers
// its frames 1 to 65535 and starts again at 1 (docs/protocols/shoe.md), so within one shoe the
// numbers journalled can run 65534, 65535, 1, 2: the last is the one the shoe sent last, not the
// greatest. The greatest had the driver expect 65536's successor, 1, while the shoe sent 3.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { openLedger } from '../../ledger/index.js';
import { tableParams } from '../config/table-params.js';
import { manualTimers } from '../testing/manual-timers.js';
import { credit, silent, submitted, testTable } from '../testing/table-kit.js';
import { openTable } from './start-table.js';
import { openTableGame } from './table-game.js';

describe('the shoe sequence a table starts again from', () => {
  it('is the last one journalled, across the shoe numbering starting again at 1', () => {
    const t = testTable({ game: 'war' });
    try {
      credit(t.ledger, 1, 100_000);
      const placed = submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet: 'main' }, amount: 10_000 }));
      assert.equal(placed.ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('KS'), 65_535);
      t.table.shoe.onCard(parseCard('7D'), 1);
      assert.equal(t.table.reads.view().phase, 'results');
      assert.deepEqual(t.table.state.sequences, [65_535, 1]);
      t.stop();
      const ledger = openLedger(t.dir, 'T-FLOOR');
      try {
        const deps = { ledger, log: silent, timers: manualTimers().timers, params: tableParams(t.config) };
        const opened = openTableGame(t.config, (game) => openTable(game, deps));
        assert.equal(opened.lastSequence, 1);
        opened.table.stop();
      } finally {
        ledger.close();
      }
    } finally {
      t.close();
    }
  });
});
