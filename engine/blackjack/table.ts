import { cardCode, parseCard, type Card, type CardCode } from '../cards/card.js';
import { ShoeInventory } from '../cards/shoe.js';
import type { Rng } from '../random/seeded-rng.js';
import { BLACKJACK_CATALOGUE } from './bets/catalogue.js';
import type { BlackjackBetEntry } from './bets/entry.js';
import { START_TIMES_STAKE } from './jackpot/program.js';
import type { JackpotState } from './jackpot/settle.js';
import { dealCard, decideRound, discardCard, openRound, RoundError, type Action, type RoundState, type SeatEntry, type StreakState } from './round.js';
import type { BlackjackRules } from './rules.js';
import { BlackjackShoe, type BlackjackShoeSnapshot, type ShoeStep } from './shoe-session.js';

/**
 * A table from round to round: the shoe (shuffle, burns, cut card, last round), the winning-streak
 * markers and the jackpot pool carried between rounds, and the round in play. Every card that
 * leaves the shoe goes through `cardOut`, which sends it where the procedure says: to the start-
 * of-shoe burn or to the round. The same object serves the live path (cards read by the shoe) and
 * the seeded path (`dealFromShoe`).
 */
export type TablePhase = 'shuffle' | 'burn' | 'betting' | 'round';

/** A table between rounds as plain data: what carries from one round to the next. */
export interface BlackjackTableSnapshot {
  readonly shoe: BlackjackShoeSnapshot;
  readonly streaks: readonly StreakState[];
  readonly jackpot?: JackpotState;
  readonly rounds: number;
  readonly shoeBurns: readonly CardCode[];
}

export class BlackjackTable {
  readonly rules: BlackjackRules;
  readonly shoe: BlackjackShoe;
  streaks: StreakState[] = [];
  jackpot: JackpotState | undefined;
  private round: RoundState | undefined;
  /** Rounds completed since the table opened. */
  rounds = 0;
  readonly shoeBurns: Card[] = [];

  /** The bets its rounds know (engine/blackjack/bets/catalogue.ts). */
  readonly catalogue: readonly BlackjackBetEntry[];

  constructor(
    rules: BlackjackRules,
    jackpot?: JackpotState,
    shoe: BlackjackShoe = new BlackjackShoe(rules),
    catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE,
  ) {
    this.rules = rules;
    this.shoe = shoe;
    this.jackpot = jackpot;
    this.catalogue = catalogue;
  }

  get phase(): TablePhase {
    if (this.round && !this.round.done) return 'round';
    const step: ShoeStep = this.shoe.next();
    return step.kind === 'shuffle' ? 'shuffle' : step.kind === 'burn' ? 'burn' : 'betting';
  }

  /** The table between rounds as plain data; refused while a round is in play (replay its events instead). */
  snapshot(): BlackjackTableSnapshot {
    if (this.phase === 'round') throw new RoundError('a table is snapshotted between rounds only');
    return {
      shoe: this.shoe.snapshot(),
      streaks: this.streaks.map((s) => ({ ...s, bets: { ...s.bets } })),
      ...(this.jackpot ? { jackpot: { ...this.jackpot } } : {}),
      rounds: this.rounds,
      shoeBurns: this.shoeBurns.map(cardCode),
    };
  }

  /** The table `snapshot` described, with no round in play. */
  static restore(rules: BlackjackRules, s: BlackjackTableSnapshot, catalogue: readonly BlackjackBetEntry[] = BLACKJACK_CATALOGUE): BlackjackTable {
    const t = new BlackjackTable(rules, s.jackpot ? { ...s.jackpot } : undefined, BlackjackShoe.restore(rules, s.shoe), catalogue);
    t.streaks = s.streaks.map((x) => ({ ...x, bets: { ...x.bets } }));
    t.rounds = s.rounds;
    t.shoeBurns.push(...s.shoeBurns.map(parseCard));
    return t;
  }

  /** The round in play (or the last one, once done). */
  get current(): RoundState | undefined {
    return this.round;
  }

  /** The shoe was shuffled (physically, or here from `rng`). `players` places the Portugal carta-aviso (rule 9). */
  shuffled(players: number, rng?: Rng): void {
    if (this.phase === 'round') throw new RoundError('cannot shuffle during a round');
    this.shoe.shuffled(players, rng);
  }

