import type { Logger } from 'pino';
import { Rng } from '../../engine/random/seeded-rng.js';
import type { CardDestination } from '../../engine/table/vocabulary.js';
import type { CardCode } from '../../hardware/shoe/card-code.js';
import type { LiveTable } from '../table/runtime.js';
import type { Timers } from '../table/timers.js';
import type { TableShoe } from './shoe.js';

/** How soon a dealer at a shoe without power tries again. */
const POWER_RETRY_MS = 250;

/**
 * Simulated mode's dealer: when the table display asks for a card, it pulls one from the
 * simulated shoe after a short delay (as a person would), and loads a new shoe when the table
 * asks for a shuffle. The cards still travel the whole way: simulator bytes → shoe driver →
 * engine → ledger → screens. Real hardware has a real dealer and no SimDealer.
 */
export class SimDealer {
  private timer: unknown = null;
  private stopped = false;
  /** Cards pulled so far; the next is pulled only once the table has handled the last (instant dealing would outrun it). */
  private drawn = 0;
  /** New shoes asked for and awaited; TableShoe.start loads the first, so nothing is dealt before it is in. */
  private loaded = 1;
  private readonly rng = Rng.fromSeed(0x5d);
  /** Scripted cards dealt so far (a test's round script: the first round's cards, in order). */
  private scripted = 0;
  /** The next card pulled reads as unreadable (sim controls): a card hold to resolve in service mode. */
  private unreadable = false;

  /**
   * Cards of the round the dealer still draws before it holds (sim controls), or null: dealing as
   * the table asks. A test that must act while a coup is being dealt (a supervisor reporting a
   * dealing error after its first card) holds the dealer there, rather than racing a card every
   * `dealMs`. Burns are not counted and never held: a test means the cards on the felt, and a
   * new shoe's burns still due when it asked would take its count, or (held at 0) stop the coup
   * before its first card for good.
   */
  private holdAfter: number | null = null;

  /** Sim controls: the dealer draws `cards` more cards of the round (0: none; burns not counted), then holds until released. */
  holdAfterCards(cards: number): void {
    this.holdAfter = cards;
    this.look(); // a dealer held at 0 and now let draw more starts at once
  }

  /** Sim controls: the dealer draws again as the table asks. */
  release(): void {
    this.holdAfter = null;
    this.look();
  }

  /** Sim controls: the next card the table asks for cannot be read (the shoe reports it unreadable). */
  unreadableNext(): void {
    this.unreadable = true;
  }

  /**
   * Sim controls: the dealer draws a card now that the table did not ask for (misreading a
   * player, or drawing for the bank after it stood): the card is read past the shoe's lock, and
   * the table holds for it (`out-of-turn` or `extra-card`). Null, or why not.
   */
  misdrawNow(): string | null {
    const sim = this.shoe.simulator();
    if (!sim) return 'no simulated shoe';
    // One more card for the table to handle than before it, a draw of the dealer's own on its way or not.
    const awaited = Math.max(this.drawn, this.shoe.cardsHandled) + 1;
    const card = sim.drawCard({ pastLock: true });
    if (card === null) return 'the shoe gave no card';
    this.drawn = awaited;
    return null;
  }

  constructor(
    private readonly controller: LiveTable,
    private readonly shoe: TableShoe,
    private readonly timers: Timers,
    private readonly log: Logger,
    private readonly dealMs: number,
    /** Test only: the first round's cards, dealt in this order (host/autoplay/round-script.ts). */
    private readonly script: readonly CardCode[] = [],
  ) {}

  start(): () => void {
    const off = this.controller.onChange(() => this.look());
    // The gate opens a moment after the cue (a command to the shoe): the dealer draws once it has.
    const offGate = this.shoe.onGateChange(() => this.look());
    this.look();
    return () => {
      this.stopped = true;
      off();
      offGate();
      if (this.timer !== null) this.timers.clearTimeout(this.timer);
    };
  }

