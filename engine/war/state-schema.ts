import { z } from 'zod';
import { card, count, stake, station, type Agrees } from '../table/part-schemas.js';
import type { WarCoup } from './coup.js';
import type { WarShoe } from './shoe-session.js';

// A war table's shoe and coup as a checkpoint holds them (issue 53 item 7e), parsed, not believed,
// when the table starts again (host/table/recover.ts).

/** The shoe of a war table: the cut card, and whether the coup just played was its last. */
export interface WarTableShoe {
  readonly shoe: WarShoe;
  readonly finished: boolean;
}

const seat = z.number().int().min(1).max(99);
const bets = z.strictObject({ main: stake.optional(), tie: stake.optional() });
const action = z.enum(['war', 'surrender']);
const seatWar = z.strictObject({ seatBurns: z.array(card), seatCard: card.optional(), croupierBurns: z.array(card), croupierCard: card.optional() });

const warCoup = z.strictObject({
  box: z
    .strictObject({
      bettors: z.array(z.strictObject({ station, bets })),
      card: card.optional(),
      decisions: z.record(z.number().int().min(1), action),
      timedOut: z.array(station).optional(),
      war: seatWar.optional(),
    })
    .optional(),
  // The profile the coup was opened under: the coup reads these two of it, and keeps the rest as it was.
  options: z.looseObject({ mainBetOnTieWithTieBet: z.enum(['returned', 'choose']), warBurns: count.max(10) }),
  seats: z.array(z.strictObject({ seat, bets })),
  cards: z.array(card),
  croupier: card.optional(),
  decisions: z.record(seat, action),
  timedOut: z.array(seat).optional(),
  wars: z.record(seat, seatWar),
});

const warShoe = z.strictObject({
  shoe: z.strictObject({ shuffling: z.enum(['shoe', 'automatic-shuffler']), cutCardOut: z.boolean(), coups: count }),
  finished: z.boolean(),
});

const _coupAgrees: Agrees<WarCoup, typeof warCoup> = true;
const _shoeAgrees: Agrees<WarTableShoe, typeof warShoe> = true;
void _coupAgrees;
void _shoeAgrees;

export const WAR_COUP_SCHEMA: z.ZodType<WarCoup> = warCoup;
export const WAR_SHOE_SCHEMA: z.ZodType<WarTableShoe> = warShoe;
