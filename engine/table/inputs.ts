import { z } from 'zod';
import { CARD_CODES, cardCode, cardOf, RANKS, SUITS, type CardCode } from '../cards/card.js';
import { BET_IDS, CORRECTIONS, DECISION_ACTIONS, MAX_REMOTE_STATIONS, MAX_STATION, UNCORRECTABLE } from './vocabulary.js';

// Everything that can happen to a table, as data. Each input the table accepts is journalled
// (`table.input`) in the same transaction as what it caused, and a fold of `step` over them
// rebuilds the table exactly: these schemas are what the fold reads back.

export const CardCodeSchema = z.enum(CARD_CODES satisfies readonly CardCode[]);

/**
 * A card in a table input: the `Card` value the shoe's driver parsed, written to the journal as
 * its code (`AS`) and read back from it as the same value. The journal's form is the code it
 * always was, so journals written before still fold.
 */
export const CardSchema = z.codec(CardCodeSchema, z.strictObject({ rank: z.enum(RANKS), suit: z.enum(SUITS) }).readonly(), {
  decode: cardOf,
  encode: cardCode,
});

const station = z.number().int().min(1).max(MAX_STATION);
const seat = z.number().int().min(1).max(99);
const minor = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** The shell's clock (ms since the epoch) when the input happened: the only time the table knows. */
const at = z.number().int().nonnegative();
const sequence = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const person = z.string().min(1).max(128);

export const SpotSchema = z.union([
  z.strictObject({ bet: z.enum(BET_IDS) }),
  z.strictObject({ bet: z.literal('behind'), seat }),
  z.strictObject({ bet: z.enum(BET_IDS), seat }),
]);

export const LimitsSchema = z.strictObject({ min: minor, max: minor }).refine((l) => l.min <= l.max, { message: 'min must not exceed max' });

export const TimingsSchema = z.strictObject({
  bettingMs: z.number().int().min(1).max(600_000),
  decisionMs: z.number().int().min(1).max(600_000),
  resultsMs: z.number().int().min(0).max(600_000),
});

export const TableParamsSchema = z.strictObject({
  tableId: z.string().regex(/^[A-Za-z0-9-]{1,32}$/),
  stations: z.array(z.strictObject({ station, seat })).min(1).max(64).readonly(),
  remote: z.number().int().min(1).max(MAX_REMOTE_STATIONS).optional(),
  limits: LimitsSchema,
  betLimits: z.partialRecord(z.enum([...BET_IDS, 'behind']), LimitsSchema),
  timings: TimingsSchema,
  roundMax: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  jackpotHandpayAbove: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
});

