import type { Logger } from 'pino';
import { parseCard } from '../../engine/cards/card.js';
import { openShoe, type OpenedShoe } from '../../hardware/open.js';
import type { WireFrame } from '../../hardware/wire-frame.js';
import type { SequencedShoeEvent, ShoeEvent } from '../../hardware/shoe/types.js';
import type { RoundController } from '../table/round-controller.js';

export interface ShoeStatus {
  spec: string;
  state: 'connecting' | 'ready' | 'disconnected' | 'alarm';
  lastEvent: string | null;
  lidOpen: boolean;
}

/**
 * The card-reading shoe, through the hardware layer. Every sequenced event is handled before the
 * shoe is acknowledged (the driver awaits `onEvent`), so a card is placed by the engine before
 * the shoe considers it delivered; the driver drops repeats of a sequence number.
 */
export class TableShoe {
  private device: OpenedShoe | null = null;
  /** Card reads (readable or not) handed to the table so far: the simulated dealer waits on it. */
  cardsHandled = 0;
  /** New shoes handed to the table so far. */
  loadsHandled = 0;
  private readonly status: ShoeStatus;
  private readonly listeners = new Set<(e: ShoeEvent) => void>();
  /** Service mode's card test: the next card read is reported to it and never reaches the round. */
  private cardTest: ((card: string) => void) | null = null;

  constructor(
    private readonly spec: string,
    private readonly controller: RoundController,
    private readonly log: Logger,
    private readonly options: {
      seed?: number;
      decks: number;
      open?: typeof openShoe;
      /** The last sequence number journalled (recovery): the driver drops what it re-reports up to it. */
      lastSequence?: number;
      onDeviceEvent?: (e: ShoeEvent) => void;
    } = { decks: 8 },
  ) {
    this.status = { spec, state: 'connecting', lastEvent: null, lidOpen: false };
  }

  start(): void {
    const open = this.options.open ?? openShoe;
    this.device = open(this.spec, {
      protocol: 'framed',
      ...(this.options.seed !== undefined ? { seed: this.options.seed } : {}),
      // A simulated shoe is a new device at every start, numbering from 1: only real hardware resumes.
      ...(this.options.lastSequence !== undefined && this.spec !== 'sim' ? { lastSequence: this.options.lastSequence } : {}),
      onEvent: (e) => this.handle(e),
    });
    this.device.on((e) => this.track(e));
    this.device.onFrame((f) => {
      for (const l of this.frameListeners) l(f);
    });
    // A simulated shoe starts loaded, as a dealer would bring a shuffled shoe to an opening table.
    this.device.simulator?.loadShoe({ decks: this.options.decks });
  }

  /** The simulator behind a `sim` shoe; null for real hardware. */
  simulator(): OpenedShoe['simulator'] | null {
    return this.device?.simulator ?? null;
  }

  private readonly frameListeners = new Set<(f: WireFrame) => void>();

  /** Every frame on the shoe's wire (service mode's Devices trace); nothing is kept here. */
  onFrame(listener: (f: WireFrame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Every decoded shoe event, for service mode's live trace. */
  onEvent(listener: (e: ShoeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Service mode's card test; returns a function that ends the test. */
  testNextCard(onCard: (card: string) => void): () => void {
    this.cardTest = onCard;
    return () => {
      if (this.cardTest === onCard) this.cardTest = null;
    };
  }

  state(): ShoeStatus {
    return { ...this.status };
  }

  async close(): Promise<void> {
    await this.device?.close();
  }

  private handle(e: SequencedShoeEvent): void {
    if (e.type === 'card' || e.type === 'unreadable') this.cardsHandled++;
    if (e.type === 'shoeLoaded') this.loadsHandled++;
    switch (e.type) {
      case 'card':
        if (this.cardTest) {
          const test = this.cardTest;
          this.cardTest = null;
          test(e.wrongDeck ? `${e.card} (wrong deck)` : e.card);
          return;
        }
        if (e.wrongDeck) {
          this.log.warn({ sequence: e.sequence, card: e.card }, 'card of another deck set');
          this.controller.onAnomaly('wrong-deck', e.card, e.sequence);
          return;
        }
        this.controller.onCard(parseCard(e.card), e.sequence);
        return;
      case 'unreadable':
        if (this.cardTest) {
          const test = this.cardTest;
          this.cardTest = null;
          test(`unreadable (${e.reason})`);
          return;
        }
        this.log.warn({ sequence: e.sequence, reason: e.reason }, 'unreadable card');
        this.controller.onAnomaly('unreadable', null, e.sequence);
        return;
      case 'cutCard':
        this.controller.onCutCard(e.sequence);
        return;
      case 'shoeLoaded':
        this.controller.onNewShoe(e.sequence);
        return;
      default:
        return;
    }
  }

  private track(e: ShoeEvent): void {
    this.options.onDeviceEvent?.(e);
    for (const l of this.listeners) l(e);
    this.status.lastEvent = e.type;
    if (e.type === 'connected' || e.type === 'reconnected') this.status.state = 'ready';
    else if (e.type === 'disconnected') this.status.state = 'disconnected';
    else if (e.type === 'alarm') this.status.state = 'alarm';
    else if (e.type === 'lid') this.status.lidOpen = e.open;
    if (e.type === 'disconnected' || e.type === 'alarm' || e.type === 'warning') this.log.warn({ event: e }, 'shoe event');
  }
}
