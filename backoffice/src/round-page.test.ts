import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RoundEvidence } from './api.js';
import { words } from './i18n.js';
import { roundPage } from './round-page.js';
import { countTag as count, useStubDocument } from './stub-document.js';

useStubDocument();

// A round's record comes from what a table journalled under its id: a table may journal any number
// of bets and decisions under one round. The page passed each list to its element builder as
// spread arguments, and a round of some 150,000 of them threw RangeError (the page said
// "Maximum call stack size exceeded" in place of the round).
describe("a round's recall of a very long round", () => {
  const n = 200_000;
  const evidence: RoundEvidence = {
    kind: 'macau-etg-round-evidence',
    terminalId: 'T1',
    round: {
      roundId: 'T1-r1',
      game: 'baccarat',
      profile: 'standard',
      status: 'settled',
      seq: n + 2,
      ts: '2026-12-06T10:00:00.000Z',
      cards: [],
      decisions: Array.from({ length: n }, (_, i) => ({ seat: 1, action: i % 2 ? 'hit' : 'stand' })),
      bets: Array.from({ length: n }, (_, i) => ({ station: 1, seat: 1, bet: 'player', amount: 100 + i })),
      lines: [],
      credits: [{ station: 1, before: 0, after: 0 }],
      corrections: Array.from({ length: n }, () => ({ correction: 'card', article: 'Art. 6', confirmedBy: ['A', 'B'] })),
      entrySeqs: Array.from({ length: n }, (_, i) => i + 2),
    },
    proof: { links: [] },
    head: { seq: n + 2 },
  };

  it('is shown whole, each bet, decision and correction in its row', () => {
    const page = roundPage(words('en'), evidence, { code: 'MOP', exponent: 2 }, () => {});
    // bets: n rows, credits: 1, and the head row of each (no lines: no table).
    assert.equal(count(page, 'tr'), n + 1 + 2);
    assert.equal(count(page, 'li'), n + n);
  });
});
