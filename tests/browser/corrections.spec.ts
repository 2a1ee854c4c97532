import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { simulatedTableConfig, tableOptions } from '../../host/config/table-config.js';
import { profileItems } from '../../host/service/profile-items.js';
import { citationWords } from '../../locales/citation.js';
import { createI18n, type MessageKey } from '../../locales/i18n.js';
import { saidWords } from '../../locales/said.js';
import { expect, insertNote, test, waitForEvent, type Kiosk } from './kiosk-fixture.js';
import { screenshot } from './screenshot.js';
import {
  confirmBy,
  escapeRegExp,
  LANGUAGES,
  press,
  pressUntilShown,
  pressWhenShown,
  signIn,
  typeOnPad,
  simControl,
  startServiceKiosk,
  stationClient,
  SUP,
  TECH,
  texts,
  tr,
  verifyLedgerOf,
  type Lang,
  type StationClient,
} from './service-kit.js';

// Dealing-error corrections at the live table, from the hold to the settled round (issue 15): each
// procedure the game's text orders is resolved on the Holds page by two people, the round then
// settles at the station, recall shows the correction with its article in zh-Hant, pt and en, and
// `etg ledger verify --full` passes on the kiosk's data folder after each one. One kiosk per game
// serves every flow of that game, round after round.

/** Recall's line for a correction, in a language, up to the names of the two people (any card, or none for a card moved to its hand). */
function correctionDone(lang: Lang, correction: string, article: string): RegExp {
  const CARD = '\u0000';
  // The article in words (the text by its name), as recall says it; matched with the spaces taken
  // out, since a long line wraps over rows.
  const i18n = createI18n(lang);
  const cited = citationWords(i18n.t.bind(i18n), article);
  const line = tr(lang, 'service.field.correctionDone', { correction: tr(lang, `service.correction.${correction}`), card: CARD, article: cited });
  const head = line.slice(0, line.indexOf('{{by')).replace(/\s+/g, '');
  return new RegExp(escapeRegExp(head).replace(CARD, '([2-9TJQKA][SHDC]|—)'));
}

/**
 * Bets at the station round after round until a round stops at one of its decisions (a dealt Black
 * Jack asks none). Once the bet is on its spot the betting window is ended through the sim
 * controls, as its countdown would end it: the one station has bet, and nothing waits out the rest.
 */
async function untilDeciding(kiosk: Kiosk, station: StationClient, amount: number): Promise<string | undefined> {
  for (let tries = 0; tries < 6; tries++) {
    await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
    station.bet(amount);
    await expect.poll(() => station.state()?.betting.bets['main'] ?? station.state()?.decision?.legal.length ?? 0).toBeGreaterThan(0);
    // 409: no betting countdown runs any more (it ran out meanwhile), which is the same end.
    await simControl(kiosk, 'end-countdown', { kind: 'betting' }).catch((e: unknown) => {
      if (!(e instanceof Error && e.message.startsWith('end-countdown: 409 '))) throw e;
    });
    // The round either reaches the station's decision or ends without one.
    await expect
      .poll(() => (station.state()?.decision ? 'deciding' : station.round()?.phase === 'results' ? 'ended' : null), { timeout: 60_000 })
      .not.toBeNull();
    if (station.state()?.decision) return station.state()?.recall?.[0]?.roundId;
    await expect.poll(() => station.round()?.phase, { timeout: 60_000 }).toBe('betting');
  }
  throw new Error('no round reached a decision in six tries');
}

/**
 * Plays the round on to its settlement: the first decision takes a card when `hitFirst` (the
 * misdrawn card kept for the next player who asks), then the station stands. Resolves with the
 * settled round's recall status once the station's recall holds a round after `before`.
 */
