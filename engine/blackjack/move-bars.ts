import { articleOf, type Articles } from './bets/citation.js';
import type { BlackjackRules, OptionKey } from './rules.js';

/**
 * Why a decision is not legal now. Each bar is a condition of the function that makes the legal
 * list (round-procedure.ts `playMoves`, round-seats.ts `canDouble`, `canSplit`, `surrenderBar`),
 * returned by it where it refuses the move, so the reason a refusal gives is the reason the move
 * was left out, never one guessed after.
 */
export type Bar =
  /** Another question is open (insurance, even money, five cards, a split ace's next card): it is answered first. */
  | 'other-question'
  /** An answer to a question that is not open now (insurance, even money, five cards). */
  | 'no-question'
  | 'stand-low'
  | 'double-first-two'
  | 'double-split-aces'
  | 'double-after-split'
  | 'double-total'
  | 'split-first-two'
  | 'split-not-pair'
  | 'resplit-not-pair'
  | 'split-max-hands'
  | 'resplit-off'
  | 'resplit-declined'
  | 'surrender-off'
  | 'surrender-vs-ace'
  | 'surrender-late'
  | 'surrender-split'
  | 'split-aces-one-card';

/**
 * What a bar says, the article per text that makes it ([macau-2009, macau-2004, portugal-2001];
 * null where the text says nothing of it: the bar is then the house's option or our reading, and
 * cites no article), the house's number it applies (named with its value), and the options
 * named when the table plays a value other than the profile's default.
 */
interface BarText {
  readonly says: (r: BlackjackRules) => string;
  readonly articles: (r: BlackjackRules) => Articles | null;
  readonly house?: OptionKey;
  readonly options?: readonly OptionKey[];
}

const DOUBLE_TOTALS: Readonly<Record<BlackjackRules['doubleOn'], string>> = {
  'any-two': 'any two cards',
  'nine-to-eleven': 'a total of 9, 10 or 11',
  'ten-eleven': 'a total of 10 or 11',
  eleven: 'a total of 11',
};

const FIRST_TWO_SPLIT: Articles = ['art.16 n.1', 'art.16 n.1', 'rule 26'];

