import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceState } from '../../../../../protocol/index.js';
import { citationWords } from '../../../../../locales/citation.js';
import { choiceWords } from '../../../../../locales/rule-choice.js';
import { createI18n } from '../../../../../locales/i18n.js';
import { pageContent } from '../page-content.js';
import { INITIAL_CHOICES } from './choices.js';
import { NO_ACTIONS, signedInService } from './page-test-kit.js';

const none = NO_ACTIONS;

const round = (status: 'settled' | 'void') => ({
  roundId: 'R-7',
  status,
  seq: 7,
  ts: '2026-01-01T00:00:00.000Z',
  game: 'blackjack',
  profile: 'macau-2009',
  cards: [{ card: 'AS', to: 'dealer' }],
  decisions: [],
  bets: [{ station: 1, seat: 1, bet: 'main', amount: 10_000 }],
  lines: [
    {
      station: 1,
      seat: 1,
      bet: 'main',
      stake: 10_000,
      net: 15_000,
      rule: 'macau-2009 art.10 n.2',
      choices: ['dealProcedure=macau-3', 'surrender=none', 'doubleAfterSplit=false'],
      authorisation: 'DICJ-2026/9',
    },
  ],
  corrections: [{ correction: 'exposed-card' as const, article: 'macau-2009 art.5 n.1 1)', card: 'KH', confirmedBy: ['Ana', 'Bo'] }],
  rules: { reference: 'DICJ-2026/9', effective: '2026-01-01', digest: 'a'.repeat(64), article: 'macau-2009 art.21 n.1', demonstration: false },
  ...(status === 'void'
    ? { reason: 'x', authorisedBy: ['Ana', 'Bo'], uncorrectable: 'no-correction-in-text' as const, voidRule: 'macau-2009 art.5 n.1 2)' }
    : {}),
});

// Game recall said a round's citations as the engine writes them (`macau-2009 art.10 n.2`) in every
// language: the settled line's rule, the correction's article and the void's rule; and the rule
// record's article that requires the authorisation.
describe('service game recall: the articles a round was settled, corrected and voided under', () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: are said in words, the text by its name, no code as the journal writes it; so are the rule options a line was settled under`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'auditor', { name: 'Bo', staff: '1002' });
      for (const status of ['settled', 'void'] as const) {
        const r = round(status);
        const { rows } = pageContent(state, { page: 'recall', station: null, offset: 0, more: false, rounds: [r] }, t, INITIAL_CHOICES, none);
        // Rows wrap: read them as one text, the indents of continuation rows taken out.
        const text = rows.map((x) => x.trim()).join('');
        assert.doesNotMatch(text, /macau-2009|art\.\d|n\.\d/, `${language} ${status}: ${text}`);
        const said = [r.rules.article, r.lines[0]!.rule, r.corrections[0]!.article, ...(status === 'void' ? [r.voidRule!] : [])].map((c) =>
          citationWords(t, c).replace(/\s/g, ''),
        );
        for (const s of said) assert.ok(text.replace(/\s/g, '').includes(s), `${language} ${status}: ${s} in ${text}`);
        // A line settled under a non-default option named it as the engine writes it (`surrender=none`).
        assert.doesNotMatch(text, /dealProcedure|macau-3|surrender=|=none|doubleAfterSplit|=false/, `${language} ${status}: ${text}`);
        for (const c of r.lines[0]!.choices)
          assert.ok(text.replace(/\s/g, '').includes(choiceWords(t, c).replace(/\s/g, '')), `${language} ${status}: ${c} in ${text}`);
      }
    });
  }
});

// Game recall gave a round's time as the journal's UTC instant (`2026-01-01T00:00:00.000Z`), eight
// hours from the Macau time every other page, the tickets and the station's clock give.
describe("service game recall: a round's time", () => {
  it("is Macau's, as the event log and the other pages give it, not the journal's UTC instant", () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n);
    const state = { kind: 'service', tableId: 'T', softwareVersion: '1', language: 'en', signedIn: true } as ServiceState;
    const { rows } = pageContent(state, { page: 'recall', station: null, offset: 0, more: false, rounds: [round('settled')] }, t, INITIAL_CHOICES, none);
    const text = rows.join('\n');
    assert.ok(text.includes('2026-01-01 08:00:00'), text);
    assert.doesNotMatch(text, /T00:00:00|\.000Z/, text);
  });
});

// A round the page was cut to (its decisions past 512, bets past 224, lines past 512) was shown as
// if whole: now the page says how many of each it leaves out, and where they all are.
describe('service game recall: a round cut to the page', () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: says how many decisions, bets and lines it leaves out`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'auditor', { name: 'Bo', staff: '1002' });
      const cut = { ...round('settled'), omitted: { decisions: 89, bets: 76, lines: 188 } };
      const said = (r: object) =>
        pageContent(state, { page: 'recall', station: null, offset: 0, more: false, rounds: [r as typeof cut] }, t, INITIAL_CHOICES, none)
          .rows.map((x) => x.trim())
          .join('');
      const text = said(cut);
      const omitted = t('service.field.recallOmitted', { decisions: 89, bets: 76, lines: 188 });
      assert.ok(!omitted.includes('service.field'), `${language}: a key of its own`);
      assert.ok(
        text.replace(/\s/g, '').includes(omitted.replace(/\s/g, '')) && /89/.test(omitted) && /76/.test(omitted) && /188/.test(omitted),
        `${language}: ${text}`,
      );
      assert.ok(!/89|188/.test(said(round('settled'))), `${language}: nothing said of a whole round`);
    });
  }
});

