import type { Card } from '../../engine/cards/card.js';
import type { SettlementLine } from '../../engine/settlement/settlement-line.js';
import type { DealerCue, DecisionAction, HandView, Prize, RefusalReason } from '../../protocol/index.js';

/** What a round waits for: a card from the shoe, a seat's decision, or nothing (it can settle). */
export type Pending =
  | { kind: 'card'; cue: Extract<DealerCue, { kind: 'card' }> }
  | {
      kind: 'decision';
      seat: number;
      hand?: number;
      legal: DecisionAction[];
      /** What a timeout takes, when the deciding station can stake what it costs (see `defaultCost`). */
      default: DecisionAction;
      /**
       * The default stakes `amount` more from the seat's station (a war raise). Without that
       * credit the timeout takes `otherwise`, which costs nothing: the stated default is always
       * one the player can take.
       */
      defaultCost?: { amount: number; otherwise: DecisionAction };
      /** Who decides for the seat when several bet on it (Art. 20): `seat:<n>`, or a bettor behind's owner name. */
      decider?: string;
      /** What taking the offer costs the one who decides (a bettor behind following a double or split). */
      cost?: number;
    }
  | { kind: 'done' };

/** A bet the round adds while it runs (a war raise, a double, a split): moved from credit to play. */
export interface ExtraBet {
  seat: number;
  bet: string;
  amount: number;
  /** The bettor behind the seat who stakes it (`station:<n>`); absent for the seat's own station. */
  owner?: string;
}

/**
 * A bet behind that did not follow the seat's double or split because its station could not cover
 * its share (`amount`): it stayed at its stake on the doubled hand, or on the first of the split
 * hands (Portugal rules 28, 30; Macau by analogy). Its station is told.
 */
export interface NotFollowed {
  owner: string;
  seat: number;
  hand: number;
  action: 'double' | 'split';
  amount: number;
}

/** A bet behind a seat (Art. 20), by the station that placed it: owner `station:<n>`. */
export interface BehindBet {
  owner: string;
  main: number;
}

/** A refusal carries the English detail for the log and, for a player's command, the reason shown to them. */
export type Outcome<T = object> = ({ ok: true } & T) | { ok: false; reason: string; refusal?: RefusalReason };

/**
 * One live round of a game, fed by the shoe card by card and by the seats' decisions: the same
 * engine code as the simulator and the scripted-round runner, seen through one shape so the
 * table host drives every game alike.
 */
export interface LiveRound {
  pending(): Pending;
  /** Places the card the round expects; `to` records where it went (`seat:3`, `banker`, `burn`…). */
  takeCard(card: Card): Outcome<{ to: string }>;
  /**
   * Applies a seat's decision (`amount` for decisions that name one, such as insurance). `canAfford` says whether the seat's station can stake `amount`
   * more; an action that needs more than it has is refused. A bettor behind (`owner`) who cannot
   * cover its share of a double or split does not refuse it: it does not follow, and is named in
   * `notFollowing` (journalled with the decision, so a replay takes the same course).
   */
  decide(
    seat: number,
    action: string,
    canAfford: (amount: number, owner?: string) => boolean,
    amount?: number,
  ): Outcome<{ extra: ExtraBet[]; notFollowing?: string[] }>;
  /** The bets behind that did not follow a double or split of this round for want of credit. */
  notFollowed?(): NotFollowed[];
  /** The hands as the table shows them; hidden cards as `XX` until revealed. */
  hands(): HandView[];
  /** The settlement lines, once `pending()` is done. */
  settle(): SettlementLine[];
}

export interface LiveGame {
  readonly game: 'blackjack' | 'baccarat' | 'war';
  readonly profile: string;
  readonly decks: number;
  /** The bets a seat may place, in display order. */
  readonly bets: readonly string[];
  /**
   * Whether a station may bet behind another station's seat, and who decides then (the rule
   * profile's Art. 20 option); absent: no bets behind at this game.
   */
  readonly betsBehind?: { maxBettorsPerSeat: number; decider: string; rule: string };
  /** A new round for the seats that bet (seat → bet → amount), with the bets behind each seat. */
  newRound(seats: ReadonlyMap<number, Readonly<Record<string, number>>>, behind?: ReadonlyMap<number, readonly BehindBet[]>): LiveRound;
  /** Cards the dealer must handle between rounds (baccarat's burn at shoe start), or null. */
  shoeCue(): Extract<DealerCue, { kind: 'card' }> | null;
  /** Takes a card outside any round (a shoe-start burn). */
  takeShoeCard(card: Card): Outcome<{ to: string }>;
  /** The shoe was replaced: start its shoe-level procedure again. */
  newShoe(): void;
  /** The round in play was voided: the game lets the next one start (a game keeping no round state needs nothing). */
  voidRound?(): void;
  /** The reading shoe reported the cut card. */
  cutCard(): void;
  /** Whether the shoe has ended (cut card out and the last round played): shuffle before betting. */
  shoeFinished(): boolean;
  /** Whether the cut card is out: the table announces the last round(s) of the shoe. */
  lastRoundOfShoe(): boolean;
  /**
   * What a winning settlement line is for the screens to celebrate: an additional bet, a special
   * prize, five cards at half pay; undefined for a main bet's ordinary result or any loss.
   */
  prizeOf?(line: Pick<SettlementLine, 'bet' | 'rule' | 'net'>): Prize | undefined;
}
