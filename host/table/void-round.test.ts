// A round voided after some of its cards are out (a card hold resolved by a void) must leave the
// game as if it had never been dealt: the next round starts from an empty coup or hand, live and
// after a restart that rebuilds the shoe from the journal.
import assert from 'node:assert/strict';

import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import type { BetId } from '../../protocol/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';
import type { LiveTable } from './runtime.js';

const GAMES = [
  { game: 'baccarat', bet: 'banker', dealt: ['9S', '8H'] },
  { game: 'blackjack', bet: 'main', dealt: ['9S', '8H', '7D'] },
] as const;

function burnShoeStart(rounds: LiveTable): void {
  for (let i = 0; i < 30 && rounds.reads.cue()?.kind === 'card'; i++) rounds.shoe.onCard(parseCard('2C'));
}

const place = (t: TestTable, bet: BetId) =>
  submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'place-bet', spot: { bet }, amount: 10_000 }));
const cardsOnTable = (rounds: LiveTable) => (rounds.reads.view().hands ?? []).flatMap((h) => h.cards);

/** Bets, deals `dealt`, voids the round by two people; the table is back in betting. */
function voidAfter(t: TestTable, bet: BetId, dealt: readonly string[]): void {
  credit(t.ledger, 1, 100_000);
  t.table.shoe.onNewShoe(); // a replay starts at the journalled shoe load
  burnShoeStart(t.table);
  assert.equal(place(t, bet).ok, true);
  t.clock.runOut(t.table.reads.view().endsAt);
  for (const c of dealt) t.table.shoe.onCard(parseCard(c));
  assert.deepEqual(cardsOnTable(t.table).sort(), [...dealt].sort());
  assert.equal(t.table.supervisor.voidRound('test: a card hold', ['Ana Lei (1001)', 'Bo Chan (1002)']).ok, true);
  assert.equal(t.ledger.credit(1), 100_000, 'every bet returned');
}

describe('a round voided after some of its cards', () => {
  for (const { game, bet, dealt } of GAMES) {
    it(`${game}: the next round starts from no card, live`, () => {
      const t = testTable({ game });
      try {
        voidAfter(t, bet, dealt);
        t.clock.runOut(t.table.reads.view().endsAt); // results held, then betting
        assert.equal(t.table.reads.view().phase, 'betting');
        assert.equal(place(t, bet).ok, true);
        t.clock.runOut(t.table.reads.view().endsAt);
        assert.equal(t.table.reads.view().phase, 'dealing');
        assert.deepEqual(cardsOnTable(t.table), [], "none of the voided round's cards");
        assert.equal(t.table.reads.cue()?.kind, 'card');
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });

    it(`${game}: the next round starts from no card after a restart that replays the void`, () => {
      const t = testTable({ game });
      try {
        voidAfter(t, bet, dealt);
      } finally {
        t.stop();
      }
      // The restarted table folds the journal, the void included.
      const again = testTable({ game, dir: t.dir });
      try {
        assert.equal(again.table.reads.view().phase, 'results');
        again.clock.runOut(again.table.reads.view().endsAt);
        const bets = again.table.commands.placeBet(1, { bet }, 10_000);
        assert.equal(bets.ok, true, bets.ok ? '' : bets.reason);
        again.clock.runOut(again.table.reads.view().endsAt);
        assert.equal(again.table.reads.view().phase, 'dealing');
        assert.deepEqual(cardsOnTable(again.table), []);
      } finally {
        again.close();
      }
    });
  }
});
