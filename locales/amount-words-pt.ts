// An amount in words in Portuguese as written in Macau (European Portuguese: dezasseis, catorze; the
// long scale: milhão 10^6, mil milhões 10^9, bilião 10^12), as a cheque or a cash-out ticket writes
// it: «cem patacas», «mil e duzentas patacas e cinquenta avos», «um milhão de patacas». Pure, from
// integer minor units. The grammar it follows:
// - numbers agree in gender with what they count: pataca is feminine (uma, duas, duzentas patacas;
//   duas mil patacas), avo, dólar and cêntimo masculine; the count of milhões and biliões is masculine
//   (duzentos milhões), since milhão is a masculine noun;
// - «e» joins hundreds, tens and units (cento e vinte e três), and joins the last group to the rest
//   when that group is below 100 or a round hundred (mil e cinco, mil e duzentas, dois milhões e
//   quinhentas mil), not otherwise (mil duzentas e trinta);
// - «de» before the currency after a round milhão or bilião (um milhão de patacas);
// - 100 is «cem», 101–199 «cento e …»; 1000 is «mil», never «um mil».
import type { Currency } from '../protocol/index.js';

type Gender = 'f' | 'm';

const UNITS = [
  'zero',
  'um',
  'dois',
  'três',
  'quatro',
  'cinco',
  'seis',
  'sete',
  'oito',
  'nove',
  'dez',
  'onze',
  'doze',
  'treze',
  'catorze',
  'quinze',
  'dezasseis',
  'dezassete',
  'dezoito',
  'dezanove',
] as const;
const TENS = ['', '', 'vinte', 'trinta', 'quarenta', 'cinquenta', 'sessenta', 'setenta', 'oitenta', 'noventa'] as const;
const HUNDREDS = ['', 'cento', 'duzent', 'trezent', 'quatrocent', 'quinhent', 'seiscent', 'setecent', 'oitocent', 'novecent'] as const;

interface Unit {
  one: string;
  many: string;
  gender: Gender;
}

/** The currency's unit and its hundredth, singular and plural, with their gender. */
export const PT_CURRENCY: Readonly<Record<Currency, { major: Unit; minor: Unit }>> = {
  MOP: { major: { one: 'pataca', many: 'patacas', gender: 'f' }, minor: { one: 'avo', many: 'avos', gender: 'm' } },
  HKD: { major: { one: 'dólar de Hong Kong', many: 'dólares de Hong Kong', gender: 'm' }, minor: { one: 'cêntimo', many: 'cêntimos', gender: 'm' } },
};

/** Scales above the thousands (long scale), each a masculine noun. */
const SCALES = [
  { value: 10n ** 12n, one: 'um bilião', many: 'biliões' },
  { value: 10n ** 6n, one: 'um milhão', many: 'milhões' },
] as const;

/** The largest whole amount written: below 10^18 (a million biliões). */
export const PT_MAX_UNITS = 10n ** 18n - 1n;

function unit(n: number, g: Gender): string {
  if (n === 1) return g === 'f' ? 'uma' : 'um';
  if (n === 2) return g === 'f' ? 'duas' : 'dois';
  return UNITS[n] ?? '';
}

/** 1…999 in words. */
function upTo999(n: number, g: Gender): string {
  if (n === 100) return 'cem';
  const h = Math.floor(n / 100);
  const rest = n % 100;
  const parts: string[] = [];
  if (h > 0) parts.push(h === 1 ? 'cento' : `${HUNDREDS[h]}${g === 'f' ? 'as' : 'os'}`);
  if (rest > 0 && rest < 20) parts.push(unit(rest, g));
  else if (rest >= 20) {
    const t = Math.floor(rest / 10);
    const u = rest % 10;
    parts.push(u === 0 ? (TENS[t] ?? '') : `${TENS[t]} e ${unit(u, g)}`);
  }
  return parts.join(' e ');
}

/** The last part is joined with «e» when its count is below 100 or a round hundred. */
function joinsWithE(n: number): boolean {
  return n < 100 || n % 100 === 0;
}

/**
 * Whether the last part takes «e» before it: when it is one group of three digits (a count below
 * 1000, or thousands with nothing after) below 100 or a round hundred. A part of two groups (mil e
 * quinhentos milhões) has its «e» inside.
 */
function lastGroupJoins(count: number): boolean {
  if (count < 1000) return joinsWithE(count);
  return count % 1000 === 0 && joinsWithE(count / 1000);
}

/** Whole units in words, and whether the words end on a round scale (then «de» comes before the currency). */
export function ptInteger(units: bigint, g: Gender): { words: string; roundScale: boolean } {
  if (units < 0n || units > PT_MAX_UNITS) throw new RangeError(`amount out of range: ${units}`);
  if (units === 0n) return { words: 'zero', roundScale: false };
  // Parts, highest first: biliões, milhões (counts up to 999 999, masculine), mil, units.
  const parts: { count: number; words: string; scale: boolean }[] = [];
  let rest = units;
  for (const s of SCALES) {
    const count = Number(rest / s.value);
    rest %= s.value;
    if (count === 0) continue;
    parts.push({ count, words: count === 1 ? s.one : `${thousands(count, 'm')} ${s.many}`, scale: true });
  }
  const r = Number(rest);
  const th = Math.floor(r / 1000);
  if (th > 0) parts.push({ count: th, words: th === 1 ? 'mil' : `${upTo999(th, g)} mil`, scale: false });
  if (r % 1000 > 0) parts.push({ count: r % 1000, words: upTo999(r % 1000, g), scale: false });
  const last = parts.at(-1);
  const words = parts.map((p) => (p === last && parts.length > 1 && lastGroupJoins(p.count) ? `e ${p.words}` : p.words)).join(' ');
  return { words, roundScale: last?.scale === true };
}

/** 1…999 999 (a count of milhões or biliões) in words, without «de». */
function thousands(n: number, g: Gender): string {
  const th = Math.floor(n / 1000);
  const rest = n % 1000;
  if (th === 0) return upTo999(rest, g);
  const head = th === 1 ? 'mil' : `${upTo999(th, g)} mil`;
  if (rest === 0) return head;
  return `${head} ${joinsWithE(rest) ? 'e ' : ''}${upTo999(rest, g)}`;
}

function counted(units: bigint, u: Unit): string {
  const { words, roundScale } = ptInteger(units, u.gender);
  return `${words} ${roundScale ? 'de ' : ''}${units === 1n ? u.one : u.many}`;
}

/** An amount of minor units (100 to the unit) in Portuguese words, with its currency. */
export function amountInWordsPt(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`an amount is whole minor units ≥ 0, got ${minor}`);
  const { major, minor: sub } = PT_CURRENCY[currency];
  const units = BigInt(Math.floor(minor / 100));
  const cents = BigInt(minor % 100);
  if (cents === 0n) return counted(units, major);
  if (units === 0n) return counted(cents, sub);
  return `${counted(units, major)} e ${counted(cents, sub)}`;
}
