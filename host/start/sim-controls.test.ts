import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { credit, testTable } from '../testing/table-kit.js';
import { simControls } from './sim-controls.js';

describe("the sim controls' end of a countdown", () => {
  // A browser test ended the betting window through /sim/end-countdown while baccarat's shoe-start
  // burns were still being dealt (CI, 29 November): the control said ok, the table opened the window
  // again whole (closeBetting: the shoe comes first) and the test's 90 s wait for the coup ran out.
  it('refuses to end a betting window while the shoe procedure is due, saying why, and ends it once the shoe is ready', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      const sim = simControls('token', {
        billAcceptors: { simulator: () => null },
        printers: { simulator: () => null },
        table: t.table,
        simDealer: () => null,
      });
      credit(t.ledger, 1, 100_000);
      // The shoe-start procedure: the first card turned (a 9: nine more burned, Macau baccarat Art. 2 n.1).
      t.table.shoe.onCard(parseCard('9H'));
      const burns = ['2C', '3D', '4H', '5S', '6C', '7D', '8H', '9S', 'TC', 'JD'];
      for (const c of burns.slice(0, 4)) t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.cue()?.kind, 'card', 'burns still due');
      assert.deepEqual(t.table.commands.placeBet(1, { bet: 'banker' }, 10_000), { ok: true });
      const refused = sim.endCountdown('betting');
      assert.match(refused ?? '', /shoe/);
      assert.equal(t.table.reads.view().phase, 'betting');
      // The burns done, the window ends when asked and the coup is dealt.
      for (const c of burns.slice(4)) if (t.table.reads.cue()?.kind === 'card') t.table.shoe.onCard(parseCard(c));
      assert.equal(t.table.reads.cue(), null, 'the burns done');
      assert.equal(sim.endCountdown('betting'), null);
      assert.equal(t.table.reads.view().phase, 'dealing');
      // No countdown of the kind running: said, as before.
      assert.match(sim.endCountdown('betting') ?? '', /no betting countdown is running/);
    } finally {
      t.close();
    }
  });
});
