import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { cardCode, RANKS, SUITS } from '../engine/cards/card.js';

const deck = RANKS.flatMap((rank) => SUITS.map((suit) => cardCode({ rank, suit })));

function sim(args: string[]): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'sim', ...args], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('sim: --removed that leaves too few cards', () => {
  it('is a usage error (exit 2, one line), not a crash', () => {
    const b = sim(['baccarat', '--rules', 'generic', '--decks', '1', '--exact', '--removed', deck.slice(0, 48).join(' ')]);
    assert.equal(b.status, 2, b.stderr);
    assert.match(b.stderr, /^sim baccarat: --removed: a coup may need 6 cards; the shoe has 4\n/);
    const w = sim(['war', '--decks', '1', '--exact', '--removed', deck.join(' ')]);
    assert.equal(w.status, 2, w.stderr);
    assert.match(w.stderr, /^sim war: --removed: a war needs 10 cards; the shoe has 0\n/);
  });
});
