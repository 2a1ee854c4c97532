// The report's voids and corrections: the article column holds an article or nothing. A void for a
// device's fault names no rule (terms/round-terms.ts); its reason is the detail. Before, the reason
// stood in the article's column too, where an inspector reads it as the text that decided the void.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { correctionsOf, listedCorrections, type CorrectionRow } from './corrections.js';

const row = (type: string, payload: unknown, voided = false): CorrectionRow => ({
  terminal_id: 'T1',
  seq: 7,
  ts: new Date('2026-11-26T02:00:00.000Z'),
  type,
  payload,
  voided,
});

describe("the day's voids and corrections", () => {
  it('a void under an article names it; its reason is the detail', () => {
    const [line] = correctionsOf([row('round.void', { roundId: 'R1', reason: 'the shoe jammed', rule: 'Art. 28.º, n.º 3' })]);
    assert.equal(line?.article, 'Art. 28.º, n.º 3');
    assert.equal(line?.detail, 'the shoe jammed');
  });

  it("a void for a device's fault names no article: the column is empty, the reason is the detail", () => {
    const [line] = correctionsOf([row('round.void', { roundId: 'R2', reason: 'shoe fault: no card read' })]);
    assert.equal(line?.kind, 'void');
    assert.equal(line?.article, '', 'no reason in the article column');
    assert.equal(line?.detail, 'shoe fault: no card read');
  });

  it('a correction names its article; a hold lifted without one names none', () => {
    const lines = correctionsOf([
      row('misread', { roundId: 'R3', detail: 'card exposed', resolution: 'corrected', correction: 'burn-exposed', article: 'Art. 19.º' }),
      row('misread', { roundId: 'R4', detail: 'extra card', resolution: 'round-void' }),
    ]);
    assert.deepEqual(
      lines.map((l) => [l.kind, l.article]),
      [
        ['corrected', 'Art. 19.º'],
        ['hold-lifted', ''],
      ],
    );
  });

  it("lists at most the cap a table, each table's own, and states the count of each table cut", () => {
    const lines = (terminal: string, n: number) =>
      correctionsOf(Array.from({ length: n }, (_, i) => ({ ...row('round.void', { roundId: `R${i}` }), terminal_id: terminal, seq: i + 1 })));
    const { corrections, cut } = listedCorrections([...lines('A', 5), ...lines('B', 2), ...lines('C', 3)], 3);
    assert.deepEqual(
      corrections.map((c) => `${c.terminalId}${c.seq}`),
      ['A1', 'A2', 'A3', 'B1', 'B2', 'C1', 'C2', 'C3'],
    );
    assert.deepEqual(cut, [{ terminalId: 'A', listed: 3, total: 5 }]);
  });
});
