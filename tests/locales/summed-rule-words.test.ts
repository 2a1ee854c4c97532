import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RULES_SEVERAL, rulesSaid } from '../../engine/table/public-lines.js';
import { citationWords } from '../../locales/citation.js';
import { createI18n } from '../../locales/i18n.js';

// Lines summed into one (the public round past PUBLIC_LINES, a station's recall past its cap) say
// each distinct rule they were settled under, or, when those do not fit one line, RULES_SEVERAL.
// A screen citing such a line says each rule in words, or that several rules applied: never the
// marker as recorded, never the first rule as if it were the line's only one.
describe('a summed line’s rule in the reader’s words', () => {
  for (const language of ['en', 'pt', 'zh-Hant', 'zh-Hans'] as const) {
    const t = createI18n(language).getFixedT(language);
    it(`${language}: several rules by their words, each rule of a list cited`, () => {
      const several = citationWords(t, RULES_SEVERAL);
      assert.equal(several, t('citation.several'));
      assert.notEqual(several, RULES_SEVERAL);
      const a = 'macau-2009 art.17 n.1';
      const b = 'macau-2009 art.19';
      assert.equal(citationWords(t, rulesSaid([a, b, a])), t('citation.also', { first: citationWords(t, a), second: citationWords(t, b) }));
      assert.equal(citationWords(t, rulesSaid([b])), citationWords(t, b));
    });
  }
});
