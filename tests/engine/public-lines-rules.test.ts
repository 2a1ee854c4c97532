import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResultLine } from '../../protocol/index.js';
import { PUBLIC_LINES, RULES_SEVERAL, publicLines, type ResultLineView } from '../../engine/table/public-lines.js';

// Past PUBLIC_LINES the lines behind a seat's hand are summed into one. Lines settled under
// different rules (a hand's bettors behind: one took even money, one did not; a win and a five-card
// half pay) made the sum's rule the first's, cut to 120 characters, and ' · …': it read as citing
// the first line's article for lines settled under others, and a long citation was cut mid-article.
const line = (hand: number, owner: 'seat' | 'behind', rule: string, net = 100): ResultLineView => ({
  seat: 1,
  bet: 'main',
  hand,
  stake: 100,
  net,
  rule,
  owner,
});

/** The seat's own line and nine lines behind each of `hands` hands: past PUBLIC_LINES. */
function round(hands: number, behind: (hand: number, i: number) => string): ResultLineView[] {
  const out: ResultLineView[] = [];
  for (let h = 0; h < hands; h++) {
    out.push(line(h, 'seat', 'macau-2009 art.17 n.1'));
    for (let i = 0; i < 9; i++) out.push(line(h, 'behind', behind(h, i)));
  }
  assert.ok(out.length > PUBLIC_LINES);
  return out;
}

const sums = (lines: ResultLineView[]) => lines.filter((l) => l.owner === 'behind');

describe('lines behind summed past PUBLIC_LINES, settled under different rules', () => {
  it('say every distinct rule whole when they fit the line, in the order first met', () => {
    const rules = ['macau-2009 art.17 n.1', 'macau-2009 art.19', 'macau-2009 art.17 n.3'];
    const shown = publicLines(round(41, (_h, i) => rules[i % 3]!));
    for (const l of sums(shown)) {
      assert.equal(l.rule, rules.join(' · '));
      assert.equal(ResultLine.safeParse(l).success, true);
    }
  });

  it('past the line, say several rules by the marker, never one of them nor a citation cut short', () => {
    const long = (i: number) => `macau-2009 art.17 n.${i + 1}, n.${i + 2}; art.18 n.2 (a reading of the text awaiting the regulator: ${i})`;
    const shown = publicLines(round(41, (_h, i) => long(i)));
    for (const l of sums(shown)) {
      assert.equal(l.rule, RULES_SEVERAL);
      assert.equal(ResultLine.safeParse(l).success, true);
    }
  });

  it('keep the one rule all of them were settled under', () => {
    const shown = publicLines(round(41, () => 'macau-2009 art.19'));
    for (const l of sums(shown)) assert.equal(l.rule, 'macau-2009 art.19');
  });
});
