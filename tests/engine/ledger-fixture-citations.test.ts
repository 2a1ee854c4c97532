// The ledger's fixture round (ledger/fixtures.ts settledRound: `etg ledger demo`, the benches and
// many tests journal it) is written by hand, as the ledger may not import the engine's values
// (eslint.config.js, layering). Its five outcomes must say what the engine itself says for the
// same result: the same net and the same citation (engine/blackjack/refs.ts). A review found all
// but one citing the wrong article (art.12 is insurance, art.16 splits).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ref, type RefKey } from '../../engine/blackjack/refs.js';
import { mainNet } from '../../engine/blackjack/settle/main-bet.js';
import type { NewEntry } from '../../ledger/entries.js';
import { settledRound } from '../../ledger/fixtures.js';

/** The fixture's outcomes in its order: win 3:2 Black Jack, lose, push, win 1:1, surrender. */
const KEYS: readonly RefKey[] = ['blackjack', 'lose', 'push', 'win', 'surrender'];

function settlement(e: NewEntry) {
  assert.ok(e.type === 'round.settle');
  return e.payload;
}

describe('ledger fixture round: its lines say what the engine says', () => {
  for (const stake of [1_000, 1_001, 3]) {
    it(`each outcome's net and citation are the engine's (stake ${stake})`, () => {
      const { settle } = settledRound('R1', [1, 2, 3, 4, 5], stake);
      const payload = settlement(settle);
      assert.equal(payload.profile, 'macau-2009');
      assert.deepEqual(
        payload.lines.map((l) => ({ net: l.net, rule: l.rule })),
        KEYS.map((k) => ({ net: mainNet(k, stake), rule: ref('macau-2009', k) })),
      );
    });
  }

  it('an offset cycles the same five outcomes', () => {
    const { settle } = settledRound('R2', [1, 2, 3, 4, 5, 6, 7], 1_000, 2);
    const rules = settlement(settle).lines.map((l) => l.rule);
    assert.deepEqual(
      rules,
      [2, 3, 4, 0, 1, 2, 3].map((i) => ref('macau-2009', KEYS[i] as RefKey)),
    );
  });
});
