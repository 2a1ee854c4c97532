// The catalogues' keys (typed by the augmentation in i18n.ts, which imports this file: no import back).
import type { ParseKeys as MessageKey } from 'i18next';

// A citation as the engines write it into the journal (a settlement line's `rule`, a correction's
// `article`, a void's rule): `<text> <where>`, e.g. `macau-2009 art.13 5)(2) i), art.14 n.5`,
// `portugal-2001 rules 1 b), 23`, `macau-war [art.7] n.5 al.2`, clauses after `; `, and the house's
// readings where no article says it. A recall says it in the reader's language: the text by its
// name, each article, number and paragraph by key; the subparagraph marks (`1)`, `(3)`, `vi)`) as
// the texts write them. A part this version cannot read (a newer engine's) is shown as recorded.

/** engine/table/public-lines.ts `RULES_SEVERAL` and the join of `rulesSaid` (the locales import nothing of the engine; tests/locales/summed-rule-words.test.ts holds them equal). */
const RULES_SEVERAL = '…';
const RULES_APART = ' · ';

type Translate = (key: MessageKey, options?: Record<string, unknown>) => string;

/** The texts a citation names first, each with its name in the catalogues (`citation.text.<id>`). */
const TEXTS = ['macau-2009', 'macau-2004', 'portugal-2001', 'macau-baccarat', 'macau-war', 'generic'] as const;

/** The house's readings the engines write where no article decides, each by its key (`citation.reading.<name>`). */
const READINGS: Readonly<Record<string, string>> = {
  'house reading, no article: the dealer over 21 loses': 'dealerBust',
  'house reading, no article: more split hands won than lost': 'splitMajority',
  'house reading, no article: a fault kept the station from betting': 'keptOut',
  'house reading, no article: the seat was given to another station': 'seatChanged',
  'house reading, no article: short, level empty': 'jackpotShort',
  'house reading, no article: a tie left undecided in time surrenders': 'tieUndecided',
  'interp:main-returned-with-tie-bet': 'mainReturned',
  'our reading: the text names no consequence': 'noConsequence',
  'our reading: the «valor de arranque» again after an award': 'jackpotReset',
  // The articles that subject a rule set to prior authorisation where the texts have none to name
  // (engine/rule-set.ts authorisationArticle): the rule record's and a live opening refused for it.
  'house reading, no article: 56/2004 subjects no house choice to prior authorisation': 'noAuthorisationArticle',
  'Portaria 1364/2001 1.º': 'portariaApproves',
  'Despacho of 23 Nov 2005 n.1 (no authorisation article on file)': 'warAuthorisation',
};

const NUMBER = /^\d{1,3}(?:[-–]\d{1,3})?$/;
/** A subparagraph's marks as the texts write them: `1)`, `4)(3)`, `(2)`, `vi)`, `b)`, `1)-3)`, `3)(3)-(4)`. */
const MARKS = /^(?:\(?[0-9a-z]{1,4}\)){1,3}(?:[-–](?:\(?[0-9a-z]{1,4}\)){1,3})?$/;

/** One part of a citation (`art.13 n.1 4)(3)`, `n.2 4)`, `23`), in words; null when it is not one the engines write. */
function partWords(t: Translate, part: string, inRules: boolean): string | null {
  const tokens = part.split(' ');
  const out: string[] = [];
  for (const [i, token] of tokens.entries()) {
    let m: RegExpExecArray | null;
    let said: string | null = null;
    if ((m = /^art\.(\d{1,3})$/.exec(token))) said = t('citation.article', { n: m[1] });
    else if ((m = /^\[art\.(\d{1,3})\]$/.exec(token))) said = t('citation.articleReconstructed', { n: m[1] });
    else if ((m = /^n\.(\d{1,3}(?:[-–]\d{1,3})?)$/.exec(token))) said = t('citation.number', { n: m[1] });
    else if ((m = /^al\.(\d{1,2})$/.exec(token))) said = t('citation.paragraph', { n: m[1] });
    else if ((token === 'rule' || token === 'rules') && NUMBER.test(tokens[i + 1] ?? '')) continue;
    else if (NUMBER.test(token) && (tokens[i - 1] === 'rule' || tokens[i - 1] === 'rules'))
      said = t(tokens[i - 1] === 'rules' ? 'citation.rules' : 'citation.rule', { n: token });
    else if (i === 0 && inRules && NUMBER.test(token)) said = t('citation.ruleMore', { n: token });
    else if (MARKS.test(token)) said = token;
    if (said === null) return null;
    out.push(said);
  }
  if (out.length === 0) return null;
  return out.reduce((first, second) => t('citation.then', { first, second }));
}

/** The parts of a clause after one another (`art.13 5)(2) i), art.14 n.5`); null when one is not read. */
function partsWords(t: Translate, clause: string): string | null {
  const said: string[] = [];
  let inRules = false;
  for (const part of clause.split(', ')) {
    const reading = READINGS[part];
    const words = reading !== undefined ? t(`citation.reading.${reading}` as MessageKey) : partWords(t, part, inRules);
    if (words === null) return null;
    if (/^rules? /.test(part)) inRules = true;
    else if (/^(?:\[?art\.)/.test(part)) inRules = false;
    said.push(words);
  }
  return said.reduce((first, second) => t('citation.and', { first, second }));
}

/** One clause (between `; `): a reading by its key, parts of a text, or a silent article read as another text's rules. */
function clauseWords(t: Translate, clause: string): string {
  const reading = READINGS[clause];
  if (reading !== undefined) return t(`citation.reading.${reading}` as MessageKey);
  const silent = /^(.+?) silent, as (\S+) (.+)$/.exec(clause);
  if (silent && (TEXTS as readonly string[]).includes(silent[2]!)) {
    const what = partsWords(t, silent[1]!);
    const where = partsWords(t, silent[3]!);
    if (what !== null && where !== null) return t('citation.silentAs', { what, text: t(`citation.text.${silent[2]}` as MessageKey), where });
  }
  const peek = /^(.+) \(2 to 1\), at the peek: (.+)$/.exec(clause);
  if (peek) {
    const paid = partsWords(t, peek[1]!);
    const at = partsWords(t, peek[2]!);
    if (paid !== null && at !== null) return t('citation.atPeek', { paid, at });
  }
  return partsWords(t, clause) ?? clause;
}

/**
 * A citation in the reader's language: its text by name and where in it, clause by clause; a
 * citation of no text this version knows, as recorded.
 */
export function citationWords(t: Translate, rule: string): string {
  // Lines summed into one (engine/table/public-lines.ts `rulesSaid`): several rules past the line, or each of them.
  if (rule === RULES_SEVERAL) return t('citation.several');
  if (rule.includes(RULES_APART))
    return rule
      .split(RULES_APART)
      .map((one) => citationWords(t, one))
      .reduce((first, second) => t('citation.also', { first, second }));
  const space = rule.indexOf(' ');
  const text = space < 0 ? rule : rule.slice(0, space);
  if (!(TEXTS as readonly string[]).includes(text)) return rule;
  const name = t(`citation.text.${text}` as MessageKey);
  if (space < 0) return name;
  const where = rule
    .slice(space + 1)
    .split('; ')
    .map((clause) => clauseWords(t, clause))
    .reduce((first, second) => t('citation.also', { first, second }));
  return t('citation.cited', { text: name, where });
}
