import { z } from 'zod';
import { amount, card, cardCode, cardsOut, count, settlementLine, stake, station, text, type Agrees } from '../table/part-schemas.js';
import { BET_IDS, JACKPOT_COMBINATIONS, type BetId } from '../table/vocabulary.js';
import { JackpotProgram } from './jackpot/program.js';
import type { JackpotState } from './jackpot/settle.js';
import { OPTION_KEYS, OPTIONS, PROFILE_IDS, type OptionDef, type Spec } from './option-table.js';
import { ACTION_TYPES, type RoundSetup, type RoundState } from './round-types.js';
import type { BlackjackRules } from './rules.js';
import type { ShoeState } from './shoe-session.js';
import type { BlackjackTableRound, BlackjackTableShoe } from './table-setup.js';
import type { TableState } from './table.js';

// A blackjack table's shoe (the engine's table: its shoe, streaks, jackpot and the round in play)
// and the host's round (bettors behind, a staged follow) as a checkpoint holds them (issue 53 item
// 7e), parsed, not believed, when the table starts again (host/table/recover.ts).

const seat = z.number().int().min(1).max(99);
const handIndex = z.number().int().min(0).max(99);
const owner = text;
const streakLevel = z.enum(['2', '3', '4', '5']);
const streakBets = z.partialRecord(streakLevel, stake);

/** Each option of the rules of its type as the option table declares it: the table is the one definition of an option's type. */
function optionSchema(spec: Spec): z.ZodType {
  switch (spec.kind) {
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
    case 'int':
      return z.number().int().min(spec.min).max(spec.max);
    case 'bool':
      return z.boolean();
    case 'string':
      return z.string().max(1024);
  }
}
/**
 * The resolved rules a round was set up under. Built from the option table's specs, so typed by
 * the table (rules.ts holds the table's keys to `BlackjackRules`'s); the test of this file parses
 * every profile's resolved rules with it.
 */
export const RULES_SCHEMA = z.strictObject({
  profile: z.enum(PROFILE_IDS),
  ...Object.fromEntries(OPTION_KEYS.map((k) => [k, optionSchema((OPTIONS[k] as OptionDef<unknown>).spec)])),
  choices: z.partialRecord(z.enum(OPTION_KEYS), z.string().max(1024)),
}) as unknown as z.ZodType<BlackjackRules>;

type SideBetId = Exclude<BetId, 'main'>;
const sideStakes = Object.fromEntries(BET_IDS.filter((b) => b !== 'main').map((b) => [b, stake.optional()])) as Record<SideBetId, z.ZodOptional<typeof stake>>;

const seatEntry = z.strictObject({
  seat,
  bets: z.strictObject({ ...sideStakes, main: stake, streak: streakBets.optional() }),
  behind: z.array(z.strictObject({ ...sideStakes, owner, main: stake, followSplit: z.boolean().optional(), followDouble: z.boolean().optional() })).optional(),
  seated: z.boolean().optional(),
});
const streakState = z.strictObject({ seat, bets: streakBets, wins: count });
const pools = z.record(z.string().max(24), amount);
const jackpotState = z.strictObject({ program: JackpotProgram, pools, unfunded: pools, carry: z.record(z.string().max(24), count).optional() });

const setup = z.strictObject({
  rules: RULES_SCHEMA,
  seats: z.array(seatEntry),
  streaks: z.array(streakState).optional(),
  keptOut: z.array(seat).optional(),
  firstRoundOfShoe: z.boolean().optional(),
  jackpot: jackpotState.optional(),
  out: cardsOut.optional(),
});

