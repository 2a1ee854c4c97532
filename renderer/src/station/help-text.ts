import type { TFunction } from 'i18next';
import type { Language, PayLine, PayRef, Pays } from '../../../protocol/index.js';
import { intlLocale } from '../../../locales/money.js';

const DIGITS = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/**
 * An article number as the Chinese text writes it (第十三條, 第六十四條): the 2009 bilingual text
 * numbers its articles in Chinese numerals, and a player looking one up finds it that way.
 */
export function chineseNumber(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 999) return String(n);
  const hundreds = Math.floor(n / 100);
  const tens = Math.floor((n % 100) / 10);
  const units = n % 10;
  let out = hundreds ? `${DIGITS[hundreds]}百` : '';
  // 10–19 read 十, 十一…; after a hundred the ten is said in full (一百一十) and a missing ten is 零.
  if (tens) out += `${tens === 1 && !hundreds ? '' : DIGITS[tens]}十`;
  else if (hundreds && units) out += '零';
  return out + DIGITS[units]!;
}

/** The article (or Portuguese rule) a line comes from, as a player would look it up. */
export function refText(t: TFunction, ref: PayRef, language: Language): string {
  // Chinese readers, Traditional or Simplified, look an article up by its Chinese numeral (第十九條).
  const n = language.split('-')[0] === 'zh' ? chineseNumber(ref.n) : String(ref.n);
  return t(`help.ref.${ref.kind}`, { n });
}

/**
 * What a line pays, in the words of the regulations: the Chinese text says the stake first
 * (「1賠11」, Art. 14), the Portuguese the winnings first («11 para 1»); a commission is named
 * with its percentage; a surrender or a baccarat tie returns the bet, whole or half.
 */
export function paysText(t: TFunction, pays: Pays, language: Language): string {
  if (pays.kind === 'returned') return t(`help.returned.${pays.part}`);
  const number = new Intl.NumberFormat(intlLocale(language), { maximumFractionDigits: 0 });
  const odds = { win: number.format(pays.win), per: number.format(pays.per) };
  if (pays.commissionBasisPoints === undefined) return t('help.odds', odds);
  const pct = new Intl.NumberFormat(intlLocale(language), { style: 'percent', maximumFractionDigits: 2 }).format(pays.commissionBasisPoints / 10_000);
  return t('help.oddsCommission', { ...odds, pct });
}

/** One line of the help's pay table: what pays, how much, and the article, never a rule id. */
export function payLineText(t: TFunction, line: PayLine, language: Language): string {
  const item = t(`help.item.${line.item}`);
  const pays = paysText(t, line.pays, language);
  return line.ref ? t('help.line', { item, pays, ref: refText(t, line.ref, language) }) : t('help.lineNoRef', { item, pays });
}
