import type { Logger } from 'pino';
import type { RoundController, Timers } from '../table/round-controller.js';
import type { TableShoe } from './shoe.js';

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
  private loaded = 0;

  constructor(
    private readonly controller: RoundController,
    private readonly shoe: TableShoe,
    private readonly timers: Timers,
    private readonly log: Logger,
    private readonly dealMs: number,
  ) {}

  start(): () => void {
    const off = this.controller.onChange(() => this.look());
    this.look();
    return () => {
      this.stopped = true;
      off();
      if (this.timer !== null) this.timers.clearTimeout(this.timer);
    };
  }

  private look(): void {
    if (this.stopped || this.timer !== null || this.shoe.cardsHandled < this.drawn || this.shoe.loadsHandled < this.loaded) return;
    const cue = this.controller.cue();
    if (!cue || cue.kind === 'decision') return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      const sim = this.shoe.simulator();
      const now = this.controller.cue();
      if (!sim || !now || now.kind === 'decision') return;
      if (now.kind === 'shuffle') {
        this.log.info('simulated dealer: new shoe');
        sim.loadShoe();
        this.loaded = this.shoe.loadsHandled + 1;
      } else if (sim.drawCard() !== null) {
        this.drawn = this.shoe.cardsHandled + 1;
      } else {
        this.log.warn('simulated dealer: the shoe gave no card (locked or empty); loading a new shoe');
        sim.loadShoe();
        this.loaded = this.shoe.loadsHandled + 1;
      }
      this.look();
    }, this.dealMs);
  }
}