const action = z.union([
  z.strictObject({
    type: z.enum(['hit', 'stand', 'surrender', 'decline-insurance', 'even-money', 'decline-even-money', 'take-five-card-half', 'continue']),
  }),
  z.strictObject({ type: z.enum(['double', 'split']), notFollowing: z.array(owner).optional() }),
  z.strictObject({ type: z.literal('insurance'), amount: stake }),
]);
const event = z.union([
  z.strictObject({ card }),
  z.strictObject({ action }),
  z.strictObject({ discard: card, why: text }),
  z.strictObject({ held: card }),
  z.strictObject({ void: text, dealingError: z.literal(true).optional() }),
]);
const actionType = z.enum(ACTION_TYPES);
const cardStep = z.enum([
  'burn-round',
  'first',
  'dealer-up',
  'second',
  'dealer-hole',
  'split-second',
  'hit',
  'double',
  'burn-dealer-second',
  'dealer-second',
  'dealer-draw',
]);
const expected = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('card'),
    target: z.union([
      z.strictObject({ to: z.literal('burn') }),
      z.strictObject({ to: z.literal('dealer') }),
      z.strictObject({ to: z.literal('hand'), seat, hand: handIndex }),
    ]),
    step: cardStep,
    why: text,
  }),
  z.strictObject({
    kind: z.literal('decision'),
    seat,
    hand: handIndex,
    offer: z.enum(['play', 'insurance', 'even-money', 'five-card']),
    legal: z.array(actionType),
    decider: owner,
    insurance: z.strictObject({ min: stake, max: stake }).optional(),
  }),
  z.strictObject({ kind: z.literal('done') }),
]);
const status = z.enum(['open', 'stood', 'busted', 'surrendered', 'blackjack', 'settled']);
const handView = z.strictObject({
  seat,
  hand: handIndex,
  cards: z.array(cardCode),
  total: count.max(99),
  soft: z.boolean(),
  status,
  natural: z.boolean(),
  stake,
});
const stakeFields = {
  owner: owner.optional(),
  stake,
  base: stake,
  followSplit: z.boolean(),
  followDouble: z.boolean(),
  stayedOutSplit: z.boolean(),
  stayedOutDouble: z.boolean(),
};
const stakeView = z.strictObject({ seat, hand: handIndex, ...stakeFields });
const hand = z.strictObject({
  seat,
  cards: z.array(card),
  stakes: z.array(z.strictObject(stakeFields)),
  fromSplit: z.boolean(),
  splitAces: z.boolean(),
  doubled: z.boolean(),
  aceLocked: z.boolean(),
  status,
  acted: z.boolean(),
  fiveOffered: z.boolean(),
  bonusDone: z.boolean(),
  outcome: z.enum(['win', 'lose', 'push']).optional(),
});
const procedureSeat = z.strictObject({
  entry: seatEntry,
  seat,
  owner,
  decider: owner,
  hands: z.array(hand),
  insurance: stake,
  behindInsurance: z.array(z.tuple([owner, stake])),
  declinedResplit: z.boolean(),
  surrendered: z.boolean(),
  firstTwo: z.array(card),
  afterSplit: card.optional(),
  awaitingAfterSplit: z.boolean(),
  splitPairs: z.array(handIndex),
  dealt: z.array(card),
  streak: z.strictObject({ bets: streakBets, wins: count, carried: z.boolean() }).optional(),
});
const k = handIndex;
const resume = z.union([
  z.strictObject({ at: z.enum(['burn-round', 'dealer-up', 'dealer-hole', 'burn-dealer-second', 'dealer-second', 'dealer-draw', 'done']) }),
  z.strictObject({ at: z.enum(['first', 'second', 'even-money', 'insurance']), k }),
  z.strictObject({ at: z.literal('insurance-behind'), k, j: handIndex }),
  z.strictObject({ at: z.enum(['split-second', 'resplit-aces', 'five-card', 'play', 'hit', 'double']), k, i: handIndex }),
]);
const levelMove = z.strictObject({
  level: text,
  before: amount,
  funded: amount,
  contribution: amount,
  carryIn: count.optional(),
  award: amount,
  hits: count,
  // The house's rounding up of a shared award (Portugal rule 50 b)), absent when none.
  rounding: count.optional(),
  seed: amount,
  after: amount,
});
const jackpotResult = z.strictObject({
  seat,
  hand: handIndex,
  stake,
  award: stake,
  combination: z.enum(JACKPOT_COMBINATIONS).optional(),
  level: text.optional(),
  shared: z.literal(true).optional(),
});

