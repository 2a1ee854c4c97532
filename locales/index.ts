import en from './en.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };
import zhHant from './zh-Hant.json' with { type: 'json' };

/** The catalogues, keyed by the protocol's language names. zh-Hant is the source catalogue. */
export const catalogues = { 'zh-Hant': zhHant, pt, en } as const;
export type Catalogue = typeof zhHant;

/** The words at a dotted key of a catalogue (`tilt.bill-jam`), or undefined when there are none. */
export function wordAt(catalogue: unknown, key: string): string | undefined {
  let node: unknown = catalogue;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = Reflect.get(node, part);
  }
  return typeof node === 'string' ? node : undefined;
}

/** The amount in words a cash-out ticket prints: Chinese financial numerals, Portuguese. */
export { amountInWordsZh } from './amount-words-zh.js';
export { amountInWordsPt } from './amount-words-pt.js';