  /** Closes the betting and starts a round with these bets (validated by the round). */
  startRound(seats: readonly SeatEntry[]): RoundState {
    const phase = this.phase;
    if (phase !== 'betting') throw new RoundError(`cannot start a round now: ${phase === 'round' ? 'a round is in play' : `the shoe needs a ${phase}`}`);
    const step = this.shoe.next();
    const firstRoundOfShoe = step.kind === 'round' && step.firstRoundOfShoe;
    this.round = openRound({
      rules: this.rules,
      seats,
      streaks: this.streaks,
      firstRoundOfShoe,
      out: this.shoe.inventory.counts(),
      catalogue: this.catalogue,
      ...(this.jackpot ? { jackpot: this.jackpot } : {}),
    });
    // A round with nothing to deal (impossible with a main bet) would be done at once.
    if (this.round.done) this.finishRound();
    return this.round;
  }

  /**
   * A card left the shoe (read by the card-reading shoe, or drawn by `dealFromShoe`). Start-of-
   * shoe burns are taken here; round cards go to the round. The shoe's inventory is shared with
   * the round, so a card beyond its copies is refused (table on hold).
   */
  cardOut(card: Card): void {
    const phase = this.phase;
    if (phase === 'burn') {
      if (!this.shoe.cardOut(card)) throw new RoundError("a card beyond the decks' copies: the table goes on hold");
      this.shoeBurns.push(card);
      return;
    }
    if (phase !== 'round' || !this.round) throw new RoundError(`no card is expected now (${phase})`);
    const x = this.round.expected;
    if (x.kind !== 'card') throw new RoundError('no card is expected now: a decision is awaited');
    // The round takes the card out of the shoe's inventory; the shoe counts its position.
    this.round = dealCard(this.round, card);
    this.shoe.inventory = ShoeInventory.fromCounts(this.rules.decks, this.round.out);
    this.shoe.countOut();
    if (this.round.done) this.finishRound();
  }

  /** Seeded path: draws the next card of the shuffled shoe and places it. */
  dealFromShoe(): Card {
    const c = this.shoe.peek();
    this.cardOut(c);
    return c;
  }

  /** A decision for the round in play (the round may end on it, e.g. a surrender with nothing left to deal). */
  decide(action: Action): void {
    if (!this.round || this.round.done) throw new RoundError('no decision is expected now');
    this.round = decideRound(this.round, action);
    if (this.round.done) this.finishRound();
  }

  /** A card that must not count (Art. 5 n.1 (1), Art. 6 n.1, rule 17): out of the shoe, into the discards. */
  discard(card: Card, why: string): void {
    if (!this.round || this.round.done) throw new RoundError('no round in play');
    this.round = discardCard(this.round, card, why);
    this.shoe.inventory = ShoeInventory.fromCounts(this.rules.decks, this.round.out);
    this.shoe.countOut();
  }

  private finished = new WeakSet<RoundState>();

  /**
   * A jackpot level set between rounds (two people, the authority's reference; Portugal rules 40,
   * 44). Returns what the house had committed to it unjournalled (now journalled with the reset).
   */
  resetJackpot(level: string, to: number): number {
    if (this.phase === 'round') throw new RoundError('a jackpot level is reset between rounds only');
    const j = this.jackpot;
    if (!j) throw new RoundError('this table plays no jackpot');
    const def = j.program.levels.find((l) => l.level === level);
    if (!def) throw new RoundError(`the jackpot has no level "${level}"`);
    const min = j.program.stake * START_TIMES_STAKE;
    if (to < min) throw new RoundError(`${to} is below 10,000 × the chip of ${j.program.stake} = ${min} (portugal-2001 rule 44)`);
    const held = j.pools[level] ?? 0;
    if (to < held) throw new RoundError(`level ${level} holds ${held}: a reset never takes from the players`);
    const unfunded = j.unfunded[level] ?? 0;
    this.jackpot = { ...j, pools: { ...j.pools, [level]: to }, unfunded: { ...j.unfunded, [level]: 0 } };
    return unfunded;
  }

  /**
   * The round in play was voided (every bet returned): it is over for the shoe, whose cards stay
   * out, while the winning streaks and the jackpot pool stay as they were before it.
   */
  voidRound(): void {
    const r = this.round;
    if (!r || r.done || this.finished.has(r)) return;
    this.finished.add(r);
    this.round = undefined;
    this.shoe.roundEnded();
  }

  private finishRound(): void {
    const r = this.round;
    if (!r || this.finished.has(r)) return;
    this.finished.add(r);
    this.streaks = [...r.streaks];
    const jp = r.jackpot;
    if (this.jackpot && jp) this.jackpot = jp.state;
    this.rounds++;
    this.shoe.roundEnded();
  }
}
