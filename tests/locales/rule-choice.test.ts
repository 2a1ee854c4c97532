import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACCARAT_PROFILES } from '../../engine/baccarat/profiles.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { playedOptions } from '../../engine/games.js';
import { choiceMarker } from '../../engine/table/rule-options.js';
import { WAR_PROFILES } from '../../engine/war/profiles.js';
import { createI18n } from '../../locales/i18n.js';
import { choiceWords } from '../../locales/rule-choice.js';
import type { MessageKey } from '../../locales/i18n.js';
import { saidWords } from '../../locales/said.js';

/** Every marker a settlement line can carry: each option of each game's profiles with each value it offers or takes. */
function markers(): string[] {
  const out = new Set<string>();
  const games = [
    ['blackjack', PROFILE_IDS],
    ['baccarat', Object.keys(BACCARAT_PROFILES)],
    ['war', Object.keys(WAR_PROFILES)],
  ] as const;
  for (const [game, profiles] of games)
    for (const profile of profiles) {
      const played = playedOptions(game, profile, {});
      for (const info of played.infos) {
        const values = [info.default, ...info.alternatives.map((a) => a.value), ...(played.offered[info.key] ?? [])];
        for (const value of values) out.add(choiceMarker(info.key, value));
      }
    }
  return [...out].sort();
}

describe("a rule option a line was settled under, in the reader's language (ruleChoice.*)", () => {
  it('names every option and value the engines offer with no code left; in Chinese no Latin word', () => {
    const all = markers();
    assert.ok(all.length > 100, String(all.length));
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      for (const marker of all) {
        const said = choiceWords(t, marker);
        const [option = '', value = ''] = marker.split('=');
        assert.ok(!said.includes('ruleChoice.') && !said.includes('=') && !said.includes(marker), `${language}: ${marker} → ${said}`);
        // English names an option by words that can be its code's (`decks`); the others never by its code.
        if (language !== 'en') assert.ok(!said.includes(option), `${language}: ${marker} → ${said}`);
        if (/^[a-z]+(?:-[a-z0-9]+)+$/.test(value)) assert.ok(!said.includes(value), `${language}: ${marker} → ${said}`);
        if (language.startsWith('zh')) assert.doesNotMatch(said.replace(/Portaria|Black Jack/g, ''), /[A-Za-z]{2,}/, `${language}: ${marker} → ${said}`);
      }
    }
  });

  it('shows a marker it cannot name as recorded, and says so', () => {
    const i18n = createI18n('zh-Hant');
    const t = i18n.t.bind(i18n);
    for (const marker of ['newOption=x', 'surrender=someday', 'surrender', '__proto__=1', 'payouts.tie.win={"a":1}']) {
      const said = choiceWords(t, marker);
      assert.ok(said.includes(marker) && said !== marker, `${marker} → ${said}`);
    }
  });
});

// A rule option the engine's guard refused was said with the option, its value and what the text
// allows as the engine writes them (`evenMoney = "none" refused: the text fixes it at "full"`) in
// every language, while the Configuration page and a recall name the same option and values in words.
describe("a rule option refused (service.ruleRefusal.*), in the reader's language", () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const)
    it(`${language}: names the option, the value and what is allowed in words; an unknown one as it came`, () => {
      const i18n = createI18n(language);
      const t = (key: MessageKey, options: Record<string, unknown>) => i18n.t(key, options);
      const fixed = saidWords(t, {
        key: 'service.ruleRefusal.fixed',
        values: { option: 'evenMoney', value: '"none"', article: 'macau-2009 art.16', allowed: '"full"' },
      });
      const offered = saidWords(t, {
        key: 'service.ruleRefusal.not-offered',
        values: { option: 'surrender', value: '"late"', article: 'macau-2009 art.18 n.1', allowed: '"not-vs-ace", "none"' },
      });
      const range = saidWords(t, { key: 'service.ruleRefusal.out-of-range-no-article', values: { option: 'decks', value: '9', allowed: '1–8' } });
      const unknown = saidWords(t, {
        key: 'service.ruleRefusal.unknown-option',
        values: { option: 'newerOption', value: '"x-y"', article: 'macau-2009 art.1' },
      });
      for (const [text, words] of [
        [fixed, [t('ruleChoice.option.evenMoney', {}), t('ruleChoice.value.none', {}), t('ruleChoice.value.full', {})]],
        [offered, [t('ruleChoice.option.surrender', {}), t('ruleChoice.value.late', {}), t('ruleChoice.value.not-vs-ace', {})]],
        [range, [t('ruleChoice.option.decks', {}), '9', '1–8']],
        [unknown, ['newerOption']],
      ] as const)
        for (const w of words) assert.ok(text.includes(w), `${language}: ${w} in ${text}`);
      for (const text of [fixed, offered, range]) assert.doesNotMatch(text, /"|evenMoney|not-vs-ace/, `${language}: ${text}`);
    });
});