async function playOut(station: StationClient, before: string | undefined, hitFirst = false): Promise<void> {
  let hit = !hitFirst;
  await expect
    .poll(
      () => {
        const d = station.state()?.decision;
        if (d) {
          const action = !hit && d.legal.includes('hit') ? 'hit' : d.legal.includes('stand') ? 'stand' : (d.legal.find((a) => a !== 'insurance') ?? 'stand');
          if (action === 'hit') hit = true;
          station.decide(action);
        }
        const last = station.state()?.recall?.[0];
        return last && last.roundId !== before ? last.status : null;
      },
      { timeout: 120_000 },
    )
    .toBe('settled');
}

/** Recall on the service screen shows each correction with its article, in each language. */
async function recallShows(page: Page, corrections: readonly (readonly [correction: string, article: string])[]): Promise<void> {
  await press(page, 'page-recall');
  for (const lang of LANGUAGES) {
    await press(page, `language-${lang}`);
    for (const [correction, article] of corrections)
      await expect.poll(async () => (await texts(page)).replace(/\s+/g, '')).toMatch(correctionDone(lang, correction, article));
    await expect.poll(() => texts(page)).toContain(tr(lang, 'service.recallStatus.settled'));
  }
}

/** A catalogue line as the screen says it (an article in words: `{{article, citation}}`), its spaces taken out, as `spaceless` reads the page. */
function said(lang: Lang, key: MessageKey, values: Record<string, unknown>): string {
  const t = createI18n(lang).getFixedT(lang);
  return t(key, { ...values }).replace(/\s+/g, '');
}

/** A refusal as the screen says it (locales/said.ts: a rule option and its values in words), its spaces taken out. */
function saidOnScreen(lang: Lang, key: MessageKey, values: Record<string, string | number>): string {
  const t = createI18n(lang).getFixedT(lang);
  return saidWords((k, o) => t(k, o), { key, values }).replace(/\s+/g, '');
}

/** The page's words with their spaces taken out: a long line wraps over rows. */
async function spaceless(page: Page): Promise<string> {
  return (await texts(page)).replace(/\s+/g, '');
}

/**
 * The Holds page offers the correction with its article; two people apply it, in this language.
 * With `selfConfirmFirst` the supervisor first tries to confirm their own request, which is refused.
 */
async function correctOnHoldsPage(page: Page, lang: Lang, hold: string, correction: string, article: string, selfConfirmFirst = false): Promise<void> {
  await pressUntilShown(page, `language-${lang}`, tr(lang, 'service.pages.holds'));
  await press(page, 'page-holds');
  await expect.poll(() => texts(page), { timeout: 60_000 }).toContain(tr(lang, `hold.${hold}`));
  const name = tr(lang, `service.correction.${correction}`);
  await expect.poll(() => spaceless(page)).toContain(said(lang, 'service.field.correctionOffered', { correction: name, article }));
  await press(page, `act-correct-${correction}`);
  if (selfConfirmFirst) {
    await confirmBy(page, SUP);
    await expect.poll(() => texts(page)).toContain(tr(lang, 'service.confirm.samePerson'));
  }
  await confirmBy(page, TECH);
  await expect.poll(() => spaceless(page)).toContain(said(lang, 'service.done.correct', { article }));
  await expect.poll(() => texts(page)).toContain(tr(lang, 'service.field.noHold'));
}

