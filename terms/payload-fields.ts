import { z } from 'zod';

// The fields the journal's payloads share (ledger/entries.ts, terms/round-terms.ts and the parts they gather). Every
// amount is integer minor units (avos/cents) of the table's currency.

export const minor = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
export const positive = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
// Seated 1–7 and remote from 101 (engine/table/vocabulary.ts: two thousand remote stations at most, 101–2100).
export const station = z.number().int().min(1).max(9999);
/** A seat of the felt, or 0: the stadium box, where a remote station's own bets play (no seat). */
export const seat = z.number().int().min(0).max(99);
/**
 * A seat's hand, 0 for its first: Portugal's rules set no limit on splitting and a Macau house may
 * choose up to 99 hands (engine/blackjack/option-table.ts `maxHands`). At most 7, the journal refused
 * a ninth hand's decision and settlement, and the table could not go on (host/table/split-many-hands.test.ts).
 */
export const hand = z.number().int().min(0).max(98);
export const id = z.string().min(1).max(128);
export const text = z.string().max(2000);
export const who = z.string().min(1).max(128);
/**
 * The table's currency an amount of the table's is in (ISO 4217), on the entries that move it and
 * named none before 7 December 2026 (a credit cancelled, a handpay, a casino system's transfer,
 * stakes) and on a start: an older entry without it is read in the currency in force at its seq
 * (ledger/currency-at.ts).
 */
export const tableCurrency = z.string().regex(/^[A-Z]{3}$/);