const BARS: Readonly<Record<Bar, BarText>> = {
  'other-question': { says: () => 'another question is open: it is answered first', articles: () => null },
  'no-question': { says: () => 'no such question is open', articles: () => null },
  // Rule 18: «podem «ficar-se» (não pedir cartas) se tiverem a pontuação superior a 11». Macau fixes no such total.
  'stand-low': { says: (r) => `no standing below ${r.minStandTotal}`, articles: () => [null, null, 'rule 18'], options: ['minStandTotal'] },
  // 2009 Art. 17 n.1 1)-3) and 2004 Art. 17 1)-2) all double on «as duas primeiras cartas»; rule 29 likewise.
  'double-first-two': { says: () => 'a double only on the first two cards of a hand', articles: () => ['art.17 n.1', 'art.17', 'rule 29'] },
  // 2009 Art. 17 n.1 2) «excepto em caso de separação de ases»; Art. 16 n.3 (2004 the same) and rule 26: one card to each split ace.
  'double-split-aces': {
    says: () => 'no double on split aces: one card to each',
    articles: () => ['art.17 n.1 2), art.16 n.3', 'art.16 n.3', 'rule 26'],
    options: ['doubleSplitAces'],
  },
  // The texts allow it (2009 Art. 17 n.1 2), 2004 Art. 17 1), rule 31): a table without it plays the house's choice.
  'double-after-split': { says: () => 'no double on a split hand at this table', articles: () => null, house: 'doubleAfterSplit' },
  'double-total': {
    says: (r) => `a double only on ${DOUBLE_TOTALS[r.doubleOn]}`,
    // 2009 Art. 17 n.1 3) and 2004 Art. 17 2): «quando as duas primeiras cartas totalizem 11 pontos»; rule 29: «9, 10 ou 11».
    articles: (r) => (r.doubleOn === 'eleven' ? ['art.17 n.1 3)', 'art.17 2)', null] : r.doubleOn === 'nine-to-eleven' ? [null, null, 'rule 29'] : null),
    options: ['doubleOn'],
  },
  // «cujas duas primeiras cartas sejam um par» (Art. 16 n.1, 2004 the same); rule 26 «as duas primeiras cartas».
  'split-first-two': { says: () => 'a split only of the first two cards of a hand', articles: () => FIRST_TWO_SPLIT },
  'split-not-pair': {
    says: (r) => `a split only of a pair of the same ${r.splitPairsBy}`,
    articles: () => FIRST_TWO_SPLIT,
    options: ['splitPairsBy'],
  },
  // Art. 16 n.5 «uma carta de valor igual ao de qualquer par separado»; rule 27 «cartas adicionais do mesmo valor».
  'resplit-not-pair': {
    says: (r) => `a split hand splits again only on a pair of the same ${r.splitPairsBy}`,
    articles: () => ['art.16 n.5', 'art.16 n.5', 'rule 27'],
    options: ['splitPairsBy'],
  },
  // Art. 16 n.1 «até quatro ou mais mãos»: the house's number, four or more; procedure 3 «fazendo cinco mãos»
  // (2009 Art. 5 n.2 3)(7)). Portugal names no limit (rules 26-27).
  'split-max-hands': {
    says: (r) => `at most ${r.maxHands} hands by splitting`,
    articles: (r) => [r.dealProcedure === 'macau-3' ? 'art.16 n.1, art.5 n.2 3)(7)' : 'art.16 n.1', 'art.16 n.1', null],
    house: 'maxHands',
  },
  // Art. 16 n.5 «pode ser permitido separar mais uma vez»: the house's permission (Portugal rule 27 gives it).
  'resplit-off': { says: () => 'no second split at this table', articles: () => ['art.16 n.5', 'art.16 n.5', null], house: 'resplit' },
  // Art. 16 n.5 «a não ser que, anteriormente, tenha já decidido não separar».
  'resplit-declined': {
    says: () => 'no split after the player declined one',
    articles: () => ['art.16 n.5', 'art.16 n.5', null],
    options: ['resplitAfterDecline'],
  },
  // Only Macau 2009 may waive surrender, with the authorisation of Art. 21 n.2.
  'surrender-off': { says: () => 'no surrender at this table', articles: () => ['art.21 n.2', null, null], house: 'surrender' },
  // Art. 18 n.1 (2009 and 2004) and rule 36: «desde que a carta aberta da banca não seja um ás».
  'surrender-vs-ace': { says: () => "no surrender against the dealer's ace", articles: () => ['art.18 n.1', 'art.18 n.1', 'rule 36'] },
  // Art. 18 n.2: «antes de a banca distribuir qualquer carta adicional»; rule 36: «Após a distribuição das duas primeiras cartas».
  'surrender-late': {
    says: (r) =>
      r.surrenderMoment === 'hand-first-decision'
        ? "surrender only as the hand's first decision"
        : 'surrender only before the dealer deals any additional card',
    articles: () => ['art.18 n.2', 'art.18 n.2', 'rule 36'],
    options: ['surrenderMoment'],
  },
  // The texts surrender «a jogada», and say nothing of one hand of a split: the round does not offer it (our reading).
  'surrender-split': { says: () => 'no surrender of a split hand (our reading: the texts surrender the whole play)', articles: () => null },
  // Art. 16 n.3 and Art. 6 4)(3) «pode tomar uma só carta por cada ás» (2004 the same); rule 26 «apenas poderá pedir uma carta para cada aposta».
  'split-aces-one-card': {
    says: () => 'one card only to each split ace',
    articles: () => ['art.16 n.3, art.6 4)(3)', 'art.16 n.3, art.6 4)(3)', 'rule 26'],
  },
};

/** Why a refused move may not be made, with what decides it: the article of the profile's text, the house's option. */
export function barReason(r: BlackjackRules, bar: Bar): string {
  const b = BARS[bar];
  const parts: string[] = [];
  if (b.house) parts.push(`the house's ${b.house}=${String(r[b.house])}`);
  for (const k of b.options ?? []) {
    const marker = r.choices[k];
    if (marker !== undefined) parts.push(marker);
  }
  const articles = b.articles(r);
  const article = articles ? articleOf(r.profile, articles) : r.profile;
  // articleOf names the bare profile when its text has no such article (or for the generic profile).
  if (article !== r.profile) parts.push(article);
  return parts.length > 0 ? `${b.says(r)} (${parts.join('; ')})` : b.says(r);
}
