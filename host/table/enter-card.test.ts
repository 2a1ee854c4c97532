import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable } from '../testing/table-kit.js';

describe('manual card entry on a hold', () => {
  it('places the unreadable card as if read, with two people and the shoe sequence journalled; the round goes on', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('9S')); // seat 1
      t.table.shoe.onAnomaly('unreadable', null, 42); // the croupier's card could not be read
      assert.equal(t.table.reads.view().phase, 'hold');
      assert.deepEqual(
        t.tilts.list().map((x) => x.kind),
        ['card-hold'],
      );
      assert.match(JSON.stringify(t.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'sup-1')), /someone other/);
      assert.match(JSON.stringify(t.table.supervisor.enterCard(parseCard('2D'), 'sup-1', ' ')), /second person/);
      assert.equal(t.table.reads.view().phase, 'hold', 'a refused entry changes nothing');
      assert.deepEqual(t.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.table.reads.view().phase, 'results', 'the round settled with the entered card');
      assert.deepEqual(
        t.table.reads.view().results?.map((l) => l.net),
        [10_000],
      );
      assert.equal(t.ledger.credit(1), 60_000);
      assert.deepEqual(t.tilts.list(), [], 'the card hold cleared with its resolution');
      // The hold itself was journalled as pending (recovery); its resolution is the later entry.
      const misread = [...t.ledger.entries(1)].find((e) => e.type === 'misread' && e.body.includes('"card-entered"'));
      const p = (JSON.parse(misread?.body ?? '{}') as { payload: Record<string, unknown> }).payload;
      assert.deepEqual(
        [p.resolution, p.card, p.confirmedBy, p.shoeSequence, p.roundId],
        ['card-entered', '2D', ['sup-1', 'wit-2'], [42], t.table.reads.view().roundId],
      );
      const settled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(
        settled?.cards.map((c) => c.card),
        ['9S', '2D'],
      );
      assert.ok(settled?.entrySeqs.includes(misread?.seq ?? -1), 'recall lists the misread with its round');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('takes an unreadable burn card between rounds, the chips stay on their spot, and the betting countdown runs again', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(t.table.reads.cue()?.kind, 'card', 'a new shoe starts with burns');
      t.table.shoe.onAnomaly('unreadable', null, 7);
      assert.equal(t.table.reads.view().endsAt, null);
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 10_000 }], 'the hold pauses betting, it does not take the chips');
      assert.equal(t.table.reads.station(1).betting.open, false);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, false, 'no new chips during the hold');
      assert.deepEqual(t.table.supervisor.enterCard(parseCard('5H'), 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.notEqual(t.table.reads.view().endsAt, null, 'the window counts down again');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 10_000 }]);
      assert.equal(t.table.reads.station(1).credit, 40_000);
      const misread = [...t.ledger.entries(1)].find((e) => e.type === 'misread');
      assert.equal(
        (JSON.parse(misread?.body ?? '{}') as { payload: { roundId?: string } }).payload.roundId,
        undefined,
        'a burn between rounds belongs to no round',
      );
    } finally {
      t.close();
    }
  });

  it('chips kept through a hold never play while new bets are stopped by another fault', () => {
    const t = testTable({ game: 'blackjack' });
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.table.shoe.onAnomaly('unreadable', null, 7); // a burn between rounds
      t.tilts.raise('shoe-lid-open', {});
      assert.deepEqual(t.table.supervisor.enterCard(parseCard('5H'), 'sup-1', 'wit-2'), { ok: true });
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.ledger.credit(1), 50_000, 'nothing went into play');
      assert.equal(t.table.reads.station(1).credit, 50_000, 'and nothing waits on the spot');
      assert.deepEqual(t.table.reads.station(1).betting.bets, []);
    } finally {
      t.close();
    }
  });

  it('refuses entry for a hold of a card read as it is (void instead)', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      t.table.shoe.onCard(parseCard('7S'));
      t.table.shoe.onCard(parseCard('7D')); // a tie: the seat must decide before any card
      t.table.shoe.onCard(parseCard('5C')); // out of turn
      assert.equal(t.table.reads.view().hold, 'out-of-turn');
      assert.match(JSON.stringify(t.table.supervisor.enterCard(parseCard('5C'), 'sup-1', 'wit-2')), /voiding the round/);
    } finally {
      t.close();
    }
  });
});