  /** The next card; after a restart mid-round, one the engine's shoe still holds (LiveTable.cardsLeftInOldShoe). */
  private draw(sim: NonNullable<ReturnType<TableShoe['simulator']>>): string | null {
    if (this.scripted < this.script.length && this.controller.reads.view().phase === 'dealing') {
      return sim.drawCard({ card: this.script[this.scripted++] });
    }
    const left = this.controller.reads.cardsLeftInOldShoe();
    if (!left || left.length === 0) return sim.drawCard();
    return sim.drawCard({ card: left[this.rng.below(left.length)] });
  }

  /**
   * Whether the dealer may act: not stopped, no draw on its way, and the last card drawn and the
   * last shoe loaded handled by the table (each arrives a moment later, through the shoe's driver).
   */
  private free(): boolean {
    return !this.stopped && this.timer === null && this.shoe.cardsHandled >= this.drawn && this.shoe.loadsHandled >= this.loaded;
  }

  /** Whether a hold stops the card the table asks for now: one of the round's, with none left to draw. */
  private heldAt(to: CardDestination): boolean {
    return this.holdAfter === 0 && to !== 'burn';
  }

  /** Looks at what the table asks and, if the dealer may act, acts `delayMs` later (a person's pace). */
  private look(delayMs = this.dealMs): void {
    if (!this.free()) return;
    const cue = this.controller.reads.cue();
    // Reading the cue commits the station commands waiting for their group commit, whose listeners
    // call look() again: the look within may have acted, and a second timer here would draw a
    // second burn or load a second shoe (issue 52: the Portugal table's one burn, then an extra card).
    if (!this.free()) return;
    if (!cue || (cue.kind !== 'card' && cue.kind !== 'shuffle')) return;
    // A card only through an open gate, as a person meets a locked shoe; loading a new shoe needs none.
    if (cue.kind === 'card' && !this.shoe.gateOpen()) return;
    if (cue.kind === 'card' && this.heldAt(cue.to)) return;
    this.timer = this.timers.setTimeout(() => {
      // The timer stays set while the dealer acts, for the same reason: the cue read here commits
      // waiting commands too, and a look from their listeners must not start another draw.
      let again: number | null;
      try {
        again = this.act();
      } finally {
        this.timer = null;
      }
      if (again !== null) this.look(again);
    }, delayMs);
  }

  /** What the timer does: one card or one new shoe, as the table asks now. When to look again, or null: at the next change. */
  private act(): number | null {
    if (this.stopped) return null;
    const sim = this.shoe.simulator();
    const now = this.controller.reads.cue();
    if (!sim || !now) return null;
    if (now.kind !== 'card' && now.kind !== 'shuffle') return null;
    if (now.kind === 'card' && !this.shoe.gateOpen()) return this.dealMs;
    if (now.kind === 'card' && this.heldAt(now.to)) return null;
    // Counted before the act: a driver that hands the event to the table at once has then handled it.
    const cards = this.shoe.cardsHandled;
    const loads = this.shoe.loadsHandled;
    if (now.kind === 'shuffle') {
      this.log.info('simulated dealer: new shoe');
      this.loaded = loads + 1;
      sim.loadShoe();
      return this.dealMs;
    }
    this.drawn = cards + 1;
    const left = this.unreadable ? sim.faults.drawUnreadable() : this.draw(sim) !== null;
    if (left) {
      this.unreadable = false;
      // A hold is spent only on a card that left the shoe.
      if (now.to !== 'burn' && this.holdAfter !== null) this.holdAfter--;
      return this.dealMs;
    }
    this.drawn = cards;
    // The gate closed under the hand (the host's lock was on its way): a person waits for it to
    // open again, which the host says (onGateChange); a new shoe mid-round only for an empty one.
    if (sim.locked) return null;
    // A shoe without power: the dealer tries again a moment later, as the host may hear nothing of
    // a short cut (a framed shoe back within its heartbeat's limit, an ASCII shoe); not at once, as
    // fast tests deal at 0 ms.
    if (!sim.powered) return Math.max(this.dealMs, POWER_RETRY_MS);
    this.log.warn('simulated dealer: the shoe gave no card (empty); loading a new shoe');
    this.loaded = loads + 1;
    sim.loadShoe();
    return this.dealMs;
  }
}
