import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { catalogueOf, languages, screenFailedWords } from '../../locales/index.js';

// A screen that fails to start has no language chosen yet (renderer/src/main.ts): it says so in
// every language the screens offer, each in that language's own words from its catalogue's
// `language` section (which a page holds from the start), not a line written in code that once
// knew three languages and left the Simplified Chinese reader out.
describe("a screen that fails to start says so in every language's words", () => {
  it('one line per language offered, in the order offered, each from its catalogue', () => {
    const lines = screenFailedWords();
    assert.equal(lines.length, languages.length);
    languages.forEach((tag, i) => {
      const own = catalogueOf(tag).language.screenFailed;
      assert.ok(own.trim().length > 0, tag);
      assert.equal(lines[i], own, tag);
    });
    assert.equal(new Set(lines).size, lines.length, 'each language in its own words');
    assert.match(catalogueOf('zh-Hans').language.screenFailed, /无法启动/);
  });

  it('renderer/src/main.ts shows those lines, not words of its own', () => {
    const main = readFileSync(new URL('../../renderer/src/main.ts', import.meta.url), 'utf8');
    assert.match(main, /screenFailedWords\(\)/);
    assert.doesNotMatch(main, /[\u3400-\u9fff]|chame um funcionário|call an attendant/);
  });
});
