import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { cardCode, RANKS, SUITS, type Card } from '../../engine/cards/card.js';
import { ShoeInventory } from '../../engine/cards/shoe.js';
import type { HeldRead, Ledger, NewEntry } from '../../ledger/index.js';
import type { DealerCue, DecisionAction, HoldReason, PrizeWin, ResultLine, RoundPhase, RoundView, StationBetting, StationDecision } from '../../protocol/index.js';
import { betLimits, type TableConfig } from '../config/table-config.js';
import { RoundJournal } from '../recovery/round-journal.js';
import { behindRefusal, behindSeat, behindSpots, closeBets, ownerStation, type TableSeats, type Unplayed } from './bets-behind.js';
import type { LiveGame, LiveRound, Outcome, Pending } from './live-game.js';

/** An interrupted round rebuilt from the journal (host/recovery/replay-journal.ts). */
export interface ResumedRound {
  roundId: string;
  round: LiveRound;
  placed: Map<number, Record<string, number>>;
  cards: { card: string; to: string }[];
  decisions: Decision[];
  /** The hold the round was on when the host stopped, if any. */
  hold: string | null;
  /** The shoe's sequence number of the event that caused that hold, when the shoe gave one. */
  holdSequence?: number | null;
  /** Reads that left the shoe during that hold, journalled. */
  holdReads?: HeldRead[];
}

/** A settlement line as journalled: the engine's line with the station it pays. */
export interface SettledLine {
  station: number;
  seat: number;
  bet: string;
  hand?: number;
  stake: number;
  net: number;
  rule: string;
}

/** A hold of the table outside any round when the host stopped (host/recovery/replay-journal.ts). */
export interface ResumedHold {
  reason: string;
  shoeSequence?: number;
  /** Reads that left the shoe during that hold, journalled. */
  reads?: HeldRead[];
}

/** Why a two-person action (manual card entry, void) cannot go ahead with these names; null if it can. */
function twoPeopleRefusal(action: string, who: readonly string[]): Outcome | null {
  if (who.length < 2 || !who[0] || !who[1]) return { ok: false, reason: `${action} needs a supervisor and a second person` };
  if (new Set(who).size !== who.length) return { ok: false, reason: 'the second person must be someone other than the supervisor' };
  return null;
}

/** Time, injected so tests can run a round without waiting on wall-clock countdowns. */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface Timings {
  /** How long betting stays open. */
  bettingMs: number;
  /** How long a seat has for each decision before its stated default is taken. */
  decisionMs: number;
  /** The minimum time results stay on screen before the next betting window. */
  resultsMs: number;
}

export interface RoundControllerDeps {
  config: TableConfig;
  game: LiveGame;
  ledger: Ledger;
  log: Logger;
  timers: Timers;
  timings: Timings;
}

export interface Decision {
  seat: number;
  hand?: number;
  station: number;
  action: string;
  auto?: boolean;
  /** A double or split: the bettors behind (`station:<n>`) who could not cover their share and did not follow. */
  notFollowing?: string[];
}

/**
 * The table's rounds: betting window → bets journalled → cards from the shoe placed by the
 * engine → decisions with countdowns and defaults → settlement journalled → results held → next.
 * Money moves only through the ledger: bets when betting closes (and raises when they are made),
 * winnings at settlement; the screens read credits from the ledger.
 *
 * A card the round does not expect (out of turn, extra, beyond the shoe's inventory) puts the
 * table on hold: nothing settles until the round is voided, every bet returned.
 */
export class RoundController {
  private phase: RoundPhase = 'betting';
  private roundId = '';
  private endsAt: number | null = null;
  private timer: unknown = null;
  private readonly pendingBets = new Map<number, Record<string, number>>();
  private placed = new Map<number, Record<string, number>>();
  private round: LiveRound | null = null;
  private cards: { card: string; to: string }[] = [];
  private decisions: Decision[] = [];
  private results: ResultLine[] | null = null;
  /** Each station's net over the settled round, bets behind included (lines are by seat). */
  private stationNets = new Map<number, number>();
  /** Each station's own winning prize lines of the settled round (its seat's and its bets behind). */
  private stationPrizes = new Map<number, PrizeWin[]>();
  private hold: string | null = null;
  /** The shoe's sequence number of the event that caused the hold, when the shoe gave one. */
  private holdSequence: number | null = null;
  /**
   * Cards (or unreadable reads) that left the shoe after the hold began: each journalled, none
   * placed. The hold's resolution must account for them (see enterCard, voidRound).
   */
  private holdReads: HeldRead[] = [];
  /** The round the hold belongs to, or null for a hold between rounds. */
  private holdRound: string | null = null;
  private needsShuffle = false;
  /** Why new bets are refused though the table plays on (e.g. upstream offline beyond the limit). */
  private betsBlocked: string | null = null;
  /** Why a fault halts the table (host/tilts): nothing is placed, decided or settled meanwhile. */
  private halted: string | null = null;
  /** Spots under their minimum when betting closed, per station: they did not play. */
  private unplayed = new Map<number, Unplayed[]>();
  private inventory: ShoeInventory;
  private readonly listeners = new Set<() => void>();
  private readonly seatOf = new Map<number, number>();
  private readonly stationOf = new Map<number, number>();
  private readonly journal: RoundJournal;
  /** The shoe's sequence numbers journalled since the last shoe load: a re-reported card is placed once. */
  private sequences = new Set<number>();
  /** A new shoe loaded while a round was in play: applied when the round ends. */
  private shoeDeferred = false;

