import { z } from 'zod';
import { lazily } from './lazy.js';
import { CORRECTIONS, PAY_ITEMS } from '../engine/table/vocabulary.js';
import { CardFace, LineBet, StreakMarker } from './round.js';
import { BoxNumber, MAX_STATIONS, MinorUnits } from './units.js';

/**
 * Optional parts of the table's and a station's views that only the screens read: the baccarat
 * road maps of the current shoe, the other games' recent-round strip, and a station's own recall
 * of its last rounds. Each is bounded so a snapshot stays well under MAX_HOST_MESSAGE_BYTES.
 */

const Seat = z.number().int().min(1).max(MAX_STATIONS);
const Cell = { x: z.number().int().min(0).max(255), y: z.number().int().min(0).max(5) };
const Colour = z.enum(['red', 'blue']);

/** A shoe holds at most about 85 coups (8 decks); 160 leaves room for any profile. */
export const MAX_ROAD_COUPS = 160;

export const RoadsView = lazily('RoadsView', () =>
  z.strictObject({
    /** The shoe these roads belong to; a new shoe starts them again. */
    shoe: z.string().max(64),
    beadPlate: z
      .array(
        z.strictObject({
          ...Cell,
          winner: z.enum(['banker', 'player', 'tie']),
          playerPair: z.boolean(),
          bankerPair: z.boolean(),
          total: z.number().int().min(0).max(9).optional(),
        }),
      )
      .max(MAX_ROAD_COUPS),
    bigRoad: z
      .array(
        z.strictObject({
          ...Cell,
          side: z.enum(['banker', 'player']),
          ties: z.number().int().min(0).max(MAX_ROAD_COUPS),
          playerPair: z.boolean(),
          bankerPair: z.boolean(),
        }),
      )
      .max(MAX_ROAD_COUPS),
    leadingTies: z.number().int().min(0).max(MAX_ROAD_COUPS),
    bigEyeBoy: z.array(z.strictObject({ ...Cell, colour: Colour })).max(MAX_ROAD_COUPS),
    smallRoad: z.array(z.strictObject({ ...Cell, colour: Colour })).max(MAX_ROAD_COUPS),
    cockroachPig: z.array(z.strictObject({ ...Cell, colour: Colour })).max(MAX_ROAD_COUPS),
    /** 問路: what each derived road would mark if the next coup went to the banker or the player. */
    ask: z.strictObject({
      banker: z.strictObject({ bigEyeBoy: Colour.nullable(), smallRoad: Colour.nullable(), cockroachPig: Colour.nullable() }),
      player: z.strictObject({ bigEyeBoy: Colour.nullable(), smallRoad: Colour.nullable(), cockroachPig: Colour.nullable() }),
    }),
    stats: z.strictObject({
      coups: z.number().int().min(0).max(MAX_ROAD_COUPS),
      banker: z.number().int().min(0).max(MAX_ROAD_COUPS),
      player: z.number().int().min(0).max(MAX_ROAD_COUPS),
      tie: z.number().int().min(0).max(MAX_ROAD_COUPS),
      bankerPair: z.number().int().min(0).max(MAX_ROAD_COUPS),
      playerPair: z.number().int().min(0).max(MAX_ROAD_COUPS),
    }),
  }),
);
export type RoadsView = z.infer<typeof RoadsView>;

/**
 * One coup of a baccarat shoe as the station screens are sent it (protocol 6): the winner (`B`,
 * `P`, `T`), the winning total (a tie's: either), `p` for a player pair, `b` for a banker pair.
 * The screen lays its roads out from these (protocol/shoe-coups.ts).
 */
export const CoupMark = z.string().regex(/^[BPT][0-9]p?b?$/);

/** A shoe's coups, in dealing order: what every station's roads are laid out from. */
export const ShoeCoups = lazily('ShoeCoups', () =>
  z.strictObject({
    /** The shoe (the roads' `shoe`); a new shoe starts its list again. */
    id: z.string().max(64),
    coups: z.array(CoupMark).max(MAX_ROAD_COUPS),
  }),
);
export type ShoeCoups = z.infer<typeof ShoeCoups>;

export const MAX_HISTORY = 20;

/** One finished round on the blackjack/war history strip: the dealer's cards and each seat's outcome. */
export const HistoryEntry = lazily('HistoryEntry', () =>
  z.strictObject({
    roundId: z.string().min(1).max(64),
    dealer: z.array(CardFace).max(24),
    dealerTotal: z.number().int().min(0).max(40).nullable(),
    seats: z.array(z.strictObject({ seat: Seat, outcome: z.enum(['win', 'lose', 'push']) })).max(MAX_STATIONS),
  }),
);
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const MAX_RECALL_ROUNDS = 10;

