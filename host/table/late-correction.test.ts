import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../engine/cards/card.js';
import { evidenceBundle, verifyEvidence, verifyLedger } from '../../ledger/index.js';
import { pendingTableHold } from '../../ledger/floor-queries.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

// Issue 33 item 6: a dealing error corrected after its round settled — a card the dealer draws
// after standing (Macau 2009 Art. 6 1), Portugal rule 19) — belongs to that round: the correction
// carries the round's id and shows in that round's recall and in its evidence bundle.

function cards(t: TestTable, codes: string): void {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
}

function burnShoeStart(t: TestTable): void {
  for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
}

const decide = (t: TestTable, action: 'stand' | 'hit') => submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action }));

/** Seat 1 against the dealer's 6 + 10 + ace (17): the round settles (Macau: 11 loses; Portugal: 21 wins), the results show. */
function settledRound(profile: 'macau-2009' | 'portugal-2001'): { t: TestTable; roundId: string } {
  const t = testTable({ game: 'blackjack', config: { profile } });
  credit(t.ledger, 1, 100_000);
  burnShoeStart(t);
  assert.deepEqual(t.table.commands.placeBet(1, { bet: 'main' }, 10_000), { ok: true });
  t.clock.runOut(t.table.reads.view().endsAt);
  const roundId = t.table.reads.view().roundId;
  assert.ok(roundId);
  if (profile === 'portugal-2001') {
    // Rule 18: no standing on 11; the hit makes 21; the dealer's 6 + 10 draws the ace: 17.
    cards(t, '5S 6H 6D TC');
    assert.equal(decide(t, 'hit').ok, true);
    cards(t, 'TD AS');
  } else {
    cards(t, '5S 6H 6D');
    assert.equal(decide(t, 'stand').ok, true);
    cards(t, 'TH AS');
  }
  assert.equal(t.table.reads.view().phase, 'results');
  assert.equal(t.ledger.rounds.record(roundId)?.status, 'settled');
  return { t, roundId };
}

describe('a correction made after its round settled (Macau 2009 Art. 6 1), Portugal rule 19)', () => {
  for (const [profile, article] of [
    ['macau-2009', 'macau-2009 art.6 1)'],
    ['portugal-2001', 'portugal-2001 rule 19'],
  ] as const) {
    it(`${profile}: carries its round's id and shows in that round's recall and evidence bundle`, () => {
      const { t, roundId } = settledRound(profile);
      try {
        cards(t, '4C'); // the dealer draws once more, after standing
        assert.equal(t.table.reads.holdState()?.reason, 'extra-card');
        assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
        const entries = [...t.ledger.entries(1)].filter((e) => e.type === 'misread');
        const payloads = entries.map((e) => (JSON.parse(e.body) as { payload: Record<string, unknown> }).payload);
        // The hold and its correction are the settled round's.
        assert.deepEqual(
          payloads.map((p) => [p.resolution, p.roundId]),
          [
            ['pending', roundId],
            ['corrected', roundId],
          ],
        );
        const corrected = entries.at(-1);
        assert.ok(corrected);
        // Recall: the round's record lists the correction, with its article and card.
        const [recalled] = t.ledger.rounds.recall({ station: 1 });
        assert.equal(recalled?.roundId, roundId);
        assert.deepEqual(
          recalled?.corrections?.map((c) => [c.correction, c.article, c.card, c.seq]),
          [['undue-card', article, '4C', corrected.seq]],
        );
        // The evidence bundle of the round holds the entry and proves it; it still verifies.
        const bundle = evidenceBundle(t.ledger, roundId);
        assert.ok(bundle);
        assert.ok(bundle.entries.some((e) => e.seq === corrected.seq));
        assert.deepEqual(
          bundle.round.corrections?.map((c) => c.seq),
          [corrected.seq],
        );
        assert.deepEqual(verifyEvidence(bundle), { ok: true, problems: [] });
        assert.equal(t.ledger.credit(1), profile === 'macau-2009' ? 90_000 : 110_000, 'the settled round is not touched');
        assert.equal(verifyLedger(t.ledger).ok, true);
      } finally {
        t.close();
      }
    });
  }

  it("a hold in a settled round's results is still found after a restart until it is lifted", () => {
    const { t, roundId } = settledRound('macau-2009');
    try {
      cards(t, '4C');
      const pending = pendingTableHold(t.ledger);
      assert.equal(pending?.reason, 'extra-card');
      assert.equal(pending?.card, '4C');
      assert.deepEqual(t.table.supervisor.correct('undue-card', 'sup-1', 'wit-2'), { ok: true });
      assert.equal(pendingTableHold(t.ledger), null);
      assert.equal(t.ledger.rounds.record(roundId)?.corrections?.length, 1);
    } finally {
      t.close();
    }
  });
});