  constructor(private readonly deps: RoundControllerDeps) {
    this.journal = new RoundJournal(deps.ledger, deps.config.tableId);
    this.inventory = new ShoeInventory(deps.game.decks);
    for (const s of deps.config.stations) {
      this.seatOf.set(s.station, s.seat);
      this.stationOf.set(s.seat, s.station);
    }
  }

  start(): void {
    this.openBetting();
  }

  /**
   * Recovery (host/recovery/): the shoe as the journal left it, then the interrupted round, which
   * goes on from where it stopped: a fresh countdown for a pending decision, the next card, or
   * the settlement if everything was journalled but the settlement.
   */
  resume(
    shoe: { cards: Card[]; sequences: Set<number> },
    round: ResumedRound | null,
    after: { results?: { roundId: string; lines: SettledLine[] }; newShoe?: boolean; hold?: ResumedHold } = {},
  ): void {
    for (const c of shoe.cards) this.inventory.take(c);
    this.sequences = new Set(shoe.sequences);
    // A round voided at start leaves the shoe out of step with the engine: a new shoe first.
    if (after.newShoe) this.needsShuffle = true;
    if (!round && after.hold) {
      // Held between rounds when the host stopped: held again, with no betting window and no
      // countdown, until the hold is resolved as it requires (a void, or an unreadable card entered).
      this.roundId = after.results?.roundId ?? this.newRoundId();
      this.phase = after.results ? 'results' : 'betting';
      this.showLines(after.results?.lines ?? null);
      this.hold = after.hold.reason;
      this.holdSequence = after.hold.shoeSequence ?? null;
      this.holdReads = [...(after.hold.reads ?? [])];
      this.holdRound = null;
      this.endsAt = null;
      this.deps.log.warn({ hold: this.hold, shoeSequence: this.holdSequence }, 'table hold between rounds restored from the journal');
      return this.changed();
    }
    if (!round && after.results) {
      // Settled and journalled, never shown (or shown only briefly): the results, then betting.
      this.roundId = after.results.roundId;
      return this.showResults(after.results.lines);
    }
    if (!round) return this.start();
    this.roundId = round.roundId;
    this.round = round.round;
    this.placed = round.placed;
    this.cards = round.cards;
    this.decisions = round.decisions;
    this.results = null;
    this.phase = 'dealing';
    if (round.hold) {
      this.hold = round.hold;
      this.holdSequence = round.holdSequence ?? null;
      this.holdReads = [...(round.holdReads ?? [])];
      this.holdRound = round.roundId;
      this.endsAt = null;
      return this.changed();
    }
    this.advance();
  }

  /** The table may not open betting at all (a ledger that fails verification): held until a supervisor acts. */
  holdAtStart(reason: HoldReason): void {
    this.hold = reason;
    this.phase = 'betting';
    this.endsAt = null;
    this.changed();
  }

  stop(): void {
    this.clearTimer();
  }

  /** Called after every change; the host pushes new snapshots. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /* ─────────────── commands from the stations ─────────────── */

  /**
   * Stops or resumes new bets. Rounds in play finish and cash-out goes on: DESIGN.md §5, the
   * kiosk plays on offline up to a limit, then takes no new bets, and never drops a record.
   */
  setNewBets(allowed: boolean, reason: string): void {
    const next = allowed ? null : reason;
    if (next === this.betsBlocked) return;
    this.betsBlocked = next;
    // Chips on the spots stay credit (nothing is journalled before betting closes). A card hold
    // between rounds (a burn) keeps them: betting is only paused, and the window runs again once
    // the hold is resolved. Any other stop takes them off, so no window closes on them meanwhile.
    if (next && this.hold === null) this.pendingBets.clear();
    this.deps.log.warn({ allowed, reason }, 'new bets ' + (allowed ? 'allowed again' : 'stopped'));
    this.changed();
  }

