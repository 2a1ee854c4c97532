// An amount in Chinese financial numerals (大寫金額), as a cheque or a cash-out ticket writes it so
// that no stroke can turn one figure into another: 澳門元壹佰圓正. Pure, from integer minor units.
//
// The rules are those of writing an amount in capital numerals on a bill or cheque (the PRC central
// bank's 《正確填寫票據和結算憑證的基本規定》, followed by the banks of Hong Kong and Macau):
// 壹貳參肆伍陸柒捌玖 with 拾佰仟萬億, 拾 always with its digit (壹拾, never 拾 alone), one 零 for any run
// of zeros inside the number, 零 after 圓 when the 角 is zero and the 分 is not, and 正 after an amount
// that ends at 圓 (or at 角); never after 分.
import type { Currency } from '../protocol/index.js';

const DIGIT = ['零', '壹', '貳', '參', '肆', '伍', '陸', '柒', '捌', '玖'] as const;
const IN_GROUP = ['', '拾', '佰', '仟'] as const;
/** 10^0, 10^4, 10^8, 10^12: 萬, 億 and 兆 (10^12 in Traditional usage). */
const GROUP = ['', '萬', '億', '兆'] as const;

export const ZH_CURRENCY: Readonly<Record<Currency, string>> = { MOP: '澳門元', HKD: '港元' };

/** The largest whole amount written: 10^16 − 1 (four groups). */
export const ZH_MAX_UNITS = 10n ** 16n - 1n;

/** A group of four digits (1…9999) in capitals, zeros inside it written once. */
function group(n: number): string {
  let out = '';
  let zero = false;
  for (let p = 3; p >= 0; p--) {
    const d = Math.floor(n / 10 ** p) % 10;
    if (d === 0) {
      if (out) zero = true;
      continue;
    }
    if (zero) out += DIGIT[0];
    zero = false;
    out += `${DIGIT[d] ?? ''}${IN_GROUP[p] ?? ''}`;
  }
  return out;
}

/** The whole units in capitals ("零" for none). */
export function zhInteger(units: bigint): string {
  if (units < 0n || units > ZH_MAX_UNITS) throw new RangeError(`amount out of range: ${units}`);
  if (units === 0n) return DIGIT[0];
  const groups: number[] = [];
  for (let u = units; u > 0n; u /= 10000n) groups.push(Number(u % 10000n));
  let out = '';
  let zero = false;
  for (let i = groups.length - 1; i >= 0; i--) {
    const g = groups[i] ?? 0;
    if (g === 0) {
      if (out) zero = true;
      continue;
    }
    // A gap of zeros before this group (a whole empty group, or leading zeros inside it) is one 零.
    if (out && (zero || g < 1000)) out += DIGIT[0];
    zero = false;
    out += group(g) + GROUP[i];
  }
  return out;
}

/** An amount of minor units (100 to the unit: avos, cents) in Chinese financial numerals, with its currency. */
export function amountInWordsZh(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`an amount is whole minor units ≥ 0, got ${minor}`);
  const units = BigInt(Math.floor(minor / 100));
  const jiao = Math.floor(minor / 10) % 10;
  const fen = minor % 10;
  let out = ZH_CURRENCY[currency];
  if (units > 0n || (jiao === 0 && fen === 0)) out += `${zhInteger(units)}圓`;
  if (jiao > 0) out += `${DIGIT[jiao]}角`;
  else if (fen > 0 && units > 0n) out += DIGIT[0];
  if (fen > 0) return `${out}${DIGIT[fen]}分`;
  return `${out}正`;
}
