import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createI18n } from '../../../locales/i18n.js';
import { citationWords } from '../../../locales/citation.js';
import { choiceWords } from '../../../locales/rule-choice.js';
import { choicesLine, correctionLine, correctionsOmittedLine, roundsOmittedLine, rulesLine } from './recall-rules.js';

describe("the player's recall: the authorisation a round was played under (issue 51)", () => {
  it('says the reference and its effective day, or a demonstration table, in each language, no key raw', () => {
    for (const language of ['zh-Hant', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const live = rulesLine(t, { reference: 'DICJ-2026-0042', effective: '2026-01-02', demonstration: false }) ?? '';
      assert.ok(live.includes('DICJ-2026-0042') && live.includes('2026-01-02'), `${language}: ${live}`);
      const demo = rulesLine(t, { demonstration: true }) ?? '';
      const none = rulesLine(t, { demonstration: false }) ?? '';
      for (const line of [live, demo, none]) assert.doesNotMatch(line, /recall\.|\{\{/, `${language}: ${line}`);
      assert.notEqual(demo, none);
      assert.equal(rulesLine(t, undefined), null, 'a round older than the record says nothing');
    }
    const en = createI18n('en');
    assert.equal(
      rulesLine(en.t.bind(en), { reference: 'DICJ-2026-0042', effective: '2026-01-02', demonstration: false }),
      'Rules authorised under DICJ-2026-0042, in effect from 2026-01-02',
    );
  });
});

// The player's recall said a corrected dealing error's article as the engine writes it
// (`macau-2009 art.5 n.1 1)`), whatever the language.
describe("the player's recall: a dealing error corrected in the round", () => {
  it('says the correction and the article it was made under in words, the text by its name', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const line = correctionLine(t, { correction: 'exposed-card', card: 'KH', article: 'macau-2009 art.5 n.1 1)' });
      assert.doesNotMatch(line, /macau-2009|art\.\d|n\.\d|recall\.|\{\{/, `${language}: ${line}`);
      assert.ok(line.includes(citationWords(t, 'macau-2009 art.5 n.1 1)')) && line.includes('KH'), `${language}: ${line}`);
      assert.ok(line.includes(t('service.correction.exposed-card')), `${language}: ${line}`);
    }
  });
});

// The player's recall said the rule options a line was settled under as the engine writes them
// (`Settled under surrender=none, dealProcedure=macau-3`), whatever the language.
describe("the player's recall: the rule options a line was settled under", () => {
  it('says each option by its name and its value in words, with the authorisation', () => {
    const choices = ['surrender=none', 'dealProcedure=macau-3', 'payouts.tie.win=9', 'doubleAfterSplit=false'];
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const line = choicesLine(t, { choices, authorisation: 'DICJ-2026-0042' }) ?? '';
      assert.doesNotMatch(line, /=|dealProcedure|macau-3|payouts|doubleAfterSplit|recall\.|ruleChoice\.|\{\{/, `${language}: ${line}`);
      if (language !== 'en') assert.doesNotMatch(line, /surrender|none/, `${language}: ${line}`);
      for (const c of choices) assert.ok(line.includes(choiceWords(t, c)), `${language}: ${c} in ${line}`);
      assert.ok(line.includes('DICJ-2026-0042'), `${language}: ${line}`);
      if (language.startsWith('zh')) assert.doesNotMatch(line.replace('DICJ-2026-0042', ''), /[A-Za-z]{2,}/, `${language}: ${line}`);
    }
    const en = createI18n('en');
    assert.equal(choicesLine(en.t.bind(en), {}), null, 'a line the defaults decided says nothing');
  });
});

// The corrections past the recall's 16 were left out unsaid: the player is told how many.
describe("the player's recall: a round with more corrections than it carries", () => {
  it('says how many it leaves out, in each language, and nothing when none', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const line = correctionsOmittedLine(t, { correctionsOmitted: 37 }) ?? '';
      assert.ok(line.includes('37'), `${language}: ${line}`);
      assert.doesNotMatch(line, /recall\.|\{\{/, `${language}: ${line}`);
      assert.equal(correctionsOmittedLine(t, {}), null);
    }
  });
});

// A recall of ten rounds at their largest is past one host message: the host leaves the oldest out
// (host/screens/recall.ts fitRecall) and says how many; the player is told so under the list.
describe("the player's recall: its oldest rounds left out to fit its message", () => {
  it('says how many, in each language, and nothing when none', () => {
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      for (const n of [1, 3]) {
        const line = roundsOmittedLine(t, { rounds: 10 - n, version: 4, omitted: n }) ?? '';
        assert.ok(line.includes(String(n)), `${language}: ${line}`);
        assert.doesNotMatch(line, /recall\.|\{\{/, `${language}: ${line}`);
      }
      assert.equal(roundsOmittedLine(t, { rounds: 10, version: 4 }), null);
      assert.equal(roundsOmittedLine(t, undefined), null);
    }
  });
});