  /**
   * Halts the table (a fault that disables it: shoe alarm, ledger integrity) or resumes it. The
   * step that was running starts its countdown again on resume; a card read meanwhile is a hold.
   */
  setHalted(reason: string | null): void {
    if (reason === this.halted) return;
    this.halted = reason;
    this.deps.log.warn({ reason, phase: this.phase }, reason ? 'table halted' : 'table resumed');
    if (reason) {
      this.clearTimer();
      this.endsAt = null;
      this.pendingBets.clear();
    } else if (!this.hold) {
      this.resumeAfterHalt();
    }
    this.changed();
  }

  /** Whether the station has chips on its spots or bets in the round in play (no cash-out then). */
  hasBets(station: number): boolean {
    if (Object.keys(this.pendingBets.get(station) ?? {}).length > 0) return true;
    return (this.phase === 'dealing' || this.hold !== null) && this.placed.has(station);
  }

  /** No round in play and no chips on any spot: a configuration change may take effect. */
  betweenRounds(): boolean {
    if (this.hold) return false;
    return this.phase === 'results' || (this.phase === 'betting' && this.pendingBets.size === 0);
  }

  placeBet(station: number, bet: string, amount: number): Outcome {
    if (this.halted) return { ok: false, reason: `the table is halted: ${this.halted}`, refusal: 'table-halted' };
    if (this.betsBlocked) return { ok: false, reason: `new bets are stopped: ${this.betsBlocked}`, refusal: 'bets-stopped' };
    if (this.phase !== 'betting' || this.hold || this.needsShuffle) return { ok: false, reason: 'betting is closed', refusal: 'betting-closed' };
    const behind = behindSeat(bet);
    if (behind !== null) {
      const refused = behindRefusal(this.tableSeats(), station, behind, this.pendingBets);
      if (refused) return refused;
    } else if (!this.deps.game.bets.includes(bet)) return { ok: false, reason: `no "${bet}" bet at this table`, refusal: 'unknown-bet' };
    const { max } = betLimits(this.deps.config, bet);
    const bets = this.pendingBets.get(station) ?? {};
    const onSpot = (bets[bet] ?? 0) + amount;
    if (onSpot > max) return { ok: false, reason: `over the maximum of ${max} on ${bet}`, refusal: 'over-max' };
    if (amount > this.available(station)) return { ok: false, reason: `not enough credit for ${amount}`, refusal: 'over-credit' };
    // The minimum applies to what is on the spot, so chips below it may be stacked up to it.
    this.pendingBets.set(station, { ...bets, [bet]: onSpot });
    this.changed();
    return { ok: true };
  }

  clearBets(station: number): Outcome {
    if (this.phase !== 'betting') return { ok: false, reason: 'betting is closed', refusal: 'betting-closed' };
    this.pendingBets.delete(station);
    this.changed();
    return { ok: true };
  }

  decide(station: number, action: string, amount?: number): Outcome {
    const p = this.round?.pending();
    if (this.halted) return { ok: false, reason: `the table is halted: ${this.halted}`, refusal: 'table-halted' };
    if (!this.round || !p || p.kind !== 'decision' || this.deciderStation(p) !== station || this.hold) return { ok: false, reason: 'no decision is due from this station', refusal: 'no-decision' };
    return this.applyDecision(station, p.seat, p.hand, action, false, amount);
  }

  /* ─────────────── the shoe ─────────────── */

  /** A card read by the shoe, in the order it left the shoe. */
  onCard(card: Card, sequence?: number): void {
    const code = cardCode(card);
    if (sequence !== undefined && this.sequences.has(sequence)) {
      this.deps.log.warn({ card: code, sequence }, 'card re-reported with a sequence already journalled: not placed again');
      return;
    }
    if (this.hold) return this.readDuringHold('card', code, sequence);
    // A halted table deals nothing: a card drawn anyway must be looked at by a supervisor.
    if (this.halted) return this.putOnHold('out-of-turn', code, sequence);
    if (!this.inventory.take(card)) return this.putOnHold('inventory', code, sequence);
    if (this.phase === 'dealing' && this.round) {
      const p = this.round.pending();
      if (p.kind !== 'card') return this.putOnHold('out-of-turn', code, sequence);
      const r = this.round.takeCard(card);
      if (!r.ok) return this.putOnHold('out-of-turn', code, sequence);
      if (!this.journalled(() => this.journal.card(this.roundId, code, r.to, sequence), sequence)) return;
      this.cards.push({ card: code, to: r.to });
      return this.advance();
    }
    if (this.deps.game.shoeCue()) {
      const r = this.deps.game.takeShoeCard(card);
      if (r.ok) {
        if (!this.journalled(() => this.journal.card(null, code, r.to, sequence), sequence)) return;
        return this.changed();
      }
    }
    this.putOnHold('extra-card', code, sequence);
  }

  /** The shoe could not read a card, or read one of another deck set: hold until resolved. */
  onAnomaly(reason: 'unreadable' | 'wrong-deck', card: string | null, shoeSequence?: number): void {
    if (shoeSequence !== undefined && this.sequences.has(shoeSequence)) return;
    if (this.hold) return this.readDuringHold(reason, card, shoeSequence);
    this.putOnHold(reason, card, shoeSequence);
  }