const round = z.strictObject({
  setup,
  log: z.array(event),
  expected,
  done: z.boolean(),
  voided: z.boolean(),
  firstOfShoe: z.boolean(),
  lines: z.array(z.strictObject({ ...settlementLine, owner: owner.optional(), carried: z.literal(true).optional() })),
  dealer: z.array(card),
  burns: z.array(card),
  discards: z.array(z.strictObject({ card, why: text })),
  hands: z.array(handView),
  stakes: z.array(stakeView),
  streaksBefore: z.array(streakState),
  streaks: z.array(streakState),
  jackpot: z.strictObject({ state: jackpotState, moves: z.array(levelMove), results: z.array(jackpotResult) }).optional(),
  jackpotPools: pools.optional(),
  held: z.array(z.strictObject({ seat, bet: z.enum(['streak2', 'streak3', 'streak4', 'streak5']), amount: stake })),
  out: cardsOut,
  procedure: z.strictObject({
    seats: z.array(procedureSeat),
    views: z.array(z.strictObject({ hands: z.array(handView), stakes: z.array(stakeView) })),
    resume,
    unseen: z.array(card),
    insuranceSettled: z.boolean(),
    additionalDealt: z.boolean(),
  }),
});

const shoeState = z.strictObject({
  dealt: count,
  burnsLeft: count,
  cutSeen: z.boolean(),
  lastRoundAnnounced: z.boolean(),
  roundsThisShoe: count,
  needShuffle: z.boolean(),
  cutAt: count.nullable(),
  out: cardsOut,
  order: z.array(card).optional(),
});
const table = z.strictObject({
  shoe: shoeState,
  streaks: z.array(streakState),
  jackpot: jackpotState.optional(),
  rounds: count,
  shoeBurns: z.array(card),
  round: round.optional(),
});
const blackjackShoe = z.strictObject({ table, last: z.strictObject({ before: table, card }).optional() });

const blackjackRound = z.strictObject({
  owners: z.record(owner, station),
  staged: z
    .strictObject({
      seat,
      hand: handIndex,
      action: z.enum(['double', 'split']),
      ask: z.array(z.strictObject({ station, cost: stake })),
      answers: z.array(z.strictObject({ station, follows: z.boolean() })),
      short: z.array(z.strictObject({ station, seat, hand: handIndex, action: z.enum(['double', 'split']), amount: stake })),
    })
    .nullable(),
  notFollowed: z.array(z.strictObject({ station, seat, hand: handIndex, action: z.enum(['double', 'split']), amount: stake })),
});

// The schemas and the engine's types agree both ways; the round's setup has no catalogue (its bets'
// functions are the table's, never the state's: table.ts `kept`).
type KeptRound = Omit<RoundState, 'setup'> & { readonly setup: Omit<RoundSetup, 'catalogue'> };
const _shoeAgrees: Agrees<ShoeState, typeof shoeState> = true;
const _jackpotAgrees: Agrees<JackpotState, typeof jackpotState> = true;
const _roundAgrees: Agrees<KeptRound, typeof round> = true;
const _tableAgrees: Agrees<Omit<TableState, 'round'> & { readonly round?: KeptRound }, typeof table> = true;
const _hostRoundAgrees: Agrees<BlackjackTableRound, typeof blackjackRound> = true;
void [_shoeAgrees, _jackpotAgrees, _roundAgrees, _tableAgrees, _hostRoundAgrees];

export const BLACKJACK_SHOE_SCHEMA: z.ZodType<BlackjackTableShoe> = blackjackShoe;
export const BLACKJACK_ROUND_SCHEMA: z.ZodType<BlackjackTableRound> = blackjackRound;
