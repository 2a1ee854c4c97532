// The logical card-reading shoe: one event model for our framed protocol and vendor ASCII streams.
import type { Clock } from '../clock.js';
import type { WireFault } from '../billacceptor/sim-controls.js';
import type { CardCode, Rank, Suit } from './card-code.js';
import type { WireFrame } from '../wire-frame.js';

export type ShoeEvent =
  /** `lidOpen`: what the shoe's HELLO says of its lid (its flags), where the protocol says it. */
  | { type: 'connected'; protocol: 'framed' | 'ascii'; serial?: string; firmware?: string; lidOpen?: boolean }
  | {
      type: 'card';
      sequence: number;
      card: CardCode;
      rank: Rank;
      suit: Suit;
      /** Ordinal of the card in the shoe (1…N), as the shoe counts it. */
      index: number;
      /** Read quality 0–100 (100 when the protocol does not say). */
      quality: number;
      burn: boolean;
      /** The shoe saw a card of another deck set (wrong back/barcode). */
      wrongDeck: boolean;
      raw?: string;
    }
  | { type: 'unreadable'; sequence: number; index: number; reason: string; burn: boolean; raw?: string }
  | { type: 'burnMode'; sequence: number; on: boolean }
  | { type: 'cutCard'; sequence: number; index: number }
  | { type: 'shoeLoaded'; sequence: number; sessionId: number; decks: number; cards: number; setId: string }
  | { type: 'shoeEmpty'; sequence: number; index: number }
  | { type: 'lid'; sequence: number; open: boolean }
  | { type: 'lock'; sequence: number; locked: boolean }
  | { type: 'alarm'; sequence: number; code: string; severity: 'info' | 'warning' | 'critical'; text: string }
  /**
   * The shoe's own state in its answer to the heartbeat's GET_STATUS (framed HELLO, mid-session):
   * not sequenced, not journalled. A shoe that restarted within the heartbeat's limit says nothing
   * else, and its gate may have come back other than the host set it.
   */
  | { type: 'status'; locked: boolean; lidOpen?: boolean }
  /** Something on the wire the adapter could not use (unknown line, stale partial line, sequence gap). */
  | { type: 'warning'; text: string }
  | { type: 'disconnected'; reason: string }
  | { type: 'reconnected' };

export type SequencedShoeEvent = Extract<ShoeEvent, { sequence: number }>;

export interface ShoeOptions {
  /**
   * Awaited for every sequenced event before the shoe is acknowledged (framed protocol), so the
   * host journals first. A throw withholds the ACK; the shoe resends and the event comes again.
   */
  onEvent?: (e: SequencedShoeEvent) => void | Promise<void>;
  /** Last sequence number the host journalled (dedupe across restarts). */
  lastSequence?: number;
  /** Framed: command reply timeout. */
  replyTimeoutMs?: number;
  /** Framed: GET_STATUS heartbeat; the link is lost after `retries` unanswered ones. */
  heartbeatMs?: number;
  retries?: number;
  /** ASCII: a partial line older than this is discarded. */
  lineTimeoutMs?: number;
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  clock?: Clock;
}

export interface ShoeDevice {
  readonly protocol: 'framed' | 'ascii';
  on(listener: (e: ShoeEvent) => void): () => void;
  /** Every frame on the wire, hex and decoded; nothing is kept by the driver. */
  onFrame(listener: (f: WireFrame) => void): () => void;
  start(): void;
  /** Gate closed: the dealer cannot pull a card. False if the shoe cannot do it or refused. */
  lock(): Promise<boolean>;
  unlock(): Promise<boolean>;
  setBurnMode(on: boolean): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * What goes wrong at a shoe, apart from its power and its wire: a card the reader misreads, the lid,
 * an alarm, a frame sent twice. Each must come out of the driver as an event the table acts on
 * (docs/protocols/shoe.md, "Simulator"); the cards a dealer draws stay on ShoeSimControls.
 */
export interface ShoeFaults {
  /** Whether a card left the shoe: none leaves a locked, unpowered or empty shoe, as with a card drawn. */
  drawUnreadable(reason?: number): boolean;
  /** The same card value again as a new draw (e.g. a second deck's copy beyond inventory). */
  drawDuplicate(): void;
  /** A card from another deck set. */
  drawWrongDeck(card?: CardCode): void;
  openLid(): void;
  closeLid(): void;
  alarm(code: number, text: string): void;
  /** Resend the last event frame as-is (same sequence number): must be deduplicated. */
  repeatLastFrame(): void;
}

export interface ShoeSimControls {
  readonly protocol: 'framed' | 'ascii';
  /** A new shuffled shoe (seeded order) is loaded and the lid closed. */
  loadShoe(options?: { decks?: number; seed?: number; cutCardAt?: number }): void;
  /** The dealer pulls the next card (or a forced one). Null if the shoe is locked (unless `pastLock`: a hand beat the gate) or empty. */
  drawCard(options?: { card?: CardCode; quality?: number; pastLock?: boolean }): CardCode | null;
  /** Dealer's burn button. */
  pressBurn(on: boolean): void;
  readonly faults: ShoeFaults;
  wireFault(kind: WireFault, count?: number): void;
  powerCut(restoreAfterMs?: number): void;
  powerOn(): void;
  readonly powered: boolean;
  readonly locked: boolean;
  readonly burnMode: boolean;
  readonly lidOpen: boolean;
  /** Cards dealt from the current shoe. */
  readonly dealt: number;
  /** Event sequence numbers not yet acknowledged by the host (framed). */
  readonly unacked: readonly number[];
}
