// The bet catalogue's promise (issue 32): a bet is one definition. A fixture additional bet of the
// first cards is defined here, in this one module, and added to the blackjack catalogue; nothing
// else in the engine, the host or the ledger knows it, and it is offered, limited, settled (its
// article cited), voided, recalled, translated and given an exact figure through a real table over
// a real ledger.
//
// What a test cannot do is give it a name of its own. A bet's id and its help items are the
// vocabulary's (`BET_IDS`, `PAY_ITEMS` in engine/table/vocabulary.ts): closed lists that the
// entry's type, the screen protocol's schemas and the typed locale keys are all built from, so a
// new name is step 3 of docs/architecture.md's five lines, in shipped files, never a test's. The
// fixture borrows a spot and a help item blackjack never uses (baccarat's `tie`, war's `tieBet`)
// and brings its own words for them in the three languages, supplied here as a new bet's locale
// entries would be: the screens' words for it are those, read by the keys its entry names. That
// its own name would cross the protocol and have words in every shipped catalogue is what the
// protocol's and the locales' own tests check once a bet adds it there; this test shows only that
// a name outside the vocabulary is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankValue } from '../../engine/blackjack/hand.js';
import { BLACKJACK_CATALOGUE } from '../../engine/blackjack/bets/catalogue.js';
import { articleOf, type Citation } from '../../engine/blackjack/bets/citation.js';
import { firstCardsBet } from '../../engine/blackjack/bets/entry.js';
import { exactSideBetEdges } from '../../engine/blackjack/side-bet-exact.js';
import { blackjackTableGame } from '../../engine/blackjack/table-game.js';
import { resolveRules } from '../../engine/blackjack/rules.js';
import { dealCard, openRound, voidRound } from '../../engine/blackjack/round.js';
import { parseCard } from '../../engine/cards/card.js';
import { betWords } from '../../engine/table/bet-catalogue.js';
import { odds, payLine } from '../../engine/table/pay-line.js';
import { entriesOfTypes, verifyLedger, type EntryBody } from '../../ledger/index.js';
import { catalogueOf, languages } from '../../locales/index.js';
import { createI18n } from '../../locales/i18n.js';
import { type Language, Spot } from '../../protocol/index.js';
import { recallRound } from '../screens/recall.js';
import { credit, testTable, type TestTable, submitted } from '../testing/table-kit.js';

/* ───────────── the fixture bet: the whole of its definition ───────────── */

const TIE_PAYS = 4;
const TIE: Citation = { articles: ['fixture art.1', 'fixture art.1', null], options: ['oneSideBetPerPlayer'] };

/** «Empate das duas cartas» (a fixture): the first two cards of one value pay 4 to 1. */
const firstTwoTie = firstCardsBet({
  id: 'tie',
  kind: 'additional',
  family: 'first-cards',
  settleOrder: 6,
  onVoid: 'returned',
  offered: (r) => r.profile !== 'portugal-2001',
  payLines: (r) => [payLine('tieBet', odds(TIE_PAYS, 1), articleOf(r.profile, TIE.articles), true)],
  settle: (c, stake) => [{ hand: 0, stake, net: rankValue(c.first.rank) === rankValue(c.second.rank) ? TIE_PAYS * stake : -stake, citation: TIE }],
});

/** Its words in the shipped languages, under the keys its entry names (`bet.<id>`, `help.item.<item>`). */
const WORDS: Record<Language, { readonly name: string; readonly line: string }> = {
  'zh-Hant': { name: '兩張同點', line: '首兩張牌同點' },
  'zh-Hans': { name: '两张同点', line: '首两张牌同点' },
  pt: { name: 'Duas iguais', line: 'Duas primeiras cartas do mesmo valor' },
  en: { name: 'Two alike', line: 'First two cards of one value' },
};

/**
 * An i18next instance of the screens' (`createI18n`) whose catalogue has the fixture's words, as
 * the shipped one would once its locale entries were added: a copy, for the catalogues are
 * shared by every instance and stay as shipped.
 */
function withFixtureWords(lang: Language) {
  const i18n = createI18n(lang);
  const catalogue = structuredClone(catalogueOf(lang));
  const words = WORDS[lang];
  if (!words) throw new Error(`no fixture words in ${lang}`);
  catalogue.bet.tie = words.name;
  catalogue.help.item.tieBet = words.line;
  i18n.addResourceBundle(lang, 'translation', catalogue, false, true);
  return i18n;
}

/* ───────────── the table, as every bet's ───────────── */

const CATALOGUE = [...BLACKJACK_CATALOGUE, firstTwoTie];
const LIMITS = { main: { min: 1_000, max: 100_000 }, tie: { min: 500, max: 5_000 }, anyPair: { min: 500, max: 5_000 } };

const place = (t: TestTable, station: number, spot: Spot, amount: number) =>
  submitted(t.hub.commands.submit(`station/${station}`, t.hub.version(`station/${station}`), { name: 'place-bet', spot, amount }));
