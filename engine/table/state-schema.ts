import { z } from 'zod';
import { RANKS, SUITS } from '../cards/card.js';
import { CardCodeSchema, SpotSchema, TableParamsSchema } from './inputs.js';
import { TIMER_KINDS, type TableState } from './state.js';
import { DECISION_ACTIONS, HOLD_REASONS, JACKPOT_COMBINATIONS, LINE_BETS, MAX_STATION, REFUSAL_REASONS } from './vocabulary.js';

// The table's state as a checkpoint holds it (issue 53): JSON the ledger signed, read back at a
// start instead of folding the whole journal (host/table/recover.ts). It is parsed here, field by
// field, rather than believed: a checkpoint a build of another shape wrote, or one re-signed by
// whoever holds the key file, is refused with the path of what is wrong, and the start folds from
// the first entry instead, so nothing the journal holds is lost. The game's own part (its shoe
// and its round) is parsed by the schemas the caller gives.

const int = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A credit may be negative only by a bug; the checkpoint says what the fold had, so any safe integer. */
const amount = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const station = z.number().int().min(1).max(MAX_STATION);
const seat = z.number().int().min(1).max(99);
const text = z.string().max(65_536);
const card = z.strictObject({ rank: z.enum(RANKS), suit: z.enum(SUITS) });
const lineBet = z.enum(LINE_BETS);

const chips = z.strictObject({ station, spot: SpotSchema, amount: int });

const settledLine = z.strictObject({
  station,
  seat: z.number().int().min(0).max(99),
  bet: lineBet,
  hand: int.optional(),
  stake: int,
  net: amount,
  rule: text,
  choices: z.array(text).optional(),
  authorisation: text.optional(),
  handpay: int.optional(),
  carried: z.literal(true).optional(),
});

const hold = z.strictObject({
  reason: z.enum(HOLD_REASONS),
  card: card.nullable().optional(),
  reported: text.optional(),
  sequence: int.nullable(),
  reads: z.array(z.strictObject({ card: text.optional(), shoeSequence: int.optional() })),
  roundId: text.nullable(),
});

/**
 * The schema of a table's state whose game keeps `shoe` and `round` as these schemas say. Its
 * output is the engine's `TableState`: the annotation makes the compiler hold the two to each other.
 */
export function tableStateSchema<S, R>(shoe: z.ZodType<S>, round: z.ZodType<R>): z.ZodType<TableState<S, R>> {
  return z.strictObject({
    params: TableParamsSchema,
    credits: z.record(z.string().regex(/^\d{1,4}$/), amount),
    roundNo: int,
    roundId: text,
    phase: z.enum(['betting', 'dealing', 'results']),
    countdown: z.strictObject({ id: int, kind: z.enum(TIMER_KINDS), endsAt: int }).nullable(),
    countdowns: int,
    chips: z.array(chips),
    placed: z.array(z.strictObject({ station, bet: lineBet, seat: seat.optional(), amount: int })),
    unplayed: z.array(z.strictObject({ ...chips.shape, min: int, reason: z.enum(REFUSAL_REASONS) })),
    shoe,
    round: round.nullable(),
    cards: z.array(z.strictObject({ card: CardCodeSchema, to: text })),
    decisions: z.array(
      z.strictObject({
        seat,
        hand: int.optional(),
        station,
        action: z.enum(DECISION_ACTIONS),
        auto: z.boolean().optional(),
        notFollowing: z.array(text).optional(),
      }),
    ),
    results: z.array(settledLine).nullable(),
    hold: hold.nullable(),
    needsShuffle: z.boolean(),
    shoeDeferred: z.boolean(),
    shoeNo: int,
    out: z.partialRecord(CardCodeSchema, int),
    sequences: z.array(int),
    faults: z.strictObject({
      halted: text.nullable(),
      newBetsStopped: text.nullable(),
      disabled: z.array(station),
      jackpotStopped: text.nullable().optional(),
    }),
    history: z.array(
      z.strictObject({
        roundId: text,
        dealer: z.array(z.union([CardCodeSchema, z.literal('XX')])),
        dealerTotal: int.nullable(),
        seats: z.array(z.strictObject({ seat, outcome: z.enum(['win', 'lose', 'push']) })),
      }),
    ),
    held: z.array(z.strictObject({ card, sequence: int.optional() })).optional(),
    lastJackpotHit: z
      .strictObject({ roundId: text, seat, station: station.optional(), combination: z.enum(JACKPOT_COMBINATIONS), level: text, amount: int })
      .optional(),
    jackpotUnpaid: z.strictObject({ roundId: text, seat, handpays: z.array(text) }).optional(),
    jackpotResets: z.strictObject({ at: int, n: int }).optional(),
    keptOut: z.array(station).optional(),
    seatsNext: TableParamsSchema.shape.stations.optional(),
  });
}
