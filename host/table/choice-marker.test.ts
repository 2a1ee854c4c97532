import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { evidenceBundle, verifyEvidence, verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

// Issue 15, "Done when": a permitted choice settles with its marker on the line. At the live table,
// a round settled under a reading other than the text's default (Macau 2009 Art. 6 1), the dealer's
// soft 17, set with the regulator's reference) carries the option and the reference on its line,
// in the journal, in recall and in the evidence bundle.

/** Seat 1 bets 100, stands on 11 against the dealer's 6, and the dealer's 6 + 10 + 8 busts. */
function playBust(t: TestTable): void {
  credit(t.ledger, 1, 100_000);
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  for (const c of ['5S', '6H', '6D']) t.table.shoe.onCard(parseCard(c));
  assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
  for (const c of ['TH', '8S']) t.table.shoe.onCard(parseCard(c));
}

describe('a permitted choice at the live table', () => {
  it('settles with its marker: the option and the authorisation reference on the line, in recall and in the evidence bundle', () => {
    const t = testTable({ game: 'blackjack', config: { profileOptions: { dealerSoft17: 'hit' }, profileAuthorisation: 'DICJ-2026/42' } });
    try {
      playBust(t);
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 110_000);

      const recalled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      const line = recalled?.lines.find((l) => l.bet === 'main');
      assert.deepEqual(
        [line?.rule, line?.choices, line?.authorisation],
        ['macau-2009 house reading, no article: the dealer over 21 loses', ['dealerSoft17=hit'], 'DICJ-2026/42'],
      );

      const bundle = evidenceBundle(t.ledger, recalled?.roundId ?? '');
      assert.ok(bundle);
      const bundled = bundle.round.lines.find((l) => l.bet === 'main');
      assert.deepEqual([bundled?.choices, bundled?.authorisation], [['dealerSoft17=hit'], 'DICJ-2026/42']);
      // The bundle's own entries say the same, under the chain's hashes.
      assert.ok(bundle.entries.some((e) => e.body.includes('"choices":["dealerSoft17=hit"]') && e.body.includes('"authorisation":"DICJ-2026/42"')));
      assert.equal(verifyEvidence(bundle).ok, true);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it("a line settled under the text's defaults carries no marker", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      playBust(t);
      const line = t.ledger.rounds.recall({ station: 1, limit: 1 })[0]?.lines.find((l) => l.bet === 'main');
      assert.deepEqual(
        [line?.rule, line?.choices, line?.authorisation],
        ['macau-2009 house reading, no article: the dealer over 21 loses', undefined, undefined],
      );
    } finally {
      t.close();
    }
  });
});
