import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tableGame } from '../../engine/games.js';
import { LINE_BETS } from '../../engine/table/vocabulary.js';
import { catalogueOf, languages } from '../../locales/index.js';
import { createI18n } from '../../locales/i18n.js';
import { formatMoney, intlLocale } from '../../locales/money.js';
import {
  DecisionAction,
  DEVICE_EVENTS,
  DEVICE_STATES,
  ErrorCode,
  HoldReason,
  Language,
  OFFER_ACTIONS,
  RefusalReason,
  refusalKey,
  SYNC_ERRORS,
  SYNC_STATES,
} from '../../protocol/index.js';

function flatten(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else if (typeof v === 'object' && v !== null) for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const variables = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)/g)].map((m) => m[1]).sort();

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The catalogue by key without its i18next plural suffix: `recall.title_one` and `recall.title_other`
 * are the forms of `recall.title`, and a key without a suffix is its own only form.
 */
function byBaseKey(cat: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [key, text] of cat) {
    const form = PLURAL.exec(key)?.[1] ?? '';
    const base = key.replace(PLURAL, '');
    out.set(base, (out.get(base) ?? new Map<string, string>()).set(form, text));
  }
  return out;
}

/** The plural forms a language needs, as i18next picks them: by Intl.PluralRules. */
const pluralForms = (lang: string) => [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();

describe('locale catalogues', () => {
  const source = flatten(catalogueOf('zh-Hant'));
  const sourceBase = byBaseKey(source);

  it('are the shipped languages, each a tag the protocol takes, Traditional Chinese first, then Simplified', () => {
    assert.deepEqual(languages, ['zh-Hant', 'zh-Hans', 'en', 'pt']);
    for (const lang of languages) assert.ok(Language.safeParse(lang).success, lang);
  });

  for (const lang of languages) {
    it(`${lang} has the keys of zh-Hant, each in the plural forms ${lang} needs, non-empty, with the same variables`, () => {
      const cat = byBaseKey(flatten(catalogueOf(lang)));
      assert.deepEqual([...cat.keys()].sort(), [...sourceBase.keys()].sort());
      for (const [key, forms] of cat) {
        const plural = !forms.has('') || !sourceBase.get(key)?.has('');
        // A plural key has exactly the forms of the language; any other key has none.
        assert.deepEqual([...forms.keys()].sort(), plural ? pluralForms(lang) : [''], `${lang} ${key}: plural forms`);
        const expected = [...(sourceBase.get(key)?.values() ?? [])][0] ?? '';
        for (const [form, text] of forms) {
          assert.ok(text.trim().length > 0, `${lang} ${key} ${form} is empty`);
          // The "one" form may say the number in words ("Last round") instead of {{count}}.
          const wanted = variables(expected).filter((v) => form !== 'one' || v !== 'count');
          assert.deepEqual(
            variables(text).filter((v) => form !== 'one' || v !== 'count'),
            wanted,
            `${lang} ${key}${form ? `_${form}` : ''}`,
          );
        }
      }
    });
  }

  it('needs plural forms of pt and en that zh-Hant and zh-Hans do not (the reason the key sets differ)', () => {
    assert.deepEqual(pluralForms('zh-Hant'), ['other']);
    assert.deepEqual(pluralForms('zh-Hans'), ['other']);
    assert.deepEqual(pluralForms('en'), ['one', 'other']);
    assert.ok(pluralForms('pt').includes('one'));
  });

  // i18next reserves `count` for plurals: a text that takes a count is a plural form, and a plural
  // form takes the count (the "one" form may spell it out), so no count is ever read as "1 rounds".
  for (const lang of languages) {
    it(`${lang}: a count is always a plural key's, and only there`, () => {
      for (const [key, text] of flatten(catalogueOf(lang))) {
        const form = PLURAL.exec(key)?.[1];
        if (form === undefined) assert.ok(!variables(text).includes('count'), `${lang} ${key} takes a count but has no plural forms`);
        else if (form !== 'one') assert.ok(variables(text).includes('count'), `${lang} ${key} is a plural form without the count`);
      }
    });
  }

  it("read a count in its plural form, and a label and its value with the language's separator", async () => {
    const [zh, pt, en] = [createI18n('zh-Hant'), createI18n('pt'), createI18n('en')];
    assert.equal(pt.t('cue.burnCount', { count: 1 }), 'Cartas retiradas (falta 1)');
    assert.equal(pt.t('cue.burnCount', { count: 3 }), 'Cartas retiradas (faltam 3)');
    assert.equal(en.t('service.field.entries', { count: 1 }), '1 entry');
    assert.equal(en.t('service.field.entries', { count: 0 }), '0 entries');
    assert.equal(pt.t('service.field.entries', { count: 1 }), '1 registo');
    assert.equal(en.t('recall.title', { count: 1 }), 'Last round');
    assert.equal(en.t('recall.title', { count: 10 }), 'Last 10 rounds');
    assert.equal(pt.t('recall.title', { count: 1 }), 'Última jogada');
    assert.equal(pt.t('recall.title', { count: 2 }), 'Últimas 2 jogadas');
    assert.equal(zh.t('recall.title', { count: 1 }), '最近 1 局記錄');
    assert.equal(zh.t('punctuation.labelled', { label: '莊家', value: 'A♠' }), '莊家：A♠');
    assert.equal(pt.t('punctuation.labelled', { label: 'Banca', value: 'A♠' }), 'Banca: A♠');
  });

  it("join lists with Intl.ListFormat in the language's Macau locale, never a comma in code", () => {
    const faults = ['A', 'B', 'C'];
    assert.equal(createI18n('zh-Hant').t('service.field.inhibitedByFault', { faults }), '因故障暫停：A、B及C');
    assert.equal(createI18n('pt').t('service.field.inhibitedByFault', { faults }), 'parado por avaria: A, B e C');
    assert.equal(createI18n('en').t('service.field.inhibitedByFault', { faults }), 'stopped by a fault: A, B and C');
  });

  // Simplified Chinese for mainland readers (docs/zh-hans-vocabulary.md): the words a mainland
  // player knows for each bet and action, not the Macau words in simplified characters.
  it('zh-Hans says each action and bet as a mainland player does, in simplified characters', () => {
    const hans = flatten(catalogueOf('zh-Hans'));
    const mainland: Record<string, string> = {
      'action.hit': '要牌',
      'action.stand': '停牌',
      'action.double': '加倍',
      'action.split': '分牌',
      'action.surrender': '投降',
      'action.insurance': '买保险',
      'bet.banker': '庄',
      'bet.player': '闲',
      'bet.tie': '和',
      'bet.bankerPair': '庄对',
      'bet.playerPair': '闲对',
      'bet.insurance': '保险',
      'bet.behind': '旁注',
      'result.push': '平局',
      'felt.natural': '黑杰克',
      'game.blackjack': '21点',
      'cue.burn': '烧牌',
      'roads.pig': '蟑螂路',
    };
    for (const [key, words] of Object.entries(mainland)) assert.equal(hans.get(key), words, key);
    // Macau's words, which a character conversion would have kept (博牌, 分門, 放棄牌局, 第N門).
    for (const [key, text] of hans) assert.doesNotMatch(text, /博牌|分门|放弃牌局|搭注|门\b|第\{\{\w+\}\}门/, key);
    // Traditional characters a converter must not have missed (a sample of the common ones).
    const traditional = /[們個與對時從門號說請這為來會後點張錢開關發貨幣將單無統確認連線讀寫額獎賠莊閒買賣機鈔檯證]/;
    for (const [key, text] of hans) assert.doesNotMatch(text, traditional, key);
  });

  it('formats zh-Hans money, lists and dates by Macau conventions in simplified script (zh-Hans-MO)', () => {
    const hans = createI18n('zh-Hans');
    assert.equal(formatMoney(1_234_550, 'MOP', 'zh-Hans'), 'MOP$12,345.50');
    assert.equal(hans.t('service.field.inhibitedByFault', { faults: ['A', 'B', 'C'] }), '因故障暂停：A、B和C');
    assert.equal(hans.t('table.limits', { min: 10_000, max: 500_000, currency: 'HKD' }), '最低投注额 HK$100　最高投注额 HK$5,000');
    assert.equal(intlLocale('zh-Hans'), 'zh-Hans-MO');
    const at = new Date('2026-11-26T09:05:00Z');
    const date = new Intl.DateTimeFormat(intlLocale('zh-Hans'), { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Macau' }).format(at);
    assert.equal(date, '2026年11月26日 下午5:05');
  });

  // «Black Jack» is the 2009 Chinese text's own word; «Desafio ao Casino» has no Chinese text, and
  // the Chinese felt names it in Chinese all the same (docs/terms-for-review.md).
  it('name the war game in Chinese on the Chinese screens, not by its Portuguese title', () => {
    assert.doesNotMatch(source.get('game.war') ?? '', /[A-Za-z]/);
  });

  // The 2005 regulation of «Desafio ao Casino»: on a tie the player may «perder metade do valor da
  // aposta inicial» or «desafiar a casa». «Desistência» is blackjack's surrender (2009 text, Art. 18),
  // a different act, and «guerra» is no word of the text.
  it("say the war game's tie choices in pt in the 2005 regulation's words", () => {
    const pt = flatten(catalogueOf('pt'));
    const keys = ['action.war', 'action.warSurrender', 'felt.arc.war', 'desk.offer.war', 'help.war.rules', 'help.war.pays', 'cardPlace.seatWar'];
    for (const key of keys) {
      assert.ok(pt.has(key), key);
      assert.doesNotMatch(pt.get(key) ?? '', /desist|guerra/i, key);
    }
    for (const key of ['felt.arc.war', 'desk.offer.war', 'help.war.rules']) {
      assert.match(pt.get(key) ?? '', /desafiar a casa/i, key);
      assert.match(pt.get(key) ?? '', /perder metade/i, key);
    }
  });

  it('have a message for every protocol error code', () => {
    for (const code of ErrorCode.options) assert.ok(source.has(`errors.${code}`), code);
  });

  it('word every reason a station command can be refused for', () => {
    for (const reason of RefusalReason.options) assert.ok(source.has(refusalKey(reason)), reason);
  });

  // Keys the screens build at run time (`action.${a}`, `desk.offer.${a}`, `hold.${reason}`,
  // `result.${outcome}`): every value the protocol allows has its words, so no screen shows a key.
  it('word every decision the protocol allows, and ask every offer as a question', () => {
    for (const a of DecisionAction.options) assert.ok(source.has(`action.${a}`), `action.${a}`);
    assert.ok(source.has('action.warSurrender'));
    for (const a of OFFER_ACTIONS) assert.ok(source.get(`desk.offer.${a}`)?.match(/[？?]$/), `desk.offer.${a}`);
  });

  // The service pages' Status, Devices and Sync rows: a device's link and the sync's state come from
  // the host as codes, and each is said in the screen's language (never `ready (lid open)` in English).
  it("word every state of a device's link and of the upstream sync the service pages show", () => {
    for (const s of DEVICE_STATES) assert.ok(source.has(`service.deviceState.${s}`), `service.deviceState.${s}`);
    for (const s of SYNC_STATES) assert.ok(source.has(`service.syncState.${s}`), `service.syncState.${s}`);
    for (const e of DEVICE_EVENTS) assert.ok(source.has(`service.deviceEvent.${e}`), `service.deviceEvent.${e}`);
    for (const r of SYNC_ERRORS) assert.ok(source.has(`service.syncError.${r}`), `service.syncError.${r}`);
    assert.ok(source.has('service.field.lidOpen'));
  });

  it('word every reason the table can be on hold', () => {
    for (const r of HoldReason.options) assert.ok(source.has(`hold.${r}`), `hold.${r}`);
  });

  it('word every outcome and prize the screens celebrate or show', () => {
    for (const o of ['win', 'lose', 'push']) assert.ok(source.has(`result.${o}`), o);
    for (const k of ['prize.special', 'prize.fiveCard', 'help.item.tieBet']) assert.ok(source.has(k), k);
    // A settlement line, a recall line and a celebration name any bet of the table by its words.
    for (const bet of LINE_BETS) assert.ok(source.has(`bet.${bet}`), `bet.${bet}`);
  });

  it("use the 2009 text's terms for dealer and seat in Chinese", () => {
    assert.equal(source.get('table.dealer'), '莊家');
    assert.match(source.get('table.seat') ?? '', /門/);
  });

  // The 2009 text (Art. 5, the procedures) says a card dealt 牌面向上 / «de face para cima» and a
  // card 陽開 (exposed); a supervisor refused an act on such a card reads those words, not others.
  it("say a card dealt face up or exposed in the texts' words in the service refusals", () => {
    const keys = ['serviceRefusal.roundDealtFaceUp', 'serviceRefusal.roundCardStands'];
    const hans = flatten(catalogueOf('zh-Hans'));
    const pt = flatten(catalogueOf('pt'));
    for (const key of keys) {
      assert.match(source.get(key) ?? '', /牌面向上|陽開/, `zh-Hant ${key}`);
      assert.doesNotMatch(source.get(key) ?? '', /明牌|揭開/, `zh-Hant ${key}`);
      assert.match(hans.get(key) ?? '', /牌面向上|翻开/, `zh-Hans ${key}`);
      assert.doesNotMatch(hans.get(key) ?? '', /明牌|揭开/, `zh-Hans ${key}`);
      assert.match(pt.get(key) ?? '', /face para cima/, `pt ${key}`);
      assert.doesNotMatch(pt.get(key) ?? '', /aberta/, `pt ${key}`);
    }
  });

  // The games' own words (engine/<game>/table-game.ts): what they name their own way, and every
  // line of every profile's pay table, has its words in every language.
  it("word every game's own names and every pay-table line of every profile", () => {
    const games = [
      tableGame('baccarat', 'macau-commission'),
      tableGame('baccarat', 'macau-no-commission', { authorisation: 'DICJ-TEST' }),
      tableGame('war', 'macau'),
      ...(['macau-2009', 'macau-2004', 'portugal-2001'] as const).map((p) => tableGame('blackjack', p)),
      tableGame('blackjack', 'macau-2009', { perfectPairs: true, authorisation: 'DICJ-TEST' }),
    ];
    for (const g of games) {
      for (const l of g.rules.payTable) assert.ok(source.has(`help.item.${l.item}`), `help.item.${l.item}`);
      for (const key of [...Object.values(g.presentation.actionWords ?? {}), ...Object.values(g.presentation.betWords ?? {})])
        assert.ok(key && source.has(key), key);
      for (const bet of g.rules.bets) assert.ok(source.has(`bet.${bet}`), `bet.${bet}`);
    }
  });
});