  /** The hold in force, with the reads that left the shoe since it began (service mode, tests). */
  holdState(): { reason: string; shoeSequence: number | null; readsDuringHold: HeldRead[] } | null {
    return this.hold ? { reason: this.hold, shoeSequence: this.holdSequence, readsDuringHold: [...this.holdReads] } : null;
  }

  /**
   * A read while the table is already on hold (a shoe without a gate, or a draw that beat the
   * lock): nothing is placed, but the card left the shoe, so it is journalled with its sequence
   * number and the hold's round for the inspector, and the hold's resolution must account for it.
   */
  private readDuringHold(kind: 'card' | 'unreadable' | 'wrong-deck', card: string | null, sequence?: number): void {
    const hold = this.hold as string;
    try {
      this.journal.readDuringHold(this.holdRound, hold, kind, card, sequence ?? null);
    } catch (e) {
      // Not recorded, so not taken: the error reaches the shoe's driver, which withholds the
      // acknowledgement, and the shoe delivers the read again.
      this.deps.log.error({ err: e, card, sequence, hold }, 'a read during the hold could not be journalled: not acknowledged');
      throw e;
    }
    if (sequence !== undefined) this.sequences.add(sequence);
    this.holdReads.push({ ...(card ? { card } : {}), ...(sequence !== undefined ? { shoeSequence: sequence } : {}) });
    this.deps.log.warn({ roundId: this.holdRound, card, kind, sequence, hold }, 'card read while the table is on hold: journalled, not placed');
    this.changed();
  }

  /**
   * A supervisor enters by hand the card the shoe could not read, a second person confirming
   * (issue 7 item 4): the card is placed as if read, journalled as a `misread` resolved by
   * `card-entered` with both names and the shoe's sequence number, and the round goes on. Only
   * an unreadable card can be entered; a card out of turn, extra, of another deck or beyond the
   * inventory was read as it is, and its round is voided instead.
   */
  enterCard(card: Card, supervisor: string, witness: string): Outcome {
    if (this.hold !== 'unreadable') {
      return { ok: false, reason: this.hold ? `a ${this.hold} hold is resolved by voiding the round, not by entering a card` : 'the table is not on hold' };
    }
    // Cards that left the shoe after the unreadable one went somewhere on the table the host never
    // saw: entering the first cannot put the deal back in order. The hold stays until a void.
    if (this.holdReads.length > 0) {
      const seqs = this.holdReads.map((r) => r.shoeSequence ?? '?').join(', ');
      return { ok: false, reason: `${this.holdReads.length} more card(s) left the shoe during the hold (shoe sequence ${seqs}): the deal cannot be restored by entering one card; void the round` };
    }
    const who = [supervisor.trim(), witness.trim()];
    const refused = twoPeopleRefusal('manual card entry', who);
    if (refused) return refused;
    const code = cardCode(card);
    const dealing = this.phase === 'dealing' && this.round !== null;
    if (dealing && this.round?.pending().kind !== 'card') return { ok: false, reason: 'the round expects no card now: void it' };
    if (!dealing && !this.deps.game.shoeCue()) return { ok: false, reason: 'no card is expected between rounds: lift the hold by a void' };
    if (this.inventory.remaining(card) <= 0) return { ok: false, reason: `${code} is beyond the shoe's inventory` };
    const sequence = this.holdSequence;
    this.deps.ledger.append({
      type: 'misread',
      payload: {
        tableId: this.deps.config.tableId,
        ...(dealing ? { roundId: this.roundId } : {}),
        detail: `unreadable card entered by hand${sequence !== null ? ` (shoe sequence ${sequence})` : ''}`,
        resolution: 'card-entered',
        card: code,
        confirmedBy: who,
        ...(sequence !== null ? { shoeSequence: [sequence] } : {}),
      },
    });
    this.deps.log.warn({ roundId: this.roundId, card: code, confirmedBy: who, sequence }, 'card entered by hand');
    this.hold = null;
    this.holdSequence = null;
    this.holdReads = [];
    this.onCard(card);
    // The hold stopped the countdown of the step it came in (a burn between rounds); a round in
    // play went on inside onCard.
    if (this.hold === null && !this.halted && this.phase !== 'dealing') this.resumeAfterHalt();
    return { ok: true };
  }

  /** Whether the table announces the last round of the shoe (the cut card is out). */
  lastRoundOfShoe(): boolean {
    return this.deps.game.lastRoundOfShoe();
  }

  onCutCard(sequence?: number): void {
    this.deps.game.cutCard();
    this.journalled(() => this.journal.shoe('cut-card', sequence));
    this.changed();
  }