// A carried winning-streak stake decided in the round: the page says it was staked in an earlier round.
describe('service game recall: a carried winning-streak line', () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: says the stake was made in an earlier round`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'auditor', { name: 'Bo', staff: '1002' });
      const r = round('settled');
      const carried = { ...r, lines: r.lines.map((l) => ({ ...l, carried: true as const })) };
      const text = pageContent(state, { page: 'recall', station: null, offset: 0, more: false, rounds: [carried] }, t, INITIAL_CHOICES, none)
        .rows.map((x) => x.trim())
        .join('')
        .replace(/\s/g, '');
      const said = t('recall.carried', { bet: 'X' }).replace('X', '').replace(/\s/g, '');
      assert.ok(text.includes(said), `${language}: ${text}`);
    });
  }
});

// A round's corrections past the page's 16 were left out unsaid: now the page says how many, after
// those it lists, and says nothing of decisions, bets or lines when none of those were cut.
describe('service game recall: a round with more corrections than the page carries', () => {
  for (const language of ['zh-Hant', 'zh-Hans', 'pt', 'en'] as const) {
    it(`${language}: says how many corrections it leaves out`, () => {
      const i18n = createI18n(language);
      const t = i18n.t.bind(i18n);
      const state = signedInService(language, 'auditor', { name: 'Bo', staff: '1002' });
      const cut = { ...round('settled'), omitted: { decisions: 0, bets: 0, lines: 0, corrections: 37 } };
      const text = pageContent(state, { page: 'recall', station: null, offset: 0, more: false, rounds: [cut] }, t, INITIAL_CHOICES, none)
        .rows.map((x) => x.trim())
        .join('')
        .replace(/\s/g, '');
      const said = t('service.field.recallCorrectionsOmitted', { count: 37 });
      assert.ok(!said.includes('service.field') && said.includes('37'), `${language}: a key of its own: ${said}`);
      assert.ok(text.includes(said.replace(/\s/g, '')), `${language}: ${text}`);
      const others = t('service.field.recallOmitted', { decisions: 0, bets: 0, lines: 0 }).replace(/\s/g, '');
      assert.ok(!text.includes(others), `${language}: no decisions, bets or lines said cut: ${text}`);
    });
  }
});
