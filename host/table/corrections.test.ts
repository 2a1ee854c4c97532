import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { verifyLedger } from '../../ledger/index.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

// Dealing errors corrected at the live table as the texts order them (issue 15, "What to build" 3):
// Macau 2009 Art. 5 n.1 1)–2) and Art. 6 1), Portugal rules 17–19, «Desafio ao Casino» Art. 6; the
// void only as the last resort, saying why no correction was possible.

/** Burns the shoe-start cards, so betting can close. */
function burnShoeStart(t: TestTable): void {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

function cards(t: TestTable, codes: string): void {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
}

/** A blackjack table with seat 1 dealt 5S 6D against the dealer's 6H (and under Portugal's rules a 7C face down), deciding. */
function dealtEleven(profile?: string): TestTable {
  const t = testTable({ game: 'blackjack', ...(profile ? { config: { profile } } : {}) });
  credit(t.ledger, 1, 100_000);
  burnShoeStart(t);
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  cards(t, profile === 'portugal-2001' ? '5S 6H 6D 7C' : '5S 6H 6D');
  assert.ok(t.table.reads.station(1).decision?.legal.includes('hit'));
  return t;
}

/** The journalled misread entries of the table, as their payloads. */
function misreads(t: TestTable): Record<string, unknown>[] {
  return [...t.ledger.entries(1)].filter((e) => e.type === 'misread').map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
}

function payloadsOf(t: TestTable, type: string): Record<string, unknown>[] {
  return [...t.ledger.entries(1)].filter((e) => e.type === type).map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
}

const decide = (t: TestTable, action: 'stand' | 'hit') => submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action }));