  /** A new shoe is in: the shoe-level procedure (burns) starts again and betting may resume. */
  onNewShoe(sequence?: number): void {
    // The device numbers its events anew with a new shoe.
    this.sequences = new Set();
    this.needsShuffle = false;
    // A shoe loaded while a round is in play (a simulated shoe after a restart mid-round): the
    // round finishes on the game's current shoe state, the new shoe's procedure starts after it.
    if (this.phase === 'dealing' && this.round) this.shoeDeferred = true;
    else this.applyNewShoe(sequence);
    this.changed();
  }

  /**
   * Simulated mode after a restart mid-round: the simulated shoe is a new device, but the round
   * goes on with the shoe the engine knows. The simulated dealer then deals only cards that shoe
   * still holds (by its inventory), as the real shoe would; null when no such round is in play.
   */
  cardsLeftInOldShoe(): string[] | null {
    if (!this.shoeDeferred) return null;
    return RANKS.flatMap((rank) => SUITS.map((suit) => ({ rank, suit }))).filter((c) => this.inventory.remaining(c) > 0).map(cardCode);
  }

  private applyNewShoe(sequence?: number): void {
    this.inventory = new ShoeInventory(this.deps.game.decks);
    this.shoeDeferred = false;
    this.deps.game.newShoe();
    this.journalled(() => this.journal.shoe('loaded', sequence));
  }

  /** Runs a journal write; a ledger that refuses it puts the table on hold rather than go on unrecorded. */
  private journalled(write: () => void, sequence?: number): boolean {
    try {
      write();
    } catch (e) {
      this.deps.log.error({ err: e, roundId: this.roundId }, 'round progress could not be journalled');
      this.putOnHold('ledger', null);
      return false;
    }
    if (sequence !== undefined) this.sequences.add(sequence);
    return true;
  }

  /**
   * A supervisor voids the round (two people): every bet of the round is returned. On a hold
   * outside a round (a stray card between rounds) it lifts the hold, journalled as the hold's
   * resolution so that a restart does not put it back.
   */
  voidRound(reason: string, authorisedBy: string[]): Outcome {
    if (this.phase !== 'dealing' && !this.hold) return { ok: false, reason: 'no round to void', refusal: 'no-round' };
    // Two people, as for a manual card entry: a void moves every bet of the round back.
    const refused = twoPeopleRefusal('a void', authorisedBy.map((w) => w.trim()));
    if (refused) return refused;
    const inPlay = this.phase === 'dealing' && this.placed.size > 0;
    const roundVoid: NewEntry = { type: 'round.void', payload: { ...this.roundCore(), reason, authorisedBy }, txId: `${this.roundId}:void` };
    if (this.hold) {
      // The resolution names every read the hold covered, so each card that left the shoe is accounted for.
      const sequences = [this.holdSequence, ...this.holdReads.map((r) => r.shoeSequence)].filter((n): n is number => n !== null && n !== undefined);
      this.journal.holdVoided(inPlay ? this.roundId : null, this.hold, reason, authorisedBy, sequences, inPlay ? roundVoid : undefined);
    } else if (inPlay) this.deps.ledger.append(roundVoid);
    this.deps.log.warn({ roundId: this.roundId, reason, authorisedBy, inPlay }, inPlay ? 'round voided' : 'hold between rounds lifted by a void');
    this.hold = null;
    this.holdSequence = null;
    this.holdReads = [];
    // The engine's round must end too, or the next betting window could not start a round.
    if (inPlay) this.deps.game.voidRound?.();
    // Chips left on the spots through a hold between rounds go back to the meters with the void.
    this.pendingBets.clear();
    this.round = null;
    if (this.shoeDeferred) this.applyNewShoe();
    this.showResults(null);
    return { ok: true };
  }

  /* ─────────────── views ─────────────── */

  cue(): DealerCue | null {
    if (this.hold) return null;
    if (this.needsShuffle) return { kind: 'shuffle' };
    if (this.phase === 'dealing' && this.round) {
      const p = this.round.pending();
      if (p.kind === 'card') return p.cue;
      if (p.kind === 'decision') return { kind: 'decision', seat: p.seat };
      return null;
    }
    return this.deps.game.shoeCue();
  }

  /**
   * Whether the table expects a card from the shoe now (the dealer is cued for one). Otherwise —
   * betting, a decision, results, a hold, a halt, a shuffle due — the shoe's gate is kept locked
   * where the device has one (host/devices/shoe.ts).
   */
  expectsCard(): boolean {
    return !this.hold && !this.halted && this.cue()?.kind === 'card';
  }

  view(): RoundView {
    return {
      roundId: this.roundId,
      phase: this.hold ? 'hold' : this.phase,
      endsAt: this.endsAt,
      cue: this.cue(),
      hands: this.round?.hands() ?? [],
      results: this.results,
      hold: this.hold,
    };
  }

