import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, floorTable } from '../testing/floor-kit.js';

describe('manual card entry on a hold', () => {
  it('places the unreadable card as if read, with two people and the shoe sequence journalled; the round goes on', () => {
    const t = floorTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.rounds.placeBet(1, 'main', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      t.rounds.onCard(parseCard('9S')); // seat 1
      t.rounds.onAnomaly('unreadable', null, 42); // the croupier's card could not be read
      assert.equal(t.rounds.view().phase, 'hold');
      assert.deepEqual(t.tilts.list().map((x) => x.kind), ['card-hold']);
      assert.match(JSON.stringify(t.rounds.enterCard(parseCard('2D'), 'sup-1', 'sup-1')), /someone other/);
      assert.match(JSON.stringify(t.rounds.enterCard(parseCard('2D'), 'sup-1', ' ')), /second person/);
      assert.equal(t.rounds.view().phase, 'hold', 'a refused entry changes nothing');
      assert.deepEqual(t.rounds.enterCard(parseCard('2D'), 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.rounds.view().phase, 'results', 'the round settled with the entered card');
      assert.deepEqual(t.rounds.view().results?.map((l) => l.net), [10_000]);
      assert.equal(t.ledger.credit(1), 60_000);
      assert.deepEqual(t.tilts.list(), [], 'the card hold cleared with its resolution');
      // The hold itself was journalled as pending (recovery); its resolution is the later entry.
      const misread = [...t.ledger.entries(1)].find((e) => e.type === 'misread' && e.body.includes('"card-entered"'));
      const p = (JSON.parse(misread?.body ?? '{}') as { payload: Record<string, unknown> }).payload;
      assert.deepEqual([p.resolution, p.card, p.confirmedBy, p.shoeSequence, p.roundId], ['card-entered', '2D', ['sup-1', 'wit-2'], [42], t.rounds.view().roundId]);
      const settled = t.ledger.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(settled?.cards.map((c) => c.card), ['9S', '2D']);
      assert.ok(settled?.entrySeqs.includes(misread?.seq ?? -1), 'recall lists the misread with its round');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('takes an unreadable burn card between rounds, and the betting countdown runs again', () => {
    const t = floorTable({ game: 'blackjack' });
    try {
      assert.equal(t.rounds.cue()?.kind, 'card', 'a new shoe starts with burns');
      t.rounds.onAnomaly('unreadable', null, 7);
      assert.equal(t.rounds.view().endsAt, null);
      assert.deepEqual(t.rounds.enterCard(parseCard('5H'), 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.rounds.view().phase, 'betting');
      assert.notEqual(t.rounds.view().endsAt, null, 'the window counts down again');
      const misread = [...t.ledger.entries(1)].find((e) => e.type === 'misread');
      assert.equal((JSON.parse(misread?.body ?? '{}') as { payload: { roundId?: string } }).payload.roundId, undefined, 'a burn between rounds belongs to no round');
    } finally {
      t.close();
    }
  });

  it('refuses entry for a hold of a card read as it is (void instead)', () => {
    const t = floorTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.rounds.placeBet(1, 'main', 10_000).ok, true);
      t.clock.runOut(t.rounds.view().endsAt);
      t.rounds.onCard(parseCard('7S'));
      t.rounds.onCard(parseCard('7D')); // a tie: the seat must decide before any card
      t.rounds.onCard(parseCard('5C')); // out of turn
      assert.equal(t.rounds.view().hold, 'out-of-turn');
      assert.match(JSON.stringify(t.rounds.enterCard(parseCard('5C'), 'sup-1', 'wit-2')), /voiding the round/);
    } finally {
      t.close();
    }
  });
});
