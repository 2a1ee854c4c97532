import { z } from 'zod';
import { CARD_CODES, RANKS, SUITS, type CardCode } from '../cards/card.js';
import { BET_IDS, MAX_STATION } from './vocabulary.js';

// The pieces of a game's schemas for its shoe and its round as a checkpoint holds them (issue 53
// item 7e: host/table/recover.ts parses a checkpoint with the game's own schemas, given by its
// definition, `GameDefinition.schemas`). A checkpoint is JSON whoever holds the key file can sign:
// each piece takes only what the fold can have written.

/** A count or an index: a whole number, never negative. */
export const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A stake or a payout in minor units: whole, never negative. */
export const stake = count;
/** A result in minor units (a line's net): whole, of either sign. */
export const amount = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
export const station = z.number().int().min(1).max(MAX_STATION);
/** A seat of the felt (0: the stadium box's lines). */
export const seat = z.number().int().min(0).max(99);
export const text = z.string().max(65_536);
/** A card as the engine keeps it. */
export const card = z.strictObject({ rank: z.enum(RANKS), suit: z.enum(SUITS) });
export const cardCode = z.enum(CARD_CODES satisfies readonly CardCode[]);
/** How many of each card have left the shoe. */
export const cardsOut = z.partialRecord(cardCode, count);
/** A bettor's stakes by bet id. */
export const betStakes = z.partialRecord(z.enum(BET_IDS), stake);

/** A settlement line's common fields (engine/settlement/settlement-line.ts). */
export const settlementLine = {
  seat,
  bet: text,
  hand: count.optional(),
  stake,
  net: amount,
  rule: text,
  choices: z.array(text).optional(),
  authorisation: text.optional(),
};

/** A type without its readonly marks, all the way down: a schema's output and the engine's type compared as data. */
type Plain<T> = T extends (...a: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? Plain<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Plain<T[K]> }
      : T;

/**
 * True when a schema and the engine's type agree both ways: every value the schema gives is of
 * the type, and every value of the type is one the schema takes (readonly marks aside). Each game's
 * schema file holds `const _agrees: Agrees<Type, typeof schema> = true`, which does not compile
 * when a field is added to one and not the other.
 */
export type Agrees<T, S extends z.ZodType> = [Plain<T>] extends [Plain<z.output<S>>] ? ([Plain<z.output<S>>] extends [Plain<T>] ? true : false) : false;
