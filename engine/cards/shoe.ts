import { RANKS, SUITS, cardCode, isCardCode, type Card, type CardCode } from './card.js';
import type { Rng } from '../random/seeded-rng.js';

/** All cards of `decks` 52-card decks, in pack order (suit by suit, A…K). */
export function freshCards(decks: number): Card[] {
  if (!Number.isInteger(decks) || decks < 1 || decks > 16) throw new RangeError(`decks must be 1–16, got ${decks}`);
  const out: Card[] = [];
  for (let d = 0; d < decks; d++) for (const suit of SUITS) for (const rank of RANKS) out.push({ rank, suit });
  return out;
}

/** Fisher–Yates shuffle driven by the seeded generator it is handed; returns a new array. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = a[i] as T;
    a[i] = a[j] as T;
    a[j] = t;
  }
  return a;
}

/**
 * Counts of each exact card (rank+suit) still allowed in a shoe of `decks` decks. A card read
 * beyond its count breaks the inventory (more copies than decks): the host puts the table on hold.
 */
export class ShoeInventory {
  private readonly seen = new Map<CardCode, number>();

  constructor(readonly decks: number) {}

  /** Records a card; false (and nothing recorded) if it would exceed the decks' copies. */
  take(card: Card): boolean {
    const code = cardCode(card);
    const n = this.seen.get(code) ?? 0;
    if (n >= this.decks) return false;
    this.seen.set(code, n + 1);
    return true;
  }

  remaining(card: Card): number {
    return this.decks - (this.seen.get(cardCode(card)) ?? 0);
  }

  /** How many of each card have left the shoe: plain data, for a state that must serialise. */
  counts(): Partial<Record<CardCode, number>> {
    return Object.fromEntries(this.seen);
  }

  /** An inventory with these cards already out (the inverse of `counts`). */
  static fromCounts(decks: number, counts: Readonly<Partial<Record<CardCode, number>>>): ShoeInventory {
    const inv = new ShoeInventory(decks);
    // The keys are card codes by type (a state read by its schema): checked against the 52, never parsed.
    for (const [code, n] of Object.entries(counts)) {
      if (!isCardCode(code)) throw new RangeError(`${code} is not a card code`);
      if (n === undefined) continue;
      if (!Number.isInteger(n) || n < 0 || n > decks) throw new RangeError(`${code}: ${n} out of a ${decks}-deck shoe`);
      if (n > 0) inv.seen.set(code, n);
    }
    return inv;
  }
}