type Misread = { roundId?: string; detail: string; resolution: string; card?: string; confirmedBy?: string[]; shoeSequence?: number[]; duringHold?: boolean };
const misreads = (t: TestTable): Misread[] =>
  [...t.ledger.entries(1)].filter((e) => e.type === 'misread').map((e) => (JSON.parse(e.body) as { payload: Misread }).payload);

/** Money in the round is all back: each station's credit as before, and the ledger verifies. */
function assertEveryBetReturned(t: TestTable, before: Map<number, number>): void {
  for (const [station, credit] of before) assert.equal(t.ledger.credit(station), credit, `station ${station}: every bet returned`);
  assert.equal(verifyLedger(t.ledger).ok, true, 'balanced and chained');
}

/** What the last round.void says of why no correction was possible, and the article it cites (none: undefined). */
function voidCites(t: TestTable): [unknown, unknown] {
  const v = [...t.ledger.entries(1)].filter((e) => e.type === 'round.void').at(-1);
  const p = (JSON.parse(v?.body ?? '{}') as { payload?: Record<string, unknown> }).payload ?? {};
  return [p.uncorrectable, p.rule];
}

describe('cards read during a hold (issue 7 review, item 3)', () => {
  it('are journalled with their sequence and the round; an unreadable card then cannot be entered by hand, and the void names every read', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      credit(t.ledger, 2, 50_000);
      const before = new Map([
        [1, t.ledger.credit(1)],
        [2, t.ledger.credit(2)],
      ]);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(t.table.commands.placeBet(2, { bet: 'main' }, 20_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      const roundId = t.table.reads.view().roundId;
      t.table.shoe.onCard(parseCard('9S'), 40); // seat 1
      t.table.shoe.onAnomaly('unreadable', null, 41); // seat 2's card: hold
      t.table.shoe.onCard(parseCard('5C'), 42); // the dealer went on: the croupier's card
      t.table.shoe.onAnomaly('unreadable', null, 43); // and another, unreadable
      t.table.shoe.onAnomaly('wrong-deck', 'AS', 44); // and one of another deck set
      t.table.shoe.onCard(parseCard('5C'), 42); // a re-report of a sequence already journalled: nothing new
      assert.deepEqual(t.table.reads.holdState(), {
        reason: 'unreadable',
        shoeSequence: 41,
        readsDuringHold: [{ card: '5C', shoeSequence: 42 }, { shoeSequence: 43 }, { card: 'AS', shoeSequence: 44 }],
        // An unreadable card has no identity to correct: a card by hand or a void.
        card: null,
        corrections: [],
      });
      const during = misreads(t).filter((m) => m.duringHold);
      assert.deepEqual(
        during.map((m) => [m.roundId, m.resolution, m.card, m.shoeSequence]),
        [
          [roundId, 'pending', '5C', [42]],
          [roundId, 'pending', undefined, [43]],
          [roundId, 'pending', 'AS', [44]],
        ],
      );
      assert.match(during[2]?.detail ?? '', /wrong-deck card read during the unreadable hold/);
      // The first card's value cannot be entered: three more cards left the shoe to places unknown.
      const refused = t.table.supervisor.enterCard(parseCard('2D'), 'sup-1', 'wit-2');
      assert.match(JSON.stringify(refused), /3 more card\(s\) left the shoe during the hold \(shoe sequence 42, 43, 44\)/);
      assert.equal(t.table.reads.view().hold, 'unreadable', 'the hold stays');
      assert.equal(misreads(t).filter((m) => m.resolution === 'card-entered').length, 0, 'nothing entered');
      assert.deepEqual(t.table.supervisor.voidRound('cards dealt during an unreadable hold', ['sup-1', 'wit-2']), { ok: true });
      assertEveryBetReturned(t, before);
      // A card the reader could not read is no error in the deal: [art.6] does not void this coup,
      // so the void cites no article (the house's reading) and says why.
      assert.deepEqual(voidCites(t), ['cards-after-error', undefined]);
      const resolved = misreads(t).at(-1);
      assert.deepEqual(
        [resolved?.roundId, resolved?.resolution, resolved?.confirmedBy, resolved?.shoeSequence],
        [roundId, 'round-void', ['sup-1', 'wit-2'], [41, 42, 43, 44]],
      );
      const record = t.ledger.rounds.record(roundId);
      assert.equal(record?.status, 'void');
      assert.deepEqual(
        record?.cards.map((c) => c.card),
        ['9S'],
        'only the card placed before the hold is in the round',
      );
      assert.deepEqual(t.tilts.list(), [], 'the card hold cleared with its void');
    } finally {
      t.close();
    }
  });

  it('between rounds too (a shoe without a gate): the extra card and what follows it are journalled, and the void lists them all', () => {
    const t = testTable();
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.table.shoe.onCard(parseCard('4H'), 7); // no round expects a card: extra
      t.table.shoe.onCard(parseCard('6H'), 8);
      assert.equal(t.table.reads.view().hold, 'extra-card');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [{ bet: 'main', amount: 10_000 }], 'the chips wait on their spot through the hold');
      const [hold, read] = misreads(t);
      assert.deepEqual([hold?.roundId, hold?.card, hold?.shoeSequence, hold?.duringHold], [undefined, '4H', [7], undefined]);
      assert.deepEqual([read?.roundId, read?.card, read?.shoeSequence, read?.duringHold], [undefined, '6H', [8], true]);
      assert.deepEqual(t.table.supervisor.voidRound('stray cards', ['sup-1', 'wit-2']), { ok: true });
      assert.deepEqual(misreads(t).at(-1)?.shoeSequence, [7, 8]);
      assert.equal(t.table.reads.station(1).credit, 50_000, 'the void took the chips off the spot');
      t.clock.runOut(t.table.reads.view().endsAt);
      assert.equal(t.table.reads.view().phase, 'betting');
      assert.deepEqual(t.table.reads.station(1).betting.bets, [], 'and they do not come back in the next window');
    } finally {
      t.close();
    }
  });
});