  betting(station: number): StationBetting {
    const open = this.phase === 'betting' && !this.hold && !this.needsShuffle && !this.betsBlocked && !this.halted;
    return {
      open,
      spots: [...this.deps.game.bets, ...behindSpots(this.tableSeats(), station)].map((bet) => ({ bet, ...betLimits(this.deps.config, bet) })),
      bets: (this.phase === 'betting' ? this.pendingBets.get(station) : this.placed.get(station)) ?? {},
      ...(!open && this.unplayed.has(station) ? { unplayed: this.unplayed.get(station) } : {}),
      ...(!open ? this.notFollowedBy(station) : {}),
      ...(this.phase === 'results' && this.results && this.stationNets.has(station) ? { roundNet: this.stationNets.get(station) } : {}),
      ...(this.phase === 'results' && this.results && this.stationPrizes.has(station) ? { prizes: this.stationPrizes.get(station) } : {}),
    };
  }

  /** This station's bets behind that did not follow a double or split of the round for want of credit. */
  private notFollowedBy(station: number): { notFollowed?: StationBetting['notFollowed'] } {
    const mine = (this.round?.notFollowed?.() ?? []).filter((n) => ownerStation(n.owner) === station);
    return mine.length > 0 ? { notFollowed: mine.map(({ seat, hand, action, amount }) => ({ seat, hand, action, amount })) } : {};
  }

  decisionFor(station: number): StationDecision | null {
    const p = this.round?.pending();
    if (!p || p.kind !== 'decision' || this.hold || this.halted || this.deciderStation(p) !== station || this.endsAt === null) return null;
    return { seat: p.seat, ...(p.hand !== undefined ? { hand: p.hand } : {}), legal: p.legal, default: this.timeoutDefault(p), endsAt: this.endsAt, ...(p.cost !== undefined ? { cost: p.cost } : {}) };
  }

  /** Credit a station may still bet: the ledger's meter less what is on its spots. */
  available(station: number): number {
    const pending = Object.values(this.pendingBets.get(station) ?? {}).reduce((a, b) => a + b, 0);
    return this.deps.ledger.credit(station) - pending;
  }

  /* ─────────────── the round's steps ─────────────── */

  private openBetting(): void {
    this.phase = 'betting';
    this.roundId = this.newRoundId();
    this.round = null;
    this.cards = [];
    this.decisions = [];
    this.placed = new Map();
    this.unplayed = new Map();
    this.results = null;
    this.schedule(this.deps.timings.bettingMs, () => this.closeBetting());
  }

  private closeBetting(): void {
    if (this.needsShuffle || this.deps.game.shoeCue()) {
      // Shoe procedures come first: keep the window open until the shoe is ready.
      return this.schedule(this.deps.timings.bettingMs, () => this.closeBetting());
    }
    // Chips kept through a hold (setNewBets) never play while new bets are stopped: they stay credit.
    if (this.betsBlocked) this.pendingBets.clear();
    // What plays: spots at or over their minimum, bets behind a seat that plays (bets-behind.ts).
    // What does not play stayed credit, and its station is told which spot and why.
    const closed = closeBets(this.tableSeats(), this.pendingBets, (station) => this.deps.ledger.credit(station));
    this.unplayed = closed.unplayed;
    if (closed.unplayed.size > 0) this.deps.log.info({ roundId: this.roundId, unplayed: Object.fromEntries(closed.unplayed) }, 'spots that do not play');
    const seats = closed.seats;
    for (const [station, { lines, spots }] of closed.stations) {
      try {
        this.deps.ledger.append({
          type: 'bet.place',
          payload: { station, roundId: this.roundId, tableId: this.deps.config.tableId, bets: lines },
          txId: `${this.roundId}:bet:${station}`,
        });
        this.placed.set(station, spots);
      } catch (e) {
        // Not expected (credit was checked just before): bets behind this seat then fail the
        // ledger's settlement check, the table holds, and a void returns every bet.
        this.deps.log.error({ err: e, station, roundId: this.roundId }, 'bet refused by the ledger: not in play');
        const seat = this.seatOf.get(station);
        if (seat !== undefined) seats.delete(seat);
      }
    }
    this.pendingBets.clear();
    if (seats.size === 0) {
      this.openBetting();
      return this.changed();
    }
    this.round = this.deps.game.newRound(seats, closed.behind);
    this.phase = 'dealing';
    this.deps.log.info({ roundId: this.roundId, seats: [...seats.keys()] }, 'bets closed');
    this.advance();
  }

  private advance(): void {
    // Halted (a fault restored at start, a shoe alarm): nothing is decided or settled until it clears.
    if (this.halted) return this.changed();
    const round = this.round;
    if (!round) return;
    const p = round.pending();
    if (p.kind === 'done') return this.settle(round);
    if (p.kind === 'decision') {
      this.schedule(this.deps.timings.decisionMs, () => this.decisionTimedOut(p));
    } else {
      this.clearTimer();
      this.endsAt = null;
    }
    this.changed();
  }