export const TableInput = z.discriminatedUnion('kind', [
  /**
   * The table's parameters as this run starts with them (first start, or a changed configuration
   * file). `game` is the game's identity: its kind, profile and every option, a jackpot program's
   * figures included (several hundred characters for Portugal's progressive), so its bound is wide.
   */
  z.strictObject({ kind: z.literal('open'), at, params: TableParamsSchema, game: z.string().min(1).max(65_536) }),
  /** A journalled configuration change takes effect (between rounds): new limits or timings. */
  z.strictObject({ kind: z.literal('configure'), at, params: TableParamsSchema }),
  /** The host started again on this journal: countdowns start afresh; `newShoe` when its shoe is a new device. */
  z.strictObject({ kind: z.literal('resume'), at, newShoe: z.boolean() }),
  z.strictObject({ kind: z.literal('place-bet'), at, station, spot: SpotSchema, amount: minor }),
  z.strictObject({ kind: z.literal('clear-bets'), at, station }),
  z.strictObject({ kind: z.literal('decide'), at, station, action: z.enum(DECISION_ACTIONS), amount: minor.optional() }),
  /** The round needs nothing more: it is settled (asked for by the step that completed it). */
  z.strictObject({ kind: z.literal('settle'), at }),
  /** The countdown numbered `countdown` ran out. */
  z.strictObject({ kind: z.literal('timer'), at, countdown: z.number().int().nonnegative() }),
  /** A card read by the shoe, in the order it left the shoe; `burn` when the shoe says it was burnt (its burn mode). */
  z.strictObject({ kind: z.literal('card'), at, card: CardSchema, sequence: sequence.optional(), burn: z.literal(true).optional() }),
  /** The shoe could not read a card, or read one of another deck set. */
  z.strictObject({
    kind: z.literal('anomaly'),
    at,
    reason: z.enum(['unreadable', 'wrong-deck']),
    card: z.string().min(1).max(8).optional(),
    sequence: sequence.optional(),
  }),
  z.strictObject({ kind: z.literal('cut-card'), at, sequence: sequence.optional() }),
  z.strictObject({ kind: z.literal('shoe-loaded'), at, sequence: sequence.optional() }),
  /**
   * Two people void the round in play, or lift a hold between rounds (every bet returned): the last
   * resort, `uncorrectable` saying why no correction the text orders could put the round right.
   */
  z.strictObject({
    kind: z.literal('void'),
    at,
    reason: z.string().min(1).max(2000),
    authorisedBy: z.array(person).min(1).max(4).readonly(),
    uncorrectable: z.enum(UNCORRECTABLE).optional(),
  }),
  /** A supervisor stops the round for a dealing error seen at the table (a card exposed, laid at another hand). */
  z.strictObject({ kind: z.literal('dealing-error'), at, by: person }),
  /** Two people correct the dealing error the table holds for, as its text orders (engine/table/holds.ts). */
  z.strictObject({ kind: z.literal('correct'), at, correction: z.enum(CORRECTIONS), supervisor: person, witness: person }),
  /** Two people enter by hand the card the shoe could not read. */
  z.strictObject({ kind: z.literal('enter-card'), at, card: CardSchema, supervisor: person, witness: person }),
  /** What the current faults stop (host/tilts). */
  z.strictObject({
    kind: z.literal('faults'),
    at,
    halted: z.string().max(512).nullable(),
    newBetsStopped: z.string().max(512).nullable(),
    jackpotStopped: z.string().max(512).nullable().optional(),
    disabled: z.array(station).max(MAX_STATION).readonly(),
  }),
  /**
   * Two people set a progressive level's pool, on the authority's reference (Portugal rules 40,
   * 44): between rounds only, never below what the pool holds nor below 10,000 chips.
   */
  z.strictObject({
    kind: z.literal('jackpot-reset'),
    at,
    level: z.string().regex(/^[a-z][a-z0-9-]{0,23}$/),
    to: minor,
    supervisor: person,
    witness: person,
    authorisation: z.string().min(1).max(128),
  }),
  /**
   * An attendant paid a jackpot award handed to them (its `handpay.confirm` journalled): once the
   * round's last one is, its cards may be collected (Portugal rule 49).
   */
  z.strictObject({ kind: z.literal('jackpot-paid'), at, handpay: z.string().min(1).max(256) }),
  /** A station's credit meter changed outside the table (a note, a cash-out): derived from that ledger entry, never journalled as an input. */
  z.strictObject({ kind: z.literal('credit'), station, balance: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }),
  /** The ledger refused to journal what the last input caused: nothing of it happened, and the table holds. */
  z.strictObject({ kind: z.literal('journal-refused'), at, reason: z.string().max(2000) }),
]);
export type TableInput = z.infer<typeof TableInput>;
/** A table input as the journal stores it (its cards as codes). */
export type JournalledInput = z.input<typeof TableInput>;

/** The journal's form of an input: what `TableInput` reads back as the same input. */
export function journalledInput(input: TableInput): JournalledInput {
  return z.encode(TableInput, input);
}
export type InputKind = TableInput['kind'];
export type InputOf<K extends InputKind> = Extract<TableInput, { kind: K }>;