describe('each card anomaly inside a round → hold → its resolutions (issue 7 review, item 4)', () => {
  /** A war round of two stations with both bets closed; returns the credits before the bets. */
  const warRound = (t: TestTable) => {
    credit(t.ledger, 1, 50_000);
    credit(t.ledger, 2, 50_000);
    const before = new Map([
      [1, t.ledger.credit(1)],
      [2, t.ledger.credit(2)],
    ]);
    assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
    // At the tie's minimum: a chip under it is refused, and would not have played.
    assert.equal(t.table.commands.placeBet(1, { bet: 'tie' }, 10_000).ok, true);
    assert.equal(t.table.commands.placeBet(2, { bet: 'main' }, 20_000).ok, true);
    t.clock.runOut(t.table.reads.view().endsAt);
    assert.equal(t.table.reads.view().phase, 'dealing');
    return before;
  };

  it('more copies of a card than the decks hold: held, never placed; entry refused; a void returns every bet', () => {
    const t = testTable();
    try {
      // Six decks: six aces of spades go out over six coups; the seventh breaks the inventory.
      credit(t.ledger, 1, 500_000);
      for (let i = 0; i < 6; i++) {
        assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
        t.clock.runOut(t.table.reads.view().endsAt);
        t.table.shoe.onCard(parseCard('AS'), 100 + 2 * i);
        t.table.shoe.onCard(parseCard('2C'), 101 + 2 * i);
        assert.equal(t.table.reads.view().phase, 'results');
        t.clock.advance(t.config.timings.resultsMs);
      }
      const before = warRound(t);
      t.table.shoe.onCard(parseCard('AS'), 200);
      assert.deepEqual([t.table.reads.view().phase, t.table.reads.view().hold], ['hold', 'inventory']);
      const held = misreads(t).at(-1);
      assert.deepEqual([held?.roundId, held?.card, held?.shoeSequence, held?.resolution], [t.table.reads.view().roundId, 'AS', [200], 'pending']);
      assert.deepEqual(
        t.table.reads.view().hands.flatMap((h) => h.cards),
        [],
        'the card was not placed',
      );
      assert.match(JSON.stringify(t.table.supervisor.enterCard(parseCard('KS'), 'sup-1', 'wit-2')), /inventory hold is resolved by voiding/);
      assert.deepEqual(t.table.supervisor.voidRound('seven aces of spades in a six-deck shoe', ['sup-1', 'wit-2']), { ok: true });
      assertEveryBetReturned(t, before);
      // A card no shoe of the table can hold is no error in the deal either: no article.
      assert.deepEqual(voidCites(t), ['card-unidentified', undefined]);
      assert.deepEqual(misreads(t).at(-1)?.shoeSequence, [200]);
    } finally {
      t.close();
    }
  });

  it('a card of another deck set: held; entry refused; a void returns every bet (a tie bet and a second station included)', () => {
    const t = testTable();
    try {
      const before = warRound(t);
      t.table.shoe.onCard(parseCard('8S'), 11);
      t.table.shoe.onAnomaly('wrong-deck', 'QD', 12);
      assert.deepEqual([t.table.reads.view().hold, t.table.reads.view().endsAt], ['wrong-deck', null]);
      assert.deepEqual(
        misreads(t).map((m) => [m.detail, m.card, m.shoeSequence]),
        [['wrong-deck', 'QD', [12]]],
      );
      assert.match(JSON.stringify(t.table.supervisor.enterCard(parseCard('QD'), 'sup-1', 'wit-2')), /wrong-deck hold is resolved by voiding/);
      assert.match(JSON.stringify(t.table.supervisor.voidRound('other deck', ['sup-1'])), /second person/);
      assert.match(JSON.stringify(t.table.supervisor.voidRound('other deck', ['sup-1', 'sup-1'])), /someone other/);
      assert.equal(t.table.reads.view().hold, 'wrong-deck', 'a refused void changes nothing');
      assert.deepEqual(t.table.supervisor.voidRound('other deck', ['sup-1', 'wit-2']), { ok: true });
      assert.deepEqual(misreads(t).at(-1)?.shoeSequence, [12]);
      assertEveryBetReturned(t, before);
    } finally {
      t.close();
    }
  });

  it("an extra card during a round (blackjack, while a seat decides): held as out of turn; a void returns both stations' bets", () => {
    const t = testTable({ game: 'blackjack' });
    try {
      const low = ['2C', '3C', '4C', '2D', '3D', '4D', '2H', '3H', '4H', '2S', '3S', '4S'];
      for (let i = 0; t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard(low[i % low.length] as string), 500 + i);
      credit(t.ledger, 1, 50_000);
      credit(t.ledger, 2, 50_000);
      const before = new Map([
        [1, t.ledger.credit(1)],
        [2, t.ledger.credit(2)],
      ]);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(t.table.commands.placeBet(2, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      for (const [i, c] of ['TS', '9H', '6D', '7S', '5C'].entries()) t.table.shoe.onCard(parseCard(c), 600 + i); // seats 1, 2, dealer, seats 1, 2
      assert.ok(t.table.reads.station(1).decision, 'seat 1 decides');
      t.table.shoe.onCard(parseCard('KD'), 610); // the dealer draws anyway
      assert.equal(t.table.reads.view().hold, 'out-of-turn');
      assert.equal(t.table.reads.station(1).decision, null, 'no countdown on hold');
      const held = misreads(t).at(-1);
      assert.deepEqual([held?.card, held?.shoeSequence, held?.roundId], ['KD', [610], t.table.reads.view().roundId]);
      assert.deepEqual(t.table.supervisor.voidRound('extra card', ['sup-1', 'wit-2']), { ok: true });
      assertEveryBetReturned(t, before);
      assert.deepEqual(misreads(t).at(-1)?.shoeSequence, [610]);
    } finally {
      t.close();
    }
  });
});