const refusal = (r: ReturnType<typeof place>) => (r.ok ? null : r.error.refusal);
const cards = (t: TestTable, codes: string) => {
  for (const c of codes.split(' ')) t.table.shoe.onCard(parseCard(c));
};
const close = (t: TestTable) => t.clock.runOut(t.table.reads.view().endsAt);

function lastOf(t: TestTable, type: 'round.settle') {
  const last = [...entriesOfTypes(t.ledger, [type])].at(-1);
  assert.ok(last, `a ${type} entry`);
  return (JSON.parse(last.body) as EntryBody).payload as { lines: { station: number; bet: string; stake: number; net: number; rule: string }[] };
}

describe('a bet added as one catalogue entry (issue 32)', () => {
  it('is offered, limited, settled with its article, voided, recalled and translated at a real table', () => {
    const definition = blackjackTableGame('macau-2009', {}, CATALOGUE);
    const t = testTable({ game: 'blackjack', definition, config: { betLimits: LIMITS } });
    try {
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));

      // Offered: a spot of the station's own seat, in the catalogue's order (after the built-in bets).
      const spots = t.table.reads
        .station(1)
        .betting.spots.filter((s) => !('seat' in s))
        .map((s) => s.bet);
      assert.equal(spots.at(-1), 'tie');
      assert.ok(definition.rules.payTable.some((l) => l.item === 'tieBet' && l.rule === 'macau-2009 fixture art.1' && l.side === true));

      // Limited: its own limits from the table's configuration, and the one-additional-bet rule (Art. 13) counts it.
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      // Under its minimum or over its maximum, chips are refused when placed.
      assert.equal(refusal(place(t, 1, { bet: 'tie' }, 400)), 'under-min');
      assert.equal(place(t, 1, { bet: 'tie' }, 1_000).ok, true);
      assert.equal(refusal(place(t, 1, { bet: 'tie' }, 4_800)), 'over-max');
      assert.equal(refusal(place(t, 1, { bet: 'tie', seat: 2 }, 1_000)), 'not-on-other-seat', 'no subparagraph lets it on another hand');
      assert.equal(refusal(place(t, 1, { bet: 'anyPair' }, 1_000)), 'one-additional-bet');
      close(t);

      // Settled: ten and king are one value: 4 to 1 under its own article; the main bet wins 20 against 17.
      cards(t, 'TS 9H KH');
      assert.equal(submitted(t.hub.commands.submit('station/1', t.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
      cards(t, '8C');
      assert.equal(t.table.reads.view().phase, 'results');
      const settled = lastOf(t, 'round.settle').lines.find((l) => l.bet === 'tie');
      assert.deepEqual(settled && { stake: settled.stake, net: settled.net, rule: settled.rule }, {
        stake: 1_000,
        net: 4_000,
        rule: 'macau-2009 fixture art.1',
      });
      assert.equal(t.ledger.credit(1), 100_000 + 10_000 + 4_000);
      assert.equal(definition.screens.prizeOf({ bet: 'tie', net: 4_000, rule: 'macau-2009 fixture art.1' }), 'side-bet', 'its win is celebrated');

      // Recalled: the station's recall (the screen protocol's schema) shows the line.
      const recalled = recallRound(t.ledger.rounds.recall({ station: 1, limit: 1 })[0] ?? assert.fail('a recalled round'), 1);
      assert.ok(recalled.lines.some((l) => l.bet === 'tie' && l.net === 4_000 && l.rule === 'macau-2009 fixture art.1'));

      // Voided: a round voided after its first card returns the bet (the ledger returns what was placed), as its recall shows.
      close(t);
      const before = t.ledger.credit(1);
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 1, { bet: 'tie' }, 2_000).ok, true);
      close(t);
      cards(t, '5S');
      assert.equal(t.table.supervisor.voidRound('test: a card hold', ['Ana Lei (1001)', 'Bo Chan (1002)']).ok, true);
      assert.equal(t.ledger.credit(1), before, 'every bet returned');
      const voided = recallRound(t.ledger.rounds.recall({ station: 1, limit: 1 })[0] ?? assert.fail('the voided round'), 1);
      assert.equal(voided.status, 'void');
      assert.deepEqual(
        voided.bets.filter((b) => b.bet === 'tie'),
        [{ seat: 1, bet: 'tie', amount: 2_000 }],
      );
      assert.equal(verifyLedger(t.ledger).ok, true);
    } finally {
      t.close();
    }
  });

  it("is returned by the engine's void of a round (the scripted round's record), citing the void's article", () => {
    const opened = openRound({ rules: resolveRules('macau-2009'), seats: [{ seat: 1, bets: { main: 1_000, tie: 500 } }], catalogue: CATALOGUE });
    // A dealing error that could not be rectified: Art. 5 n.1 2) (any other void cites no article).
    const round = voidRound(dealCard(opened, parseCard('9S')), 'test', true);
    assert.deepEqual(
      round.lines.filter((l) => l.bet === 'tie'),
      [{ seat: 1, bet: 'tie', hand: 0, stake: 500, net: 0, rule: 'macau-2009 art.5 n.1 2): test' }],
    );
    assert.throws(
      () => openRound({ rules: resolveRules('macau-2009'), seats: [{ seat: 1, bets: { main: 1_000, tie: 500 } }] }),
      /no "tie" bet here/,
      'a catalogue without it refuses it',
    );
  });

  it('is folded back after a restart from the journal alone', () => {
    const definition = blackjackTableGame('macau-2009', {}, CATALOGUE);
    const t = testTable({ game: 'blackjack', definition, config: { betLimits: LIMITS } });
    try {
      credit(t.ledger, 1, 100_000);
      for (let i = 0; i < 20 && t.table.reads.cue()?.kind === 'card'; i++) t.table.shoe.onCard(parseCard('2C'));
      assert.equal(place(t, 1, { bet: 'main' }, 10_000).ok, true);
      assert.equal(place(t, 1, { bet: 'tie' }, 1_000).ok, true);
      close(t);
      cards(t, '7S 9H');
    } finally {
      t.stop();
    }
    const again = testTable({ game: 'blackjack', definition: blackjackTableGame('macau-2009', {}, CATALOGUE), dir: t.dir, config: { betLimits: LIMITS } });
    try {
      cards(again, '7D');
      assert.equal(submitted(again.hub.commands.submit('station/1', again.hub.version('station/1'), { name: 'decide', action: 'stand' })).ok, true);
      cards(again, 'TC');
      const tie = lastOf(again, 'round.settle').lines.find((l) => l.bet === 'tie');
      assert.deepEqual(tie && { stake: tie.stake, net: tie.net }, { stake: 1_000, net: 4_000 });
    } finally {
      again.close();
    }
  });

  it('is worded in every language by the words its locale entries give its spot and its help item', () => {
    const words = betWords(firstTwoTie, resolveRules('macau-2009'));
    assert.deepEqual(words, { name: 'bet.tie', items: ['help.item.tieBet'] });
    // What the table states of it: its spot, and its line of the help's pay table.
    const definition = blackjackTableGame('macau-2009', {}, CATALOGUE);
    const spot = definition.rules.bets.at(-1);
    const line = definition.rules.payTable.find((l) => l.rule === 'macau-2009 fixture art.1');
    assert.equal(spot, 'tie');
    assert.ok(line, 'its pay line');
    assert.equal(definition.presentation.betWords?.tie, undefined, 'no word of the game names it otherwise');
    for (const lang of languages) {
      const fixture = WORDS[lang];
      assert.ok(fixture, `the fixture has words in ${lang}`);
      const shipped = createI18n(lang);
      const i18n = withFixtureWords(lang);
      // Worded as the screens word a spot and a pay line (`t(`bet.${spot}`)`, `help.item.<item>`): by its keys, with its words.
      assert.equal(i18n.t(`bet.${spot}`), fixture.name, `${lang} names the spot`);
      assert.equal(i18n.t(`help.item.${line.item}`), fixture.line, `${lang} words its pay line`);
      assert.deepEqual(
        [words.name, ...words.items].map((key) => i18n.getResource(lang, 'translation', key)),
        [fixture.name, fixture.line],
      );
      // The words are the fixture's, not the borrowed keys' shipped ones, and the shipped catalogue is untouched.
      assert.notEqual(shipped.t(`bet.${spot}`), fixture.name);
      assert.notEqual(shipped.t(`help.item.${line.item}`), fixture.line);
      assert.notEqual(catalogueOf(lang).bet.tie, fixture.name);
    }
  });

  it('cannot carry a name outside the vocabulary: the screen protocol refuses it', () => {
    assert.equal(Spot.safeParse({ bet: 'tie' }).success, true);
    assert.equal(Spot.safeParse({ bet: 'twoAlike' }).success, false, 'a new name needs BET_IDS (engine/table/vocabulary.ts)');
  });

  it('has its exact figure from its own settlement, enumerated over every first two cards', () => {
    const edges = exactSideBetEdges(6, 1, CATALOGUE);
    // Six decks: nine values of 24 cards and the tens' 96; the second card drawn from the 311 left.
    const same = (9 * 24 * 23 + 96 * 95) / (312 * 311);
    assert.ok(Math.abs((edges.tie ?? NaN) - -(TIE_PAYS * same - (1 - same)) * 100) < 1e-9, `tie: ${edges.tie}`);
    // The built-in bets keep their published closed forms.
    assert.deepEqual(
      Object.keys(edges).filter((k) => k !== 'tie'),
      Object.keys(exactSideBetEdges(6)),
    );
  });
});
