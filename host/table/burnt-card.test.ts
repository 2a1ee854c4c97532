// The shoe's burn flag (CARD_DRAWN flags bit 1, docs/protocols/shoe.md): a card the dealer burnt is
// taken where the table waits for a burn, and holds the table (a card out of turn) where it waits for
// a card of the round: the burnt card lies with the burns, not at the hand the table would give it.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { credit, testTable } from '../testing/table-kit.js';

it("the shoe-start burns read burnt are taken; the round's first card read burnt holds the table out of turn", () => {
  const t = testTable({ game: 'blackjack' });
  try {
    credit(t.ledger, 1, 50_000);
    if (t.table.reads.cue()?.kind === 'shuffle') t.table.shoe.onNewShoe();
    let burns = 0;
    for (let cue = t.table.reads.cue(); cue?.kind === 'card' && burns < 20; cue = t.table.reads.cue()) {
      assert.equal(cue.to, 'burn', 'between rounds the table waits for burns only');
      t.table.shoe.onCard(parseCard('2C'), undefined, true);
      assert.equal(t.table.reads.view().hold, null, 'a burnt card at a burn is no hold');
      burns++;
    }
    assert.ok(burns > 0, 'the shoe start has burns');
    assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    t.clock.runOut(t.table.reads.view().endsAt);
    const cue = t.table.reads.cue();
    assert.ok(cue?.kind === 'card' && cue.to !== 'burn', 'the round waits for a card to a hand');
    t.table.shoe.onCard(parseCard('TS'), undefined, true);
    assert.equal(t.table.reads.view().hold, 'out-of-turn');
    assert.equal(t.ledger.credit(1), 40_000, 'the stake stays staked');
  } finally {
    t.close();
  }
});

it("the round's first card not read burnt goes to the hand: the flag, not the card, made the hold", () => {
  const t = testTable({ game: 'blackjack' });
  try {
    credit(t.ledger, 1, 50_000);
    if (t.table.reads.cue()?.kind === 'shuffle') t.table.shoe.onNewShoe();
    for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
    assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
    t.clock.runOut(t.table.reads.view().endsAt);
    t.table.shoe.onCard(parseCard('TS'));
    assert.equal(t.table.reads.view().hold, null);
  } finally {
    t.close();
  }
});