  private applyDecision(station: number, seat: number, hand: number | undefined, action: string, auto: boolean, amount?: number): Outcome {
    const round = this.round;
    if (!round) return { ok: false, reason: 'no round', refusal: 'no-round' };
    // Each bettor on the seat pays its own share of a raise: the seat's station, and a station
    // behind whose stake follows the double or split (Art. 20).
    const seatStation = this.stationOf.get(seat) ?? station;
    const payer = (owner?: string) => ownerStation(owner) ?? seatStation;
    const r = round.decide(seat, action, (cost, owner) => cost <= this.deps.ledger.credit(payer(owner)), amount);
    if (!r.ok) return r;
    // A raise (war, double, split) moves more credit into play before the round goes on, from
    // each bettor's own station (Art. 20); the decision is journalled with it, in one
    // transaction, before any screen hears of it.
    const byStation = new Map<number, { seat: number; bet: string; amount: number }[]>();
    for (const { owner, ...x } of r.extra) byStation.set(payer(owner), [...(byStation.get(payer(owner)) ?? []), x]);
    const extra: NewEntry[] = [...byStation].map(([st, bets]) => ({
      type: 'bet.place',
      payload: { station: st, roundId: this.roundId, tableId: this.deps.config.tableId, bets },
      txId: `${this.roundId}:bet:${st}:${this.decisions.length + 1}`,
    }));
    const notFollowing = r.notFollowing && r.notFollowing.length > 0 ? { notFollowing: r.notFollowing } : {};
    const journalled = this.journalled(() =>
      this.journal.decision(
        {
          roundId: this.roundId,
          seat,
          ...(hand !== undefined ? { hand } : {}),
          station,
          action,
          ...(auto ? { auto } : {}),
          ...(amount !== undefined ? { amount } : {}),
          ...notFollowing,
        },
        extra,
      ),
    );
    if (!journalled) return { ok: false, reason: 'the decision could not be journalled', refusal: 'no-decision' };
    for (const [st, bets] of byStation) {
      const placed = { ...(this.placed.get(st) ?? {}) };
      for (const x of bets) placed[x.bet] = (placed[x.bet] ?? 0) + x.amount;
      this.placed.set(st, placed);
    }
    this.decisions.push({ seat, ...(hand !== undefined ? { hand } : {}), station, action, ...(auto ? { auto } : {}), ...notFollowing });
    if (r.notFollowing?.length) this.deps.log.info({ roundId: this.roundId, seat, action, notFollowing: r.notFollowing }, 'bets behind that do not follow the double or split stay at their stake');
    this.advance();
    return { ok: true };
  }

  /**
   * The countdown ran out: the stated default, chosen when the time runs out so that it is one the
   * seat can take with the credit it has then (a war raise it cannot cover falls back to surrender).
   *
   * Should the engine refuse even that (it never should: the default is legal and costs nothing the
   * station lacks), the table holds (`default-refused`, journalled) rather than guess another
   * action for the player or wait on a countdown that is over: a round left in `dealing` with no
   * timer blocks every seat. A supervisor voids the round (every bet returned). Taking the next
   * legal action instead would pick a move the player never saw stated as the default.
   */
  private decisionTimedOut(p: Extract<Pending, { kind: 'decision' }>): void {
    const station = this.deciderStation(p);
    const action = this.timeoutDefault(p);
    const r: Outcome = station === undefined
      ? { ok: false, reason: `seat ${p.seat} has no station to decide for it` }
      : this.applyDecision(station, p.seat, p.hand, action, true);
    if (r.ok) return;
    this.deps.log.error({ roundId: this.roundId, seat: p.seat, action, reason: r.reason }, 'the default decision was refused: table on hold');
    // A refused journal write has already put the table on hold (`ledger`): that reason stands.
    if (!this.hold) this.putOnHold('default-refused', null);
  }

  /** The default a timeout takes now: the stated one, or the free one when its stake cannot be covered. */
  private timeoutDefault(p: Extract<Pending, { kind: 'decision' }>): DecisionAction {
    if (!p.defaultCost) return p.default;
    const payer = this.stationOf.get(p.seat) ?? this.deciderStation(p);
    return payer !== undefined && p.defaultCost.amount <= this.deps.ledger.credit(payer) ? p.default : p.defaultCost.otherwise;
  }

