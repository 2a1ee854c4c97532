import type { Card } from '../cards/card.js';
import type { NotFollowed } from '../table/game.js';
import { additionalBets } from '../table/bet-catalogue.js';
import { firstCardsBets } from './bets/catalogue.js';
import type { BlackjackBetEntry, FirstCardsBet } from './bets/entry.js';
import { JACKPOT_PROGRAM_OPTION, jackpotProgramOf } from './jackpot/option.js';
import type { JackpotProgram } from './jackpot/program.js';
import type { RegulatedProfileId } from './option-table.js';
import { resolveRules, isProfileId, isRegulated, type BlackjackRules } from './rules.js';
import { onOtherSeats } from './table-bets.js';
import type { TableRules, TableState } from './table.js';

// The plain data a blackjack table plays over (engine/blackjack/table-game.ts): what it fixes when
// it opens, the shoe and the round as they move. Every move is a function of these and nothing else.

/**
 * A blackjack table's state as plain data (engine/blackjack/table.ts): the shoe, the streaks and
 * jackpot carried between rounds, and the round in play. `last` is the table as it stood before
 * the newest card, while that card is the newest thing that happened: a card dealt face down and
 * exposed is taken back from it (`withdrawLastCard`).
 */
export interface BlackjackTableShoe {
  readonly table: TableState;
  readonly last?: { readonly before: TableState; readonly card: Card };
}

/** A seat's double or split waiting for its bettors behind to say whether they follow it (Portugal rules 28, 30). */
export interface StagedFollow {
  readonly seat: number;
  readonly hand: number;
  readonly action: 'double' | 'split';
  /** The bettors to ask, in bet order, with what following costs each. */
  readonly ask: readonly { readonly station: number; readonly cost: number }[];
  /** Their answers so far: true to follow. */
  readonly answers: readonly { readonly station: number; readonly follows: boolean }[];
  /** Bettors who could not cover their share when the seat decided: never asked, they stay out. */
  readonly short: readonly NotFollowed[];
}

/** What the table keeps of a round beside the engine's own events. */
export interface BlackjackTableRound {
  /** The engine's name of each bettor behind, and its station. */
  readonly owners: Readonly<Record<string, number>>;
  readonly staged: StagedFollow | null;
  /** Bets behind that did not follow a double or split for want of credit, in order. */
  readonly notFollowed: readonly NotFollowed[];
}

/** What a blackjack table fixes when it opens, derived once from its profile and options: every move reads it, none changes it. */
export interface BlackjackTableSetup {
  readonly profileId: RegulatedProfileId;
  /** The rule options as the table was given them, the progressive's program among them (its identity). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly rules: BlackjackRules;
  readonly program: JackpotProgram | null;
  readonly catalogue: readonly BlackjackBetEntry[];
  readonly table: TableRules;
  /** Portugal rules 28, 30: each bettor behind chooses whether to follow a double or a split. */
  readonly chooses: boolean;
  /** The catalogue's additional bets (Art. 13; Portugal's jackpot, rules 38–50): their wins are celebrated. */
  readonly additional: ReadonlySet<string>;
  readonly first: readonly FirstCardsBet[];
  readonly otherSeats: ReturnType<typeof onOtherSeats>;
}

/** A table's setup under a profile and its authorised rule options; refuses a profile no text governs. */
export function blackjackTableSetup(
  profileId: string,
  options: Readonly<Record<string, unknown>>,
  catalogue: readonly BlackjackBetEntry[],
): BlackjackTableSetup {
  if (!isProfileId(profileId)) throw new RangeError(`no blackjack profile "${profileId}"`);
  if (!isRegulated(profileId)) throw new RangeError(`the "${profileId}" profile is for analysis (sim, round): a table plays a profile a text governs`);
  // The progressive's program travels with the rule options but is not one: the authority's figures (rules 40, 43).
  const { [JACKPOT_PROGRAM_OPTION]: programInput, ...ruleOptions } = options;
  const rules = resolveRules(profileId, ruleOptions);
  return {
    profileId,
    options,
    rules,
    program: jackpotProgramOf(rules, programInput),
    catalogue,
    table: { rules, catalogue },
    chooses: rules.behindFollows === 'bettor-chooses',
    additional: new Set(additionalBets(catalogue)),
    first: firstCardsBets(catalogue),
    otherSeats: onOtherSeats(catalogue, rules, profileId),
  };
}

/**
 * Portugal rules 28 and 30: when the seat splits or doubles, each bettor behind it *may* do the
 * same with its own bet. The bettor is asked at that moment, seeing the cards, as a decision of
 * its own station; staying out costs nothing more, so it is the default on timeout.
 */
export const FOLLOW_OFFERS = { double: 'follow-double', split: 'follow-split' } as const;
export const DECLINE_FOLLOW = 'decline-follow';

/** How the engine names a station betting behind a seat (an opaque name, never parsed). */
export const ownerName = (station: number) => `station:${station}`;

/** The table after a move; the newest card is remembered only by the moves that take one (`withCard`). */
export const moved = (t: TableState): BlackjackTableShoe => ({ table: t });
export const withCard = (s: BlackjackTableShoe, t: TableState, card: Card): BlackjackTableShoe => ({ table: t, last: { before: s.table, card } });

/** The round in play; a move that needs one without it is a bug. */
export function roundOf(s: BlackjackTableShoe) {
  const r = s.table.round;
  if (!r) throw new Error('no blackjack round in play');
  return r;
}

/** The next bettor behind to answer a staged double or split, if any is left. */
export function nextToAnswer(st: StagedFollow) {
  return st.ask.find((a) => !st.answers.some((x) => x.station === a.station));
}
