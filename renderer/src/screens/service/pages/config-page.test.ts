import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { citationWords } from '../../../../../locales/citation.js';
import { createI18n } from '../../../../../locales/i18n.js';
import { pageContent } from '../page-content.js';
import { INITIAL_CHOICES } from './choices.js';
import type { ConfigPageData } from './config-page-data.js';
import { NO_ACTIONS, signedInService } from './page-test-kit.js';

const none = NO_ACTIONS;

const page: ConfigPageData = {
  page: 'config',
  items: [
    { key: 'rules.fiveCardHalfPay', value: 'true', article: 'macau-2009 art.19', editable: true, optionClass: 'fixed', default: 'true' },
    { key: 'rules.surrender', value: '"not-vs-ace"', article: 'macau-2009 art.18 n.1', editable: true, optionClass: 'waivable', default: '"not-vs-ace"' },
  ],
  notes: [],
  bets: [],
  queued: [],
  changes: [],
};

// The Configuration page and its rule options' editor named each option's article as the engine
// writes it (`macau-2009 art.18 n.1`) while the Holds page, recall and the refusals said it in words.
describe("the Configuration page: each rule option's article", () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: is said in words in the list and in the rule options' editor`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'supervisor', { name: 'Ana', staff: '1001' });
      for (const choices of [INITIAL_CHOICES, { ...INITIAL_CHOICES, ruleEdit: { index: 1, value: null } }]) {
        const { rows } = pageContent(state, page, t, choices, none);
        const text = rows.map((x) => x.trim()).join('');
        assert.doesNotMatch(text, /macau-2009|art\.\d|n\.\d/, `${language}: ${text}`);
        for (const item of page.items) {
          const words = citationWords(t, item.article!).replace(/\s/g, '');
          assert.ok(text.replace(/\s/g, '').includes(words), `${language}: ${words} in ${text}`);
        }
      }
    });
  }
});

// The list and the rule options' editor named each option and its value as the engine writes them
// (`rules.surrender`, `"not-vs-ace"`, `fiveCardHalfPay = true`) in every language, while a recall
// said the same choices in words (ruleChoice.*).
describe("the Configuration page: each rule option's name and value", () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: are said in words in the list and in the rule options' editor`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'supervisor', { name: 'Ana', staff: '1001' });
      const editing = { ...INITIAL_CHOICES, ruleEdit: { index: 1, value: '"none"' } };
      for (const choices of [INITIAL_CHOICES, editing]) {
        const { rows } = pageContent(state, page, t, choices, none);
        const text = rows.map((x) => x.trim()).join(' ');
        assert.doesNotMatch(text, /fiveCardHalfPay|not-vs-ace|rules\.|"/, `${language}: ${text}`);
        for (const words of [t('ruleChoice.option.fiveCardHalfPay'), t('ruleChoice.option.surrender'), t('ruleChoice.value.not-vs-ace'), t('ruleChoice.yes')])
          assert.ok(text.includes(words), `${language}: ${words} in ${text}`);
        if (choices === editing) assert.ok(text.includes(t('ruleChoice.value.none')), `${language}: the value chosen in words: ${text}`);
      }
    });
  }
});