  private settle(round: LiveRound): void {
    const lines = round.settle().map((l) => {
      // A bettor behind is paid at its own station (the engine names it as the line's owner).
      const station = ownerStation((l as { owner?: string }).owner) ?? this.stationOf.get(l.seat);
      if (station === undefined) throw new Error(`seat ${l.seat} has no station`);
      return { station, seat: l.seat, bet: l.bet, ...(l.hand !== undefined ? { hand: l.hand } : {}), stake: l.stake, net: l.net, rule: l.rule };
    });
    try {
      this.deps.ledger.append({
        type: 'round.settle',
        payload: { ...this.roundCore(), lines },
        txId: `${this.roundId}:settle`,
      });
    } catch (e) {
      // The ledger refused the settlement (it checks every line against the bets): never pay
      // what was not journalled. The table holds until a supervisor resolves the round.
      this.deps.log.error({ err: e, roundId: this.roundId }, 'settlement refused by the ledger');
      return this.putOnHold('ledger', null);
    }
    this.deps.log.info({ roundId: this.roundId, lines: lines.length }, 'round settled');
    if (this.shoeDeferred) this.applyNewShoe();
    this.showResults(lines);
  }

  /**
   * The settled lines as the screens see them: the public view names no station, only whether a
   * line is the seat's own or a bet behind it, and which lines are prizes to celebrate; each
   * station's net and prizes are kept for its own view.
   */
  private showLines(lines: readonly SettledLine[] | null): void {
    this.stationNets = new Map();
    this.stationPrizes = new Map();
    if (!lines) {
      this.results = null;
      return;
    }
    this.results = lines.map(({ station, ...l }) => {
      const prize = this.deps.game.prizeOf?.(l);
      if (prize) {
        const mine = this.stationPrizes.get(station) ?? [];
        mine.push({ seat: l.seat, bet: l.bet, ...(l.hand !== undefined ? { hand: l.hand } : {}), net: l.net, prize });
        this.stationPrizes.set(station, mine);
      }
      this.stationNets.set(station, (this.stationNets.get(station) ?? 0) + l.net);
      return { ...l, owner: station === this.stationOf.get(l.seat) ? 'seat' : 'behind', ...(prize ? { prize } : {}) } satisfies ResultLine;
    });
  }

  private showResults(lines: readonly SettledLine[] | null): void {
    this.phase = 'results';
    this.showLines(lines);
    if (this.deps.game.shoeFinished()) this.needsShuffle = true;
    this.schedule(this.deps.timings.resultsMs, () => {
      this.openBetting();
      this.changed();
    });
    this.changed();
  }

  private newRoundId(): string {
    // Time plus randomness: unique even if the clock steps back (NTP) or two tables share a prefix.
    return `${this.deps.config.tableId}-${this.deps.timers.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  }

  private tableSeats(): TableSeats {
    return { config: this.deps.config, game: this.deps.game, seatOf: this.seatOf, stationOf: this.stationOf };
  }

  /** The station that decides a pending decision: the seat's, or a bettor behind's (Art. 20). */
  private deciderStation(p: Extract<Pending, { kind: 'decision' }>): number | undefined {
    return ownerStation(p.decider) ?? this.stationOf.get(p.seat);
  }

  /** After a halt: the step that was running starts its countdown again. */
  private resumeAfterHalt(): void {
    if (this.phase === 'betting') this.schedule(this.deps.timings.bettingMs, () => this.closeBetting());
    else if (this.phase === 'dealing') this.advance();
    else this.schedule(this.deps.timings.resultsMs, () => {
      this.openBetting();
      this.changed();
    });
  }

  private putOnHold(reason: HoldReason, card: string | null, sequence?: number): void {
    // Journalled (pending) so that a restart puts the table back on hold, in a round or between
    // rounds. A ledger hold too: the ledger refused one entry, and may still take this one.
    this.holdSequence = sequence ?? null;
    this.holdReads = [];
    this.holdRound = this.phase === 'dealing' ? this.roundId : null;
    try {
      this.journal.hold(this.holdRound, reason, card, this.holdSequence);
      // The read that caused the hold is journalled: a re-report of its sequence is not a new read.
      if (sequence !== undefined) this.sequences.add(sequence);
    } catch (e) {
      this.deps.log.error({ err: e, reason }, 'hold could not be journalled');
    }
    this.hold = reason;
    this.clearTimer();
    this.endsAt = null;
    this.deps.log.warn({ roundId: this.roundId, reason, card, phase: this.phase }, 'table on hold');
    this.changed();
  }

  private roundCore() {
    return {
      roundId: this.roundId,
      tableId: this.deps.config.tableId,
      game: this.deps.game.game,
      profile: this.deps.game.profile,
      cards: this.cards,
      decisions: this.decisions,
    };
  }

  private schedule(ms: number, fn: () => void): void {
    this.clearTimer();
    // No countdown runs while the table is halted; setHalted(null) starts the step again.
    if (this.halted) {
      this.endsAt = null;
      return;
    }
    this.endsAt = this.deps.timers.now() + ms;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = null;
      fn();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.deps.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}
