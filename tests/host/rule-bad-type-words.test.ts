// A rule option of the wrong type (a burn formula not one of the text's, a count out of its
// bounds, yes/no given as a word) was refused with what it must be in the engine's English,
// ("an integer 1–8", "decks | fixed | none", "true | false") inside every language's sentence.
// It is a key of its own now, the kind said in the reader's words: the bounds as numbers, the
// values a choice takes by their words (ruleChoice.*).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTableOptions } from '../../engine/games.js';
import { ruleSaid } from '../../host/config/refusal-words.js';
import { said as SaidSchema } from '../../terms/said.js';
import { assertWordsEverywhere, wordsIn } from './said-kit.js';

const LANGUAGES = ['en', 'pt', 'zh-Hant', 'zh-Hans'];

function badType(options: Record<string, unknown>) {
  const r = checkTableOptions('baccarat', 'macau-commission', { ...options, authorisation: 'DICJ 1/2026' }, true).find((x) => x.reason === 'bad-type');
  assert.ok(r, JSON.stringify(options));
  return ruleSaid(r, 'MOP');
}

describe("a rule option's bad type is said by key, what it must be in the reader's words", () => {
  it('a count out of its bounds: the bounds as numbers, no English', () => {
    const s = badType({ burn: 'fixed', burnFixedCards: 9 });
    assert.equal(s.key, 'service.ruleRefusal.bad-type-range');
    assert.deepEqual([s.values.min, s.values.max], [1, 8]);
    assert.ok(SaidSchema.safeParse(s).success);
    assertWordsEverywhere(s, 'bad-type-range');
    for (const l of LANGUAGES) assert.doesNotMatch(wordsIn(l, s), /integer/, l);
  });

  it('a choice: each value it takes by its word; yes or no, not "true | false"', () => {
    const choice = badType({ burn: 'all' });
    assert.equal(choice.key, 'service.ruleRefusal.bad-type-choice');
    const flag = badType({ lucky6: 'yes' });
    assert.equal(flag.key, 'service.ruleRefusal.bad-type-choice');
    for (const [s, name] of [
      [choice, 'choice'],
      [flag, 'flag'],
    ] as const) {
      assertWordsEverywhere(s, name);
      for (const l of LANGUAGES) assert.doesNotMatch(wordsIn(l, s), / \| |true|false/, `${name} ${l}: ${wordsIn(l, s)}`);
    }
  });
});
