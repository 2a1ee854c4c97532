import { z } from 'zod';
import { betStakes, card, count, station, type Agrees } from '../table/part-schemas.js';
import { BURN_FORMULAS } from './profiles.js';
import type { ShoeSession } from './shoe-session.js';
import type { SeatStakes, StadiumStakes } from '../table/game.js';
import type { CoupResult } from './tableau.js';

// A baccarat table's shoe session and coup as a checkpoint holds them (issue 53 item 7e), parsed,
// not believed, when the table starts again (host/table/recover.ts).

/** A coup in play: each seat's bets, and its result once its last card is out. */
export interface BaccaratCoup {
  readonly seats: readonly SeatStakes[];
  /** The remote stations' own bets (the stadium box): the same coup settles them, station by station. Absent: none. */
  readonly stadium?: readonly StadiumStakes[];
  readonly result: CoupResult | null;
}

const total = z.number().int().min(0).max(9);
const coupResult = z.strictObject({
  player: z.array(card),
  banker: z.array(card),
  playerTotal: total,
  bankerTotal: total,
  winner: z.enum(['player', 'banker', 'tie']),
  natural: z.boolean(),
  playerPair: z.boolean(),
  bankerPair: z.boolean(),
});

const shoeSession = z.strictObject({
  burn: z.enum(BURN_FORMULAS),
  coupsAfterCutCard: count,
  burnLeft: count.nullable(),
  burned: z.array(card),
  coup: z.strictObject({ player: z.array(card).max(3), banker: z.array(card).max(3) }),
  coupsLeft: count.nullable(),
  results: z.array(coupResult),
});

const baccaratCoup = z.strictObject({
  seats: z.array(
    z.strictObject({
      seat: z.number().int().min(1).max(99),
      bets: betStakes,
      behind: z.array(z.strictObject({ station, main: count, sides: betStakes.optional() })),
    }),
  ),
  stadium: z.array(z.strictObject({ station, bets: betStakes })).optional(),
  result: coupResult.nullable(),
});

const _shoeAgrees: Agrees<ShoeSession, typeof shoeSession> = true;
const _coupAgrees: Agrees<BaccaratCoup, typeof baccaratCoup> = true;
void _shoeAgrees;
void _coupAgrees;

export const BACCARAT_SHOE_SCHEMA: z.ZodType<ShoeSession> = shoeSession;
export const BACCARAT_COUP_SCHEMA: z.ZodType<BaccaratCoup> = baccaratCoup;
