import assert from 'node:assert/strict';
import { it } from 'node:test';
import { correctionCsvCells } from './corrections.js';
import { words } from './i18n.js';

// A void's line past its misreads' details (the upstream keeps 20): the detail, then how many were
// left out, joined by the language's own separator (the catalogue's), never a code-written '; '.
it("a void's line with details left out says the detail and the count, joined in the reader's language", () => {
  const line = {
    terminalId: 'T1',
    seq: 7,
    ts: '2026-12-07T10:00:00.000Z',
    type: 'round.voided',
    kind: 'error-void' as const,
    roundId: 'R',
    article: 'art. 25',
    detail: 'A♠ read as A♥',
    detailsCut: 5980,
  };
  const cell = (l: 'en' | 'zh-Hant', c: typeof line) => correctionCsvCells(words(l).t, c).at(-1) ?? '';
  assert.match(cell('en', line), /^A♠ read as A♥; .*5980/);
  assert.match(cell('zh-Hant', line), /^A♠ read as A♥；.*5980/);
  assert.doesNotMatch(cell('zh-Hant', line), /; /);
  assert.equal(cell('en', { ...line, detailsCut: 0 }), 'A♠ read as A♥', 'nothing left out: the detail alone');
  assert.doesNotMatch(cell('en', { ...line, detail: '' }), /^;/, 'no detail: the count alone');
});
