import type { PayItem } from './vocabulary.js';

/**
 * A pay-table line as the station's help shows it, made from the active rule profile itself
 * (never a text written per game), so a no-commission baccarat table or a 6-deck war table says
 * its own terms. Each line names what pays (`help.item.<item>`), how much, and the rule the
 * engine settles it by.
 */

/**
 * What a line pays, as players read it: odds `win : per` (3 : 2, 8 : 1, 1 : 2), with the banker's
 * commission on the winnings where the profile takes one; or the bet returned, whole (a tie at
 * baccarat) or half (a surrender). Never a decimal or a negative ratio.
 */
export type Pays =
  | { readonly kind: 'odds'; readonly win: number; readonly per: number; readonly commissionBasisPoints?: number }
  | { readonly kind: 'returned'; readonly part: 'all' | 'half' };

/** The article (or, in the Portuguese rules, the rule) a line comes from, for a reference a player can read. */
export interface PayRef {
  /** `article-reconstructed`: cited as `[art.N]`, a number reconstructed from a text without headings (war). */
  readonly kind: 'article' | 'article-reconstructed' | 'rule';
  readonly n: number;
}

export interface PayLine {
  readonly item: PayItem;
  readonly pays: Pays;
  /** The rule the engine settles it by, as the record quotes it. */
  readonly rule: string;
  readonly ref?: PayRef;
  /** An additional bet (額外投注, Macau 2009 Art. 13): shown on its own help page. */
  readonly side?: true;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `win : per` in lowest terms: 0.5 : 1 (a no-commission banker's six) is read 1 : 2. */
export function odds(win: number, per: number): Pays {
  const g = gcd(win, per);
  return { kind: 'odds', win: win / g, per: per / g };
}

/** `3:2` as the rule profiles write a payout. */
export function parseRatio(r: string): Pays {
  const [win, per] = r.split(':').map(Number);
  if (win === undefined || per === undefined || !Number.isInteger(win) || !Number.isInteger(per)) throw new Error(`not a payout ratio: ${r}`);
  return odds(win, per);
}

/**
 * The article a rule id names first (`macau-2009 art.13 1)(1), art.14 n.1` → article 13), or the
 * Portuguese rule (`portugal-2001 rule 23`); none for a casino's own pay table or a silent text.
 */
export function payRef(rule: string): PayRef | undefined {
  const art = /(\[)?\bart\.(\d+)/.exec(rule);
  if (art) return { kind: art[1] ? 'article-reconstructed' : 'article', n: Number(art[2]) };
  const r = /\brules? (\d+)/.exec(rule);
  return r ? { kind: 'rule', n: Number(r[1]) } : undefined;
}

/** A line with its readable reference beside the rule id the settlement quotes. */
export function payLine(item: PayItem, pays: Pays, rule: string, side = false): PayLine {
  const ref = payRef(rule);
  return { item, pays, rule, ...(ref ? { ref } : {}), ...(side ? { side: true as const } : {}) };
}