test('blackjack (Macau 2009): exposed card, undue card, misdrawn card and card to the wrong hand, each corrected by two people, settled, recalled with its article, the ledger verified', async ({
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(600_000);
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack'), [
    '--sim-controls',
    '--seed',
    '11',
    '--betting-seconds',
    '3',
    '--decision-seconds',
    '120',
    '--results-seconds',
    '2',
  ]);
  const station = await stationClient(kiosk.screens['station/1']!);
  try {
    await insertNote(kiosk, 1, 1000);
    await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(100_000);
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, SUP);

    // Art. 5 n.1 1): a card come out face up is void; the same place is dealt again.
    let before = await untilDeciding(kiosk, station, 10_000);
    await press(page, 'page-holds');
    await pressWhenShown(page, 'act-dealing-error');
    await expect.poll(() => texts(page)).toContain(tr('zh-Hant', 'hold.dealing-error'));
    await correctOnHoldsPage(page, 'zh-Hant', 'dealing-error', 'exposed-card', 'macau-2009 art.5 n.1 1)', true);
    await screenshot(page, testInfo, 'correction-exposed-card-zh-Hant');
    await playOut(station, before);
    await recallShows(page, [['exposed-card', 'macau-2009 art.5 n.1 1)']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Art. 5 n.1 1): a card drawn while the player decides goes to the discards.
    before = await untilDeciding(kiosk, station, 10_000);
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'pt', 'out-of-turn', 'undue-card', 'macau-2009 art.5 n.1 1)');
    await screenshot(page, testInfo, 'correction-undue-card-pt');
    await playOut(station, before);
    await recallShows(page, [['undue-card', 'macau-2009 art.5 n.1 1)']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Art. 5 n.1 2): the misdrawn card, unseen, goes to the next player who asks for a card.
    before = await untilDeciding(kiosk, station, 10_000);
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'en', 'out-of-turn', 'misdrawn-card', 'macau-2009 art.5 n.1 2)');
    await expect.poll(() => texts(page)).toMatch(/Kept for the next player who asks: [2-9TJQKA][SHDC]/);
    await screenshot(page, testInfo, 'correction-misdrawn-card-en');
    await playOut(station, before, true);
    await recallShows(page, [['misdrawn-card', 'macau-2009 art.5 n.1 2)']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Art. 5 n.1 2): a card laid at the wrong hand is rectified.
    before = await untilDeciding(kiosk, station, 10_000);
    await press(page, 'page-holds');
    await pressWhenShown(page, 'act-dealing-error');
    await correctOnHoldsPage(page, 'pt', 'dealing-error', 'wrong-hand', 'macau-2009 art.5 n.1 2)');
    await playOut(station, before);
    await recallShows(page, [['wrong-hand', 'macau-2009 art.5 n.1 2)']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(pageErrors).toEqual([]);
  } finally {
    station.close();
    await stop();
  }
});

test("blackjack (Portugal 2001): the dealer's turned second card (rule 17), a misdrawn card kept and an undue card discarded (rule 18), a card drawn after the dealer stood (rule 19), each corrected by two people, the ledger verified", async ({
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(600_000);
  // The results last long enough for the test to freeze them once the round has settled (rule 19's card is drawn then).
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('blackjack', 'portugal-2001'), [
    '--rules',
    'portugal-2001',
    '--sim-controls',
    '--seed',
    '11',
    '--betting-seconds',
    '3',
    '--decision-seconds',
    '120',
    '--results-seconds',
    '4',
  ]);
  const station = await stationClient(kiosk.screens['station/1']!);
  try {
    await insertNote(kiosk, 1, 1000);
    await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(100_000);
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, SUP);

    // Rule 17: the dealer's second card (the last dealt before the players decide) turned face up
    // goes to the discards and another is drawn. The text orders nothing for a card at another hand.
    let before = await untilDeciding(kiosk, station, 10_000);
    await press(page, 'page-holds');
    await pressWhenShown(page, 'act-dealing-error');
    const shown = (id: string) => page.evaluate((i) => window.__kiosk?.bounds(i) ?? null, id);
    await expect.poll(() => shown('act-correct-exposed-card')).not.toBeNull();
    expect(await shown('act-correct-wrong-hand')).toBeNull();
    await correctOnHoldsPage(page, 'zh-Hant', 'dealing-error', 'exposed-card', 'portugal-2001 rule 17');
    await playOut(station, before);
    await recallShows(page, [['exposed-card', 'portugal-2001 rule 17']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Rule 18: a card drawn against what the player asked, unseen, goes to the next player who asks.
    before = await untilDeciding(kiosk, station, 10_000);
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'pt', 'out-of-turn', 'misdrawn-card', 'portugal-2001 rule 18');
    await expect
      .poll(() => texts(page))
      .toMatch(new RegExp(escapeRegExp(tr('pt', 'service.field.heldCards', { cards: '\u0000' })).replace('\u0000', '[2-9TJQKA][SHDC]')));
    await screenshot(page, testInfo, 'correction-portugal-misdrawn-card-pt');
    await playOut(station, before, true);
    await recallShows(page, [['misdrawn-card', 'portugal-2001 rule 18']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Rule 18: that card, once seen, is void and goes to the discards.
    before = await untilDeciding(kiosk, station, 10_000);
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'en', 'out-of-turn', 'undue-card', 'portugal-2001 rule 18');
    await screenshot(page, testInfo, 'correction-portugal-undue-card-en');
    await playOut(station, before);
    await recallShows(page, [['undue-card', 'portugal-2001 rule 18']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });

    // Rule 19: a card the dealer draws after standing does not count. It comes after the round
    // settled: the Holds page names its rule, the settled round's money is not touched, and the
    // correction carries the round's id, so that round's recall shows it (issue 33 item 6).
    before = await untilDeciding(kiosk, station, 10_000);
    await playOut(station, before);
    await simControl(kiosk, 'freeze-countdown', { kind: 'results' });
    const credit = station.state()?.credit;
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'zh-Hant', 'extra-card', 'undue-card', 'portugal-2001 rule 19');
    await screenshot(page, testInfo, 'correction-portugal-extra-card-zh-Hant');
    await expect.poll(() => station.round()?.phase, { timeout: 60_000 }).toBe('betting');
    expect(station.state()?.credit).toBe(credit);
    await recallShows(page, [['undue-card', 'portugal-2001 rule 19']]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(pageErrors).toEqual([]);
  } finally {
    station.close();
    await stop();
  }
});

test("the Configuration page refuses an override of a fixed article, naming the article in the screen's language", async ({ page, pageErrors }, testInfo) => {
  test.setTimeout(240_000);
  const config = simulatedTableConfig('blackjack');
  const { kiosk, stop } = await startServiceKiosk(config, ['--betting-seconds', '4']);
  // The editor numbers the profile's options as the host lists them to the page.
  const options = profileItems('blackjack', config.profile, tableOptions(config), true).filter(
    (i) => i.key.startsWith('rules.') && i.optionClass !== undefined,
  );
  const number = options.findIndex((i) => i.key === 'rules.fiveCardHalfPay') + 1;
  expect(options[number - 1]?.optionClass).toBe('fixed');
  try {
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, SUP);
    for (const lang of LANGUAGES) {
      await press(page, `language-${lang}`);
      await press(page, 'page-config');
      // The button is drawn once the Configuration page's view has come from the host, which can be after the press.
      await pressWhenShown(page, 'edit-rules');
      await expect.poll(() => texts(page)).toContain(tr(lang, 'service.config.editingRules'));
      // Art. 19 fixes the half payment at five cards; Art. 21 n.2 lets a casino waive Arts. 15 and 18 only.
      await press(page, 'rule-pick');
      await typeOnPad(page, 'number', String(number));
      await press(page, 'rule-value');
      await press(page, 'config-authorise');
      await typeOnPad(page, 'ref', 'DICJ-2026/9');
      // The day the authorisation takes effect: 0, the day the change is journalled.
      await typeOnPad(page, 'number', '0');
      // The guard answers when the change is asked for: nobody is called to confirm what would be refused.
      // The article in words (`{{article, citation}}`), as the screen says it; a long line wraps, so both are read without spaces.
      // The option and its value in words too (`ruleChoice.*`), as the Configuration page names them.
      const words = saidOnScreen(lang, 'service.ruleRefusal.fixed', {
        option: 'fiveCardHalfPay',
        value: 'false',
        allowed: '\u0000',
        article: 'macau-2009 art.19',
      });
      await expect.poll(() => spaceless(page)).toMatch(new RegExp(escapeRegExp(words).replace('\u0000', '.+')));
      await screenshot(page, testInfo, `config-refusal-fixed-${lang}`);
    }
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(pageErrors).toEqual([]);
  } finally {
    await stop();
  }
});

test('«Desafio ao Casino» ([art.6]): a card to the wrong hand and an undue card corrected in one coup, the exposed card kept ([art.3]), settled, recalled, the ledger verified', async ({
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(300_000);
  // The first coup is a tie (the simulated dealer deals these two cards first), so the coup waits
  // for the player's decision while the errors are corrected.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'war-script-'));
  const script = path.join(dir, 'tie.json');
  writeFileSync(script, JSON.stringify({ cards: ['9S', '9H'], stations: { '1': { bets: { main: 10_000 } } } }));
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('war'), [
    '--game',
    'war',
    '--sim-controls',
    '--test-script',
    script,
    '--betting-seconds',
    '3',
    '--decision-seconds',
    '120',
    '--results-seconds',
    '2',
  ]);
  const station = await stationClient(kiosk.screens['station/1']!);
  try {
    await insertNote(kiosk, 1, 500);
    await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(50_000);
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, SUP);
    const before = await untilDeciding(kiosk, station, 10_000);
    expect(station.state()?.decision?.legal).toContain('war');

    // A card laid at the wrong hand: corrected at once; the card come out face up stands.
    await press(page, 'page-holds');
    await pressWhenShown(page, 'act-dealing-error');
    await press(page, 'language-en');
    await expect
      .poll(() => spaceless(page))
      .toContain(said('en', 'service.field.correctionForbidden', { correction: tr('en', 'service.correction.exposed-card'), article: 'macau-war [art.3]' }));
    await correctOnHoldsPage(page, 'en', 'dealing-error', 'wrong-hand', 'macau-war [art.6]');
    await screenshot(page, testInfo, 'correction-war-wrong-hand-en');

    // A card drawn while the player decides goes to the discards.
    await simControl(kiosk, 'misdraw');
    await correctOnHoldsPage(page, 'zh-Hant', 'out-of-turn', 'undue-card', 'macau-war [art.6]');
    await screenshot(page, testInfo, 'correction-war-undue-card-zh-Hant');

    // The player surrenders: half the initial bet lost ([art.7] n.4 al.1).
    station.decide('surrender');
    await playOut(station, before);
    expect(station.state()?.credit).toBe(45_000);
    await recallShows(page, [
      ['wrong-hand', 'macau-war [art.6]'],
      ['undue-card', 'macau-war [art.6]'],
    ]);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(pageErrors).toEqual([]);
  } finally {
    station.close();
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('baccarat (Art. 4): a card come out face up is played on, not voided: the coup goes on, settles, and recall shows the article, the ledger verified', async ({
  page,
  pageErrors,
}, testInfo) => {
  test.setTimeout(300_000);
  // The simulated dealer draws a card every 800 ms, so a coup of four to six cards is dealt over
  // a few seconds: the supervisor stops it at its first cards.
  const { kiosk, stop } = await startServiceKiosk(simulatedTableConfig('baccarat'), [
    '--game',
    'baccarat',
    '--sim-controls',
    '--seed',
    '5',
    '--betting-seconds',
    '3',
    '--results-seconds',
    '2',
  ]);
  const station = await stationClient(kiosk.screens['station/1']!);
  try {
    await insertNote(kiosk, 1, 1000);
    await expect.poll(() => station.state()?.credit, { timeout: 30_000 }).toBe(100_000);
    await page.goto(kiosk.screens['service']!);
    await waitForEvent(page, 'snapshot:service');
    await signIn(page, SUP);
    const onScreen = (id: string) => page.evaluate((x) => window.__kiosk?.bounds(x) ?? null, id);
    await press(page, 'page-holds');
    await expect.poll(() => texts(page), { timeout: 30_000 }).toContain(tr('zh-Hant', 'service.field.noHold'));

    // Bet, and report the dealing error while the coup is being dealt. The simulated dealer is held
    // after the coup's first card, so the supervisor's press does not race a card every 800 ms (a
    // loaded machine lost that race: the press kept missing a page redrawn at every card). A round
    // that ends first all the same is played out, and the next one tried.
    let before: string | undefined;
    let held = false;
    for (let tries = 0; tries < 6 && !held; tries++) {
      await expect.poll(() => station.state()?.betting.open, { timeout: 60_000 }).toBe(true);
      before = station.state()?.recall?.[0]?.roundId;
      const free = station.state()?.credit ?? 0;
      await simControl(kiosk, 'hold-dealer', { cards: 0 });
      station.bet(10_000, 'banker');
      // The stake leaves the credit meter as it is placed.
      await expect.poll(() => station.state()?.credit).toBe(free - 10_000);
      // The CI run on de4ce35 failed here (the station saw 'betting' for 60 s). Run again, the
      // table's /healthz said betting too, six tries in a row once a try re-held the dealer at once;
      // likely (not shown) a new shoe's first coup waiting for its burned cards (Art. 2), which a
      // dealer held at 0 then never drew (since 29 November it draws burns, held or not: kept as
      // a guard). Which side stood still decides: a table
      // dealing that its station still shows betting is a stale screen, and fails; a table not
      // dealing yet gets its dealer back until the coup is dealt, and the next round is tried.
      const dealing = await expect
        .poll(() => station.round()?.phase, { timeout: 30_000 })
        .toBe('dealing')
        .then(
          () => true,
          () => false,
        );
      if (!dealing) {
        const table = ((await (await fetch(`${kiosk.origin}/healthz`)).json()) as { table?: { phase?: string; hold?: unknown } }).table;
        console.log(
          `corrections.spec Art. 4: no dealing seen in 30 s; the station's round ${JSON.stringify(station.round())}, the table's ${JSON.stringify(table)}`,
        );
        expect(table?.phase, 'the table deals while its station still shows its round as before').not.toBe('dealing');
        await simControl(kiosk, 'release-dealer');
        await expect.poll(() => station.round()?.phase, { timeout: 60_000 }).toBe('dealing');
        continue;
      }
      await simControl(kiosk, 'hold-dealer', { cards: 1 });
      // The first card is out (the one the dealer turned face up).
      await expect.poll(() => (station.round()?.phase === 'dealing' ? station.round()?.cards : 0), { timeout: 60_000 }).toBeGreaterThan(0);
      if ((await onScreen('act-dealing-error')) === null) await press(page, 'page-holds');
      // Each card read redraws the page (its buttons with it): the press is tried again until it lands.
      await expect
        .poll(() =>
          press(page, 'act-dealing-error').then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      held = await expect
        .poll(() => texts(page), { timeout: 3_000 })
        .toContain(tr('zh-Hant', 'hold.dealing-error'))
        .then(
          () => true,
          () => false,
        );
      if (!held) {
        await simControl(kiosk, 'release-dealer');
        await expect.poll(() => station.round()?.phase, { timeout: 60_000 }).not.toBe('dealing');
      }
    }
    expect(held).toBe(true);
    const credit = station.state()?.credit ?? 0;

    // Art. 4 is the one correction the text orders: the card stands, the coup goes on.
    await correctOnHoldsPage(page, 'en', 'dealing-error', 'exposed-card-stands', 'macau-baccarat art.4');
    await simControl(kiosk, 'release-dealer');
    await screenshot(page, testInfo, 'correction-baccarat-exposed-card-stands-en');
    await playOut(station, before);
    // Settled, not voided: the banker bet won or lost (a tie returns it), never refunded as a void.
    expect(station.state()?.recall?.[0]?.status).toBe('settled');
    expect([credit, credit + 10_000 + 9_500, credit + 10_000]).toContain(station.state()?.credit);
    await recallShows(page, [['exposed-card-stands', 'macau-baccarat art.4']]);
    // Baccarat has no decision to wait on: the next betting window is held open, so the host
    // appends nothing while the inspector's verify reads the folder.
    await expect
      .poll(() =>
        simControl(kiosk, 'freeze-countdown', { kind: 'betting' }).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    expect(verifyLedgerOf(kiosk.dataDir)).toEqual({ ok: true, problems: [] });
    expect(pageErrors).toEqual([]);
  } finally {
    station.close();
    await stop();
  }
});
