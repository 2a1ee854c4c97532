// Citations a review left in doubt, each settled against the text (docs/rules/blackjack.md,
// "Citations settled"): a wrong citation is worse than none, so where no article says it the line
// says it is the house's reading and names no article.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authorisationArticle } from '../rule-set.js';
import { REF_KEYS, ref } from './refs.js';
import { resolveRules, type ProfileId } from './rules.js';
import { runScript } from './script.js';
import { parseCard } from '../cards/card.js';
import { dealCard, openRound, voidRound } from './round.js';

function mains(profile: ProfileId, cards: string, decisions: [number, number, string][]): [number, number, string][] {
  const out = runScript(resolveRules(profile, {}), {
    seats: [{ seat: 1, bets: { main: 1000 } }],
    cards: cards.split(/\s+/),
    decisions: decisions.map(([seat, hand, action]) => ({ seat, hand, action })),
  });
  return out.settlements.filter((l) => l.bet === 'main').map((l) => [l.hand ?? 0, l.net, l.rule]);
}

const MACAU_BUST = 'house reading, no article: the dealer over 21 loses';

describe('a dealer bust: what each text says of the dealer over 21', () => {
  // 18 against 6, 10, 9: the dealer's 25 is «mais pontos» than 18, so Art. 9 read as written would
  // take the bet; Art. 7 n.2 names the dealer over 21 only for a player who busts too.
  for (const profile of ['macau-2009', 'macau-2004'] as const) {
    it(`${profile}: the standing hand wins as the house's reading, citing no article (not art.9)`, () => {
      assert.deepEqual(mains(profile, 'TS 6H 8D TC 9C', [[1, 0, 'stand']]), [[0, 1000, `${profile} ${MACAU_BUST}`]]);
    });
  }

  it('portugal-2001: rule 1 b) (21 or the total below it nearest to it) with rule 23 (nearer to 21 wins)', () => {
    assert.deepEqual(mains('portugal-2001', 'TS 6H 8D TC 9C', [[1, 0, 'stand']]), [[0, 1000, 'portugal-2001 rules 1 b), 23']]);
  });

  // A review of 4 December: Art. 10 n.4 pays a 21 of more than two cards 1:1 «se a banca não tiver
  // «Black Jack» ou 21 pontos»; a dealer over 21 has neither, so that case has its article.
  for (const profile of ['macau-2009', 'macau-2004'] as const) {
    it(`${profile}: a 21 of three cards against a dealer bust cites art.10 n.4, not the house's reading`, () => {
      assert.deepEqual(mains(profile, '5S 6H 6D TC TS 9C', [[1, 0, 'hit']]), [[0, 1000, `${profile} art.10 n.4`]]);
    });
  }

  it('portugal-2001: a 21 of three cards against a dealer bust cites rules 1 b), 23 as any hand there', () => {
    assert.deepEqual(mains('portugal-2001', '5S 6H 6D TC TS 9C', [[1, 0, 'hit']]), [[0, 1000, 'portugal-2001 rules 1 b), 23']]);
  });

  it("a split hand's two-card 21 against a dealer bust: not Black Jack (art.10 n.6), the win the house's reading", () => {
    assert.deepEqual(mains('macau-2009', 'AS 6H AD KC 5D TS 9C', [[1, 0, 'split']]), [
      [0, 1000, `macau-2009 art.10 n.6; ${MACAU_BUST}`],
      [1, 1000, `macau-2009 ${MACAU_BUST}`],
    ]);
    assert.deepEqual(mains('portugal-2001', 'AS 6H AD KC TS 5D 9C', [[1, 0, 'split']])[0], [0, 1000, 'portugal-2001 rules 1 b), 20, 23']);
  });
});

describe('every citation fits the journal', () => {
  // A settlement line's `rule` is at most 128 characters in the ledger (terms/round-terms.ts); a bet
  // behind that stayed out of a split and a double appends the longest suffix a main line takes.
  it('each kind of line, under each text, with the longest suffix, is at most 128 characters', () => {
    const suffix = '; art.20 silent, as portugal-2001 rules 28, 30';
    for (const profile of ['macau-2009', 'macau-2004', 'portugal-2001'] as const)
      for (const key of REF_KEYS) assert.ok(ref(profile, key).length + suffix.length <= 128, `${profile} ${key}: ${ref(profile, key)}`);
  });
});

describe('the authorisation a macau-2004 table names', () => {
  // 56/2004 has no article like 2009's Art. 21: its Despacho approves the regulation (n.1) and the
  // annex subjects none of the house's alternatives to prior authorisation. The 2009 article, of
  // a text that revoked it, is not 2004's to cite.
  it("is the house's reading with no article, never the 2009 text's art.21", () => {
    const article = authorisationArticle('blackjack', 'macau-2004');
    assert.doesNotMatch(article, /macau-2009|art\.21/);
    assert.match(article, /^macau-2004 house reading, no article: /);
    assert.equal(authorisationArticle('blackjack', 'macau-2009'), 'macau-2009 art.21 n.1');
  });
});

describe('a void round cites the article only for a dealing error that could not be put right', () => {
  const dealt = (profile: ProfileId) => {
    let r = openRound({ rules: resolveRules(profile, {}), seats: [{ seat: 1, bets: { main: 100 } }] });
    for (const c of ['9S', '7D']) r = dealCard(r, parseCard(c));
    return r;
  };
  it('macau: art.5 n.1 2) for an uncorrectable dealing error, no article for any other reason', () => {
    for (const profile of ['macau-2009', 'macau-2004'] as const) {
      assert.equal(
        voidRound(dealt(profile), 'card to the wrong hand, cards drawn on', true).lines[0]?.rule,
        `${profile} art.5 n.1 2): card to the wrong hand, cards drawn on`,
      );
      assert.equal(
        voidRound(dealt(profile), 'the shoe stopped reading').lines[0]?.rule,
        `${profile} house reading, no article: round void: the shoe stopped reading`,
      );
    }
  });
  it('portugal: no rule voids a round, whatever the reason', () => {
    assert.equal(
      voidRound(dealt('portugal-2001'), 'card to the wrong hand', true).lines[0]?.rule,
      'portugal-2001 house reading, no article: round void: card to the wrong hand',
    );
  });
});