describe('dealing-error corrections at the live table (Macau 2009 Art. 5 n.1, Art. 6)', () => {
  it('exposed card (Art. 5 n.1 1)): two people take it back as void, the same place is dealt again, the round settles', () => {
    const t = dealtEleven();
    try {
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      assert.equal(t.table.reads.view().phase, 'hold');
      const offered = t.table.reads.holdState()?.corrections.map((c) => [c.correction, 'rule' in c ? c.rule : null]);
      assert.deepEqual(offered, [
        ['exposed-card', 'macau-2009 art.5 n.1 1)'],
        ['wrong-hand', 'macau-2009 art.5 n.1 2)'],
      ]);
      assert.match(JSON.stringify(t.table.supervisor.correct('exposed-card', 'sup-1', 'sup-1')), /someone other/);
      assert.match(JSON.stringify(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2')), /orders no undue-card correction for a dealing-error hold/);
      assert.equal(t.table.reads.view().phase, 'hold', 'a refused correction changes nothing');
      assert.deepEqual(t.table.supervisor.correct('exposed-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.table.reads.view().phase, 'dealing');
      assert.deepEqual(t.table.reads.cue(), { kind: 'card', to: 'seat', seat: 1, hand: 0 }, "seat 1's second card is dealt again");
      cards(t, '9D'); // seat 1: 14
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH 8S'); // dealer 16, then busts
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 110_000);
      const fixed = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual(
        [fixed?.correction, fixed?.article, fixed?.card, fixed?.confirmedBy],
        ['exposed-card', 'macau-2009 art.5 n.1 1)', '6D', ['sup-1', 'wit-2']],
      );
      const recalled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(
        recalled?.cards.map((c) => c.card),
        ['5S', '6H', '6D', '9D', 'TH', '8S'],
        'the exposed card stays in the round record',
      );
      assert.deepEqual(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('undue card (Art. 5 n.1 1)): a card drawn while the player decides goes to the discards; the round goes on as before', () => {
    const t = dealtEleven();
    try {
      cards(t, '4C'); // drawn while seat 1 decides
      assert.equal(t.table.reads.view().phase, 'hold');
      assert.equal(t.table.reads.holdState()?.card, '4C');
      assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
      assert.ok(t.table.reads.station(1).decision?.legal.includes('stand'), 'seat 1 decides again');
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH 8S');
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 110_000);
      const fixed = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual([fixed?.correction, fixed?.article, fixed?.card], ['undue-card', 'macau-2009 art.5 n.1 1)', '4C']);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('misdrawn card (Art. 5 n.1 2)): kept unseen and given to the next player who asks for a card', () => {
    const t = dealtEleven();
    try {
      cards(t, '9C');
      assert.deepEqual(t.table.supervisor.correct('misdrawn-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(decide(t, 'hit').ok, true);
      // The kept card is placed with the hit, without a new read: 5 + 6 + 9 = 20.
      assert.equal(t.table.reads.station(1).decision?.legal.includes('stand'), true);
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH 8S');
      assert.equal(t.table.reads.view().phase, 'results');
      const recalled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(
        recalled?.cards.map((c) => c.card),
        ['5S', '6H', '6D', '9C', 'TH', '8S'],
      );
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it("misdrawn card nobody asks for (Macau 2009 Art. 5 n.1 2), procedure 1): the dealer's second card, the shoe's order restored", () => {
    // «atribuindo-se a carta ou cartas ao jogador a quem ela deve caber»: the card out of the shoe
    // before the dealer's second is the dealer's second, not a third after a later card (issue 33 item 7).
    const t = dealtEleven();
    try {
      cards(t, '9C');
      assert.deepEqual(t.table.supervisor.correct('misdrawn-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH');
      assert.equal(t.table.reads.view().phase, 'results');
      const recalled = t.ledger.rounds.recall({ station: 1, limit: 1 })[0];
      assert.deepEqual(
        recalled?.cards.map((c) => c.card),
        ['5S', '6H', '6D', '9C', 'TH'],
        "the kept 9C is the dealer's second card, the next read its third",
      );
      assert.deepEqual(
        payloadsOf(t, 'card.read')
          .slice(-2)
          .map((p) => [p.card, p.to]),
        [
          ['9C', 'dealer'],
          ['TH', 'dealer'],
        ],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('a card to the wrong hand (Art. 5 n.1 2)): rectified, journalled with its article; the round goes on', () => {
    const t = dealtEleven();
    try {
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      assert.deepEqual(t.table.supervisor.correct('wrong-hand', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH 8S');
      assert.equal(t.table.reads.view().phase, 'results');
      const fixed = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual([fixed?.correction, fixed?.article], ['wrong-hand', 'macau-2009 art.5 n.1 2)']);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('undue card after the dealer stood (Art. 6 1)): the extra card goes to the discards with its article; the round stays settled', () => {
    const t = dealtEleven();
    try {
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH AS'); // the dealer's 6 + 10 + ace: 17, stands; seat 1's 11 loses
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 90_000);
      cards(t, '4C'); // the dealer draws once more, after standing
      assert.equal(t.table.reads.holdState()?.reason, 'extra-card');
      const offered = t.table.reads.holdState()?.corrections.map((c) => [c.correction, 'rule' in c ? c.rule : null]);
      assert.deepEqual(offered, [['undue-card', 'macau-2009 art.6 1)']]);
      assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(t.table.reads.holdState(), null);
      const fixed = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual([fixed?.correction, fixed?.article, fixed?.card], ['undue-card', 'macau-2009 art.6 1)', '4C']);
      assert.equal(t.ledger.credit(1), 90_000, 'the settled round is not touched');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('the void is the last resort: cards read after the error rule a correction out, and the void says so with its article', () => {
    const t = dealtEleven();
    try {
      cards(t, '9C 3D'); // a card drawn out of turn, then another during the hold
      assert.match(JSON.stringify(t.table.supervisor.correct('misdrawn-card', 'sup-1', 'wit-2')), /more card\(s\) left the shoe during the hold/);
      assert.deepEqual(t.table.supervisor.voidRound('cards drawn on after the error', ['sup-1', 'wit-2']), { ok: true });
      const v = payloadsOf(t, 'round.void')[0];
      assert.deepEqual([v?.uncorrectable, v?.rule], ['cards-after-error', 'macau-2009 art.5 n.1 2)']);
      assert.equal(t.ledger.credit(1), 100_000, 'every bet returned');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('dealing-error corrections: Portugal 2001 rules 17–19', () => {
  it('rule 18: a misdrawn card goes to the next player who asks', () => {
    const t = dealtEleven('portugal-2001');
    try {
      cards(t, '9C');
      const offered = t.table.reads.holdState()?.corrections.map((c) => [c.correction, 'rule' in c ? c.rule : null]);
      assert.deepEqual(offered, [
        ['misdrawn-card', 'portugal-2001 rule 18'],
        ['undue-card', 'portugal-2001 rule 18'],
      ]);
      assert.deepEqual(t.table.supervisor.correct('misdrawn-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(decide(t, 'hit').ok, true);
      assert.equal(decide(t, 'stand').ok, true);
      cards(t, 'TH'); // the dealer's 13 busts
      assert.equal(t.table.reads.view().phase, 'results');
      assert.deepEqual(t.table.reads.view().hands.find((h) => h.owner === 'seat')?.cards, ['5S', '6D', '9C'], 'the kept card went to the player who asked');
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(misreads(t).find((m) => m.resolution === 'corrected')?.article, 'portugal-2001 rule 18');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it("rule 17: the dealer's second card turned face up goes to the discards and another is drawn; rule 19: a card drawn after the dealer's 17 does not count", () => {
    const t = dealtEleven('portugal-2001');
    try {
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      const offered = t.table.reads.holdState()?.corrections.map((c) => [c.correction, 'rule' in c ? c.rule : null]);
      assert.deepEqual(offered, [['exposed-card', 'portugal-2001 rule 17']]);
      assert.deepEqual(t.table.supervisor.correct('exposed-card', 'sup-1', 'wit-2'), { ok: true });
      cards(t, 'TC'); // the dealer's new second card, face down: 6 + 10 = 16
      assert.equal(decide(t, 'hit').ok, true); // rule 18: no standing on 11
      cards(t, 'TD'); // seat 1: 21
      cards(t, 'AS'); // the dealer's 17: stands
      assert.equal(t.table.reads.view().phase, 'results');
      assert.deepEqual(t.table.reads.view().hands.find((h) => h.owner === 'dealer')?.cards, ['6H', 'TC', 'AS'], "the turned 7C is not in the dealer's hand");
      assert.equal(t.ledger.credit(1), 110_000);
      cards(t, '4C'); // drawn after the 17
      assert.equal(t.table.reads.holdState()?.reason, 'extra-card');
      assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
      assert.deepEqual(
        misreads(t)
          .filter((m) => m.resolution === 'corrected')
          .map((m) => [m.correction, m.article, m.card]),
        [
          ['exposed-card', 'portugal-2001 rule 17', '7C'],
          ['undue-card', 'portugal-2001 rule 19', '4C'],
        ],
      );
      assert.equal(t.ledger.credit(1), 110_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});

describe('dealing-error corrections: «Desafio ao Casino» Art. 6 and baccarat', () => {
  it('war: a card to the wrong hand is corrected at once; an exposed card is no error (the card stands, Art. 3)', () => {
    const t = testTable({ game: 'war' });
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      cards(t, '9S');
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      const exposed = t.table.reads.holdState()?.corrections.find((c) => c.correction === 'exposed-card');
      assert.ok(exposed && 'forbiddenBy' in exposed, 'the exposed card is listed as no correction, with the article that keeps it');
      assert.match(JSON.stringify(t.table.supervisor.correct('exposed-card', 'sup-1', 'wit-2')), /the text keeps the card/);
      assert.deepEqual(t.table.supervisor.correct('wrong-hand', 'sup-1', 'wit-2'), { ok: true });
      cards(t, '5C');
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 60_000);
      assert.match(String(misreads(t).find((m) => m.resolution === 'corrected')?.article), /^macau-war \[art\.6\]/);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('war Art. 3: a card come out face up is valid with its bet: the coup goes on (not voided), settled and recalled with the article', () => {
    const t = testTable({ game: 'war' });
    try {
      credit(t.ledger, 1, 50_000);
      assert.equal(t.table.commands.placeBet(1, { bet: 'main' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      // The player's card comes out of the shoe face up: the dealer stops the coup.
      cards(t, '9S');
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      const offered = t.table.reads.holdState()?.corrections.find((c) => c.correction === 'exposed-card-stands');
      assert.deepEqual(offered, { correction: 'exposed-card-stands', holds: ['dealing-error'], rule: 'macau-war [art.3]' });
      assert.match(JSON.stringify(t.table.supervisor.correct('exposed-card-stands', 'sup-1', 'sup-1')), /someone other than the supervisor/);
      assert.deepEqual(t.table.supervisor.correct('exposed-card-stands', 'sup-1', 'wit-2'), { ok: true });
      // The card stands where it was dealt: the croupier's 5C next, the player's 9 wins 1:1.
      cards(t, '5C');
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 60_000);
      const done = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual([done?.correction, done?.article, done?.card], ['exposed-card-stands', 'macau-war [art.3]', '9S']);
      const [round] = t.ledger.rounds.recall({ station: 1 });
      assert.deepEqual(round?.status, 'settled');
      assert.deepEqual(
        round?.corrections?.map((c) => [c.correction, c.article, c.card]),
        [['exposed-card-stands', 'macau-war [art.3]', '9S']],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('baccarat Art. 4: a card come out face up stays valid and the coup goes on, settled and recalled with the article', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      credit(t.ledger, 1, 50_000);
      burnShoeStart(t);
      assert.equal(t.table.commands.placeBet(1, { bet: 'banker' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      // The player's first card comes out face up: the dealer stops the coup.
      cards(t, '7S');
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      assert.deepEqual(t.table.reads.holdState()?.corrections, [{ correction: 'exposed-card-stands', holds: ['dealing-error'], rule: 'macau-baccarat art.4' }]);
      // Taking the card back (blackjack's exposed-card) is not what the text orders here.
      assert.match(JSON.stringify(t.table.supervisor.correct('exposed-card', 'sup-1', 'wit-2')), /orders no exposed-card correction/);
      assert.match(JSON.stringify(t.table.supervisor.correct('exposed-card-stands', 'sup-1', 'sup-1')), /someone other than the supervisor/);
      assert.deepEqual(t.table.supervisor.correct('exposed-card-stands', 'sup-1', 'wit-2'), { ok: true });
      // The coup goes on from the card after it: P 7S 2D = 9, B 2H 3C = 5 → player wins.
      cards(t, '2H 2D 3C');
      assert.equal(t.table.reads.view().phase, 'results');
      assert.equal(t.ledger.credit(1), 40_000);
      const done = misreads(t).find((m) => m.resolution === 'corrected');
      assert.deepEqual([done?.correction, done?.article, done?.card], ['exposed-card-stands', 'macau-baccarat art.4', '7S']);
      const [round] = t.ledger.rounds.recall({ station: 1 });
      assert.deepEqual(
        round?.corrections?.map((c) => [c.correction, c.article, c.card]),
        [['exposed-card-stands', 'macau-baccarat art.4', '7S']],
      );
      assert.deepEqual(round?.status, 'settled');
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it('baccarat: what the text does not cover (a card to the wrong box) has no correction: the void cites none and says why', () => {
    const t = testTable({ game: 'baccarat' });
    try {
      credit(t.ledger, 1, 50_000);
      burnShoeStart(t);
      assert.equal(t.table.commands.placeBet(1, { bet: 'banker' }, 10_000).ok, true);
      t.clock.runOut(t.table.reads.view().endsAt);
      cards(t, '9S');
      assert.deepEqual(t.table.supervisor.reportDealingError('sup-1'), { ok: true });
      assert.match(JSON.stringify(t.table.supervisor.correct('wrong-hand', 'sup-1', 'wit-2')), /orders no wrong-hand correction/);
      assert.deepEqual(t.table.supervisor.voidRound('card to the wrong box', ['sup-1', 'wit-2'], 'no-correction-in-text'), { ok: true });
      const v = payloadsOf(t, 'round.void')[0];
      assert.deepEqual([v?.uncorrectable, v?.rule], ['no-correction-in-text', undefined]);
      assert.equal(t.ledger.credit(1), 50_000);
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });
});