/** The seats a recalled bet or line summed across them holds (a station bets on seven at most, and behind none twice). */
const AcrossSeats = z.array(BoxNumber).min(2).max(8);

/** One of a station's own past rounds, from the ledger's recall: nobody else's bets or credits. */
export const StationRecallRound = lazily('StationRecallRound', () =>
  z.strictObject({
    roundId: z.string().min(1).max(64),
    ts: z.string().max(40),
    status: z.enum(['settled', 'void']),
    /** Every card of the round in dealing order, with where it went (`seat:3:0`, `dealer`, `banker`…). */
    cards: z.array(z.strictObject({ card: CardFace, to: z.string().max(32) })).max(96),
    /** `seats`: a bet summed across the seats past the cap (host/screens/recall.ts), every seat it holds, `seat` their first. */
    bets: z.array(z.strictObject({ seat: BoxNumber, seats: AcrossSeats.optional(), bet: LineBet, amount: MinorUnits.positive() })).max(32),
    lines: z
      .array(
        z.strictObject({
          seat: BoxNumber,
          seats: AcrossSeats.optional(),
          bet: LineBet,
          /** The hand of a split seat: Portugal's rules set no limit on splitting (maxHands up to 99, engine/blackjack/option-table.ts). */
          hand: z.number().int().min(0).max(98).optional(),
          stake: MinorUnits.nonnegative(),
          net: MinorUnits,
          rule: z.string().max(128),
          /** The non-default choices the line was settled under (`option=value`) and their authorisation reference. */
          choices: z.array(z.string().max(96)).max(12).optional(),
          authorisation: z.string().max(128).optional(),
          /** A winning-streak stake wagered in an earlier round and held until this one decided it. */
          carried: z.literal(true).optional(),
        }),
      )
      .max(64),
    /** The station's own seat's winning-streak marker before and after the round (null: none). */
    streak: z.strictObject({ before: StreakMarker.nullable(), after: StreakMarker.nullable() }).optional(),
    /** Dealing errors corrected in the round, each with the article that ordered the correction. */
    corrections: z
      .array(z.strictObject({ correction: z.enum(CORRECTIONS), card: z.string().max(3).optional(), article: z.string().max(128).optional() }))
      .max(16)
      .optional(),
    /** The corrections past those 16, left out of the recall (the round's evidence has them): absent when none. */
    correctionsOmitted: z.number().int().min(1).optional(),
    creditBefore: MinorUnits.nonnegative().optional(),
    creditAfter: MinorUnits.nonnegative().optional(),
    /**
     * The table's rule set on record when the round was played (issue 51 item 2, `rules.record`):
     * the regulator's authorisation reference and the day it took effect, or a demonstration table.
     */
    rules: z.strictObject({ reference: z.string().max(64).optional(), effective: z.string().max(10).optional(), demonstration: z.boolean() }).optional(),
  }),
);
export type StationRecallRound = z.infer<typeof StationRecallRound>;

/**
 * What a pay-table line pays, as players read it: odds `win : per` (3 : 2, 8 : 1, 1 : 2), with the
 * banker's commission on the winnings where the profile takes one; or the bet returned, whole
 * (a tie at baccarat) or half (a surrender). Never a decimal or a negative ratio.
 */
export const Pays = lazily('Pays', () =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('odds'),
      win: z.number().int().min(1).max(100_000),
      per: z.number().int().min(1).max(100_000),
      /** Commission taken from the winnings, in basis points (500 = 5%). */
      commissionBasisPoints: z.number().int().min(1).max(9_999).optional(),
    }),
    z.strictObject({ kind: z.literal('returned'), part: z.enum(['all', 'half']) }),
  ]),
);
export type Pays = z.infer<typeof Pays>;

/**
 * The article (or, in the Portuguese rules, the rule) a pay-table line comes from, for a
 * reference the player can read (第十三條, Art. 13.º, Rule 23); absent where the profile's text
 * has none (a casino's own pay table).
 */
/** `article-reconstructed`: the text on file has no headings and the number is the article's place in it (war). */
export const PayRef = z.strictObject({ kind: z.enum(['article', 'article-reconstructed', 'rule']), n: z.number().int().min(1).max(999) });
export type PayRef = z.infer<typeof PayRef>;

/** One line of the active profile's pay table, for the station's help (`help.item.<item>`). */
export const PayLine = lazily('PayLine', () =>
  z.strictObject({
    item: z.enum(PAY_ITEMS),
    pays: Pays,
    /** The rule the engine settles it by, as the record quotes it (for service mode and disputes). */
    rule: z.string().max(128),
    ref: PayRef.optional(),
    /** An additional bet (額外投注, Macau 2009 Art. 13): shown on its own help page. */
    side: z.literal(true).optional(),
  }),
);
export type PayLine = z.infer<typeof PayLine>;
