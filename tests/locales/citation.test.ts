import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BACCARAT_RULES } from '../../engine/baccarat/profiles.js';
import { blackjackCorrections } from '../../engine/blackjack/table-corrections.js';
import { REF_KEYS, ref, stayedOutRef } from '../../engine/blackjack/refs.js';
import { REGULATED_PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { WAR_RULES } from '../../engine/war/profiles.js';
import { RESET_READING } from '../../engine/blackjack/jackpot/program.js';
import { BACCARAT_PROFILES } from '../../engine/baccarat/profiles.js';
import { BACCARAT_MIN_SEATS_RULE } from '../../engine/baccarat/options.js';
import { WAR_PROFILES } from '../../engine/war/profiles.js';
import { WAR_MIN_SEATS_RULE } from '../../engine/war/table-game.js';
import { authorisationArticle } from '../../engine/rule-set.js';
import { PROFILE_IDS } from '../../engine/blackjack/rules.js';
import { citationWords } from '../../locales/citation.js';
import { createI18n } from '../../locales/i18n.js';

/** Every citation a settlement line, a correction or a void of the engines writes. */
function engineCitations(): string[] {
  const out = new Set<string>();
  for (const profile of REGULATED_PROFILE_IDS) {
    for (const key of REF_KEYS) out.add(ref(profile, key));
    for (const [split, double] of [
      [true, false],
      [false, true],
      [true, true],
    ] as const)
      out.add(`${ref(profile, 'win')}; ${stayedOutRef(profile, split, double)}`);
    for (const c of blackjackCorrections(profile)) out.add('rule' in c ? c.rule : c.forbiddenBy);
    if (profile !== 'portugal-2001') out.add(`${profile} art.5 n.1 2)`);
  }
  for (const rule of [...Object.values(BACCARAT_RULES), ...Object.values(WAR_RULES), 'macau-baccarat art.4', 'generic', RESET_READING]) out.add(rule);
  return [...out].sort();
}

/** The names of texts the catalogues keep in their own script in every language, and the texts' subparagraph marks (`ii)`, `b)`). */
const KEPT = /Portaria|Desafio ao Casino|\(?[a-z]{1,4}\)/g;

describe("a citation in the reader's language (a recall's settlement line, correction, void)", () => {
  it('says every citation the engines write with no code left: no art./n./rule, no English reading, in Chinese no Latin word', () => {
    const citations = engineCitations();
    assert.ok(citations.length > 60, String(citations.length));
    for (const language of ['zh-Hant', 'zh-Hans', 'pt'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      for (const rule of citations) {
        const said = citationWords(t, rule);
        assert.doesNotMatch(
          said,
          /\bart\.\d|\[art|\bn\.\d|\bal\.\d|\brules? \d|house reading|our reading|interp:|macau-|portugal-|generic|citation\./,
          `${language}: ${rule} → ${said}`,
        );
        if (language !== 'pt') assert.doesNotMatch(said.replace(KEPT, ''), /[A-Za-z]{2,}/, `${language}: ${rule} → ${said}`);
      }
    }
  });

  it('names the text and each article, number and subparagraph as the texts do', () => {
    const say = (language: 'zh-Hant' | 'zh-Hans' | 'pt' | 'en', rule: string) => {
      const i18n = createI18n(language);
      return citationWords(i18n.t.bind(i18n), rule);
    };
    assert.equal(say('zh-Hant', 'macau-2009 art.13 5)(2) i), art.14 n.5'), '第57/2009號批示第13條5)(2)i)、第14條第5款');
    assert.equal(say('pt', 'macau-2009 art.13 5)(2) i), art.14 n.5'), 'Despacho n.º 57/2009, art. 13.º 5)(2) i), art. 14.º n.º 5');
    assert.equal(say('en', 'portugal-2001 rules 1 b), 23'), 'Portaria 1364/2001, rules 1 b), 23');
    assert.equal(say('zh-Hant', 'portugal-2001 rules 1 b), 23'), 'Portaria 1364/2001規則第1條b)、第23條');
    assert.equal(say('zh-Hans', 'macau-war [art.7] n.5 al.2'), '《Desafio ao Casino》规章（2005年）第7条（条号为重构）第5款第2段');
    assert.equal(
      say('en', 'macau-2009 art.9; art.20 silent, as portugal-2001 rule 30'),
      'Despacho 57/2009, Art. 9; Art. 20 is silent: read as Portaria 1364/2001, rule 30',
    );
    assert.equal(
      say('pt', 'macau-2004 house reading, no article: the dealer over 21 loses'),
      'Despacho Regulamentar Externo n.º 56/2004, interpretação da casa, sem artigo: a banca com mais de 21 pontos perde',
    );
    assert.equal(say('zh-Hant', 'generic'), '無法定規章（分析用）');
  });

  it('shows a citation it cannot read as it was recorded: a text it does not know, a part a newer engine writes', () => {
    const i18n = createI18n('zh-Hant');
    const t = i18n.t.bind(i18n);
    assert.equal(citationWords(t, 'art.12'), 'art.12');
    assert.equal(citationWords(t, 'macau-2030 art.1'), 'macau-2030 art.1');
    // One clause unread stays as written; the others are still said.
    assert.equal(citationWords(t, 'macau-2009 art.9; something new'), '第57/2009號批示第9條；something new');
    assert.equal(citationWords(t, ''), '');
  });

  // The Holds page's corrections and a refused correction named their article as the engine wrote
  // it (`macau-2009 art.5 n.1 1)`) after recall had it in words: the same article, two ways.
  it('is said in words wherever a correction or a refusal names its article (`{{article, citation}}`)', () => {
    const article = 'macau-2009 art.5 n.1 1)';
    const keys = [
      'service.field.correctionOffered',
      'service.field.correctionForbidden',
      'service.done.correct',
      'serviceRefusal.roundCorrectionForbidden',
      'serviceRefusal.roundCardStands',
      'serviceRefusal.jackpotBelowMinimum',
    ] as const;
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const words = citationWords(t, article);
      for (const key of keys) {
        const said = t(key, { correction: 'x', card: '9S', article, to: 1, stake: 1, min: 1, currency: 'MOP' });
        assert.ok(said.includes(words), `${language} ${key}: ${said}`);
        assert.doesNotMatch(said, /art\.5|macau-2009/, `${language} ${key}: ${said}`);
      }
    }
  });

  // The rule record on the Recall page, a rule option refused on the Configuration page and a
  // configuration refused for its authorisation or its limits named their article as the engine
  // writes it (`macau-2009 art.21 n.1`) beside the Holds page's words (6988a1fe).
  it('is said in words in the rule record and wherever a rule option or a configuration is refused for its article', () => {
    const article = 'macau-2009 art.21 n.1';
    const keys = [
      'service.field.ruleRecord',
      'service.ruleRefusal.shoe-end-with-stakes',
      'service.ruleRefusal.fixed',
      'service.ruleRefusal.not-offered',
      'service.ruleRefusal.out-of-range',
      'service.ruleRefusal.needs-authorisation',
      'service.ruleRefusal.inconsistent',
      'configRefusal.noReference',
      'configRefusal.noEffective',
      'configRefusal.notYetEffective',
      'configRefusal.sameReference',
      'configRefusal.limitSeats',
      'configRefusal.limitSpreadTable',
      'configRefusal.limitSpreadMain',
      'configRefusal.limitSpreadBehind',
    ] as const;
    const values = { option: 'o', value: 'v', allowed: 'a', digest: 'd', reference: 'r', effective: 'e', recorded: 'x', game: 'g', profile: 'p' };
    for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const words = citationWords(t, article);
      for (const key of keys) {
        const said = t(key, { ...values, article, rule: article, seats: 7, has: 6, max: 1, min: 1, times: 30, currency: 'MOP' });
        assert.ok(said.includes(words), `${language} ${key}: ${said}`);
        assert.doesNotMatch(said, /art\.21|macau-2009/, `${language} ${key}: ${said}`);
      }
    }
  });

  it("says the article of every rule set's authorisation and every seat count with no code left", () => {
    const articles = new Set<string>([BACCARAT_MIN_SEATS_RULE, WAR_MIN_SEATS_RULE]);
    for (const p of PROFILE_IDS) articles.add(authorisationArticle('blackjack', p));
    for (const p of Object.keys(BACCARAT_PROFILES)) articles.add(authorisationArticle('baccarat', p));
    for (const p of Object.keys(WAR_PROFILES)) articles.add(authorisationArticle('war', p));
    for (const language of ['zh-Hant', 'zh-Hans', 'pt'] as const) {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      for (const rule of articles) {
        const said = citationWords(t, rule);
        assert.doesNotMatch(
          said,
          /\bart\.\d|\[art|\bn\.\d|\brules? \d|house reading|authorisation|Despacho of|macau-|portugal-/,
          `${language}: ${rule} → ${said}`,
        );
        if (language !== 'pt') assert.doesNotMatch(said.replace(KEPT, ''), /[A-Za-z]{2,}/, `${language}: ${rule} → ${said}`);
      }
    }
  });
});
