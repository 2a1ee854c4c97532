// Device side of a card-reading shoe, byte for byte: our framed protocol (sequence numbers, ACKs,
// retransmission of unacknowledged events, kept across power cuts as a real shoe keeps them in
// non-volatile memory) or a vendor-style ASCII line stream. The card order comes from a seeded
// shuffle so runs are reproducible.
import { asciiBytes } from '../bytes.js';
import { ByteDevice } from '../sim/device-side.js';
import { PowerSwitch } from '../sim/power-switch.js';
import { WireFaults } from '../sim/wire-faults.js';
import { LINE_8N1_9600, type LineSettings } from '../transport/byte-port.js';
import type { WireFault } from '../billacceptor/sim-controls.js';
import { RANKS, SUITS, cardToWire, type CardCode } from './card-code.js';
import { MSG, RESULT, ShoeFrameParser, encodeShoeFrame, nextSeq, rdU16, seqDiff, text, u16, u32, type ShoeFrame } from './framed.js';
import type { ShoeFaults, ShoeSimControls } from './types.js';
import { keepRecent, readRecord, receivedRecord, type ReceivedOptions } from '../sim/recent.js';

export interface ShoeSimOptions extends ReceivedOptions {
  protocol: 'framed' | 'ascii';
  seed?: number;
  decks?: number;
  line?: LineSettings;
  /** Framed: resend unacknowledged events this often. */
  retransmitMs?: number;
  serial?: string;
  /**
   * The cut card comes out after this many cards of each shoe loaded (default: 16 cards from the
   * end). Tests put it early: a shoe change every round or two, where a whole shoe takes dozens.
   */
  cutCardAt?: number;
  /**
   * The gate after a power cut: kept (default), or as a shoe that starts open or locked at power-up
   * and says so only in its HELLO (no LOCK_STATE event): what a host must notice from the HELLO.
   */
  gateAtPowerUp?: 'kept' | 'open' | 'locked';
}

/** Where the simulator's cut card comes out unless told: this many cards from the end of each shoe. */
export const SIM_CUT_CARD_FROM_END = 16;

/** mulberry32: a small seeded PRNG (hardware cannot import the engine's RNG). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffledShoe(decks: number, seed: number): CardCode[] {
  const cards: CardCode[] = [];
  for (let d = 0; d < decks; d++) for (const s of SUITS) for (const r of RANKS) cards.push(`${r}${s}`);
  const rnd = prng(seed);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [cards[i], cards[j]] = [cards[j] as CardCode, cards[i] as CardCode];
  }
  return cards;
}

const ASCII_SUIT_FIRST_FOR_BURN = true;

export class ShoeSimulator extends ByteDevice implements ShoeSimControls {
  readonly protocol: 'framed' | 'ascii';
  readonly line: LineSettings;
  private readonly parser = new ShoeFrameParser();
  private readonly wire = new WireFaults();
  private readonly retransmitMs: number;
  private readonly serial: string;
  private readonly power = new PowerSwitch({ lost: () => this.parser.reset(), restored: () => this.powerUp() });
  private lid = false;
  private isLocked = false;
  private burn = false;
  private order: CardCode[] = [];
  private pos = 0;
  private cutAt = -1;
  private decks: number;
  private seed: number;
  private readonly cutCardAt: number | undefined;
  private readonly gateAtPowerUp: 'kept' | 'open' | 'locked';
  private sessionId = 0;
  private seq = 0;
  private queue: { seq: number; frame: Uint8Array }[] = [];
  private lastFrame: Uint8Array | null = null;
  private lastCmd: { seq: number; result: Uint8Array } | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Host frames received, kept only for a test that asked (`keepReceived`): the newest, bounded (sim/recent.ts). */
  private readonly record: ShoeFrame[] | null;
  /** Misreads, the lid, alarms, a frame twice: each as the event the shoe sends for it. */
  readonly faults: ShoeFaults = {
    drawUnreadable: (reason = 1) => {
      if (this.isLocked || !this.power.isOn || this.pos >= this.order.length) return false;
      this.pos++;
      this.event(MSG.CARD_UNREADABLE, [...u16(this.pos), reason, this.burn ? 1 : 0], '[Game]<Game>');
      return true;
    },
    drawDuplicate: () => {
      const prev = this.order[this.pos - 1];
      if (prev) this.emitCardAgain(prev);
    },
    drawWrongDeck: (card = 'AS') => {
      if (this.isLocked || !this.power.isOn) return;
      this.pos++;
      this.emitCard(card, 90, true);
    },
    openLid: () => {
      this.lid = true;
      this.event(MSG.LID, [1], '[Shoe]<Lid:Open>');
    },
    closeLid: () => {
      this.lid = false;
      this.event(MSG.LID, [0], '[Shoe]<Lid:Closed>');
    },
    alarm: (code, message) => this.event(MSG.ALARM, [code, 2, ...text(message)], `[GameAlarm]<Alarm:E${code} ${message}>`),
    repeatLastFrame: () => {
      if (this.lastFrame) this.send(this.lastFrame);
    },
  };

  constructor(options: ShoeSimOptions) {
    super();
    this.protocol = options.protocol;
    this.line = options.line ?? LINE_8N1_9600;
    this.retransmitMs = options.retransmitMs ?? 500;
    this.serial = options.serial ?? 'SHOE-SIM-1';
    this.decks = options.decks ?? 8;
    this.seed = options.seed ?? 1;
    this.cutCardAt = options.cutCardAt;
    this.gateAtPowerUp = options.gateAtPowerUp ?? 'kept';
    this.record = receivedRecord(options);
  }

  /** What the host sent, for tests that check what the driver sent; throws unless made with `keepReceived`. */
  get received(): ShoeFrame[] {
    return readRecord(this.record);
  }

  get powered(): boolean {
    return this.power.isOn;
  }
  get locked(): boolean {
    return this.isLocked;
  }
  get burnMode(): boolean {
    return this.burn;
  }
  get lidOpen(): boolean {
    return this.lid;
  }
  get dealt(): number {
    return this.pos;
  }
  get unacked(): readonly number[] {
    return this.queue.map((q) => q.seq);
  }
  /** The cards still in the shoe, in draw order (tests compare against it). */
  get remaining(): readonly CardCode[] {
    return this.order.slice(this.pos);
  }

  override attach(sink: ((bytes: Uint8Array) => void) | null): void {
    super.attach(sink);
    if (sink) this.arm();
  }

  // ── controls ──────────────────────────────────────────────────────────────
  loadShoe(options: { decks?: number; seed?: number; cutCardAt?: number } = {}): void {
    this.decks = options.decks ?? this.decks;
    this.seed = options.seed ?? this.seed + 1;
    this.order = shuffledShoe(this.decks, this.seed);
    this.pos = 0;
    this.cutAt = options.cutCardAt ?? this.cutCardAt ?? this.order.length - SIM_CUT_CARD_FROM_END;
    this.sessionId = (this.sessionId + 1) >>> 0;
    this.lid = false;
    const setId = `SET-${this.seed}`;
    this.event(MSG.SHOE_LOADED, [...u32(this.sessionId), this.decks, ...u16(this.order.length), ...text(setId)], `[Shoe]<Loaded:${this.decks}>`);
  }

  /**
   * Draws the next card. `pastLock`: a dealer's hand beat the gate (a shoe without one, or a draw
   * the lock came too late for): the card leaves the shoe and is read though the host locked it.
   */
  drawCard(options: { card?: CardCode; quality?: number; pastLock?: boolean } = {}): CardCode | null {
    if ((this.isLocked && !options.pastLock) || !this.power.isOn) return null;
    const card = options.card ?? this.order[this.pos];
    if (!card) return null;
    this.pos++;
    this.emitCard(card, options.quality ?? 97, false);
    if (this.pos === this.cutAt) this.event(MSG.CUT_CARD, u16(this.pos), '[Shoe]<CutCard>');
    if (this.pos >= this.order.length && this.order.length > 0) this.event(MSG.SHOE_EMPTY, u16(this.pos), '[Shoe]<Empty>');
    return card;
  }

  private emitCard(card: CardCode, quality: number, wrongDeck: boolean): void {
    const w = cardToWire(card);
    const flags = (this.burn ? 1 : 0) | (wrongDeck ? 2 : 0);
    const raw = this.burn && ASCII_SUIT_FIRST_FOR_BURN ? `${card[1]}${card[0] === 'T' ? '10' : card[0]}` : `${card[0] === 'T' ? '10' : card[0]}${card[1]}`;
    const line = this.burn ? `[Manual Burn Cards]<Card:${raw}>` : `[Game]<Card:${raw}>`;
    this.event(MSG.CARD_DRAWN, [...u16(this.pos), w.rank, w.suit, quality, flags, ...text(raw)], line);
  }

  private emitCardAgain(card: CardCode): void {
    if (this.isLocked || !this.power.isOn) return;
    this.pos++;
    this.emitCard(card, 95, false);
  }

  pressBurn(on: boolean): void {
    this.burn = on;
    this.event(MSG.MODE, [on ? 1 : 0], `[Shoe]<Burn:${on ? 'On' : 'Off'}>`);
  }

  wireFault(kind: WireFault, count = 1): void {
    this.wire.add(kind, count);
  }

  powerCut(restoreAfterMs?: number): void {
    this.power.cut(restoreAfterMs !== undefined ? { restoreAfterMs } : {});
  }

  powerOn(): void {
    this.power.restore();
  }

  private powerUp(): void {
    if (this.gateAtPowerUp !== 'kept') this.isLocked = this.gateAtPowerUp === 'locked';
    if (this.protocol === 'framed') this.send(this.hello());
    this.arm();
  }

  // ── wire ──────────────────────────────────────────────────────────────────
  private send(bytes: Uint8Array): void {
    if (!this.power.isOn) return;
    const b = this.wire.apply(bytes);
    if (b) this.transmit(b);
  }

  private event(type: number, payload: number[], asciiLine: string): void {
    if (this.protocol === 'ascii') {
      // Lock state has no ASCII form (the stream is one-way).
      if (this.power.isOn && asciiLine) this.send(asciiBytes(`${asciiLine}\r\n`));
      return;
    }
    this.seq = nextSeq(this.seq);
    const frame = encodeShoeFrame(this.seq, type, payload);
    this.queue.push({ seq: this.seq, frame });
    this.lastFrame = frame;
    this.send(frame);
    this.arm();
  }

  /** Go-back-N: while events are unacknowledged, resend them all, oldest first, every retransmitMs. */
  private arm(): void {
    if (this.timer || this.protocol !== 'framed') return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.queue.length === 0) return;
      if (this.power.isOn && this.attached) for (const q of this.queue) this.send(q.frame);
      this.arm();
    }, this.retransmitMs);
    this.timer.unref?.();
  }

  private hello(): Uint8Array {
    const flags = (this.lid ? 1 : 0) | (this.isLocked ? 2 : 0) | (this.burn ? 4 : 0) | (this.order.length > 0 ? 8 : 0);
    return encodeShoeFrame(0, MSG.HELLO, [1, 0, 0, flags, ...u16(this.seq), ...u16(this.queue[0]?.seq ?? 0), ...text(this.serial)]);
  }

  receive(bytes: Uint8Array): void {
    if (!this.power.isOn || this.protocol !== 'framed') return;
    for (const f of this.parser.push(bytes)) {
      if (this.record) keepRecent(this.record, f);
      this.handle(f);
    }
  }

  private handle(f: ShoeFrame): void {
    if (f.type === MSG.ACK) {
      const acked = rdU16(f.payload, 0);
      this.queue = this.queue.filter((q) => seqDiff(q.seq, acked) > 0);
      return;
    }
    if (f.type === MSG.GET_STATUS) {
      this.send(this.hello());
      return;
    }
    if (this.lastCmd && this.lastCmd.seq === f.seq) {
      this.send(this.lastCmd.result); // a resent command is answered, not executed again
      return;
    }
    let result: number = RESULT.OK;
    switch (f.type) {
      case MSG.SET_MODE:
        if (f.payload.length !== 1) result = RESULT.BAD_PAYLOAD;
        else if ((f.payload[0] === 1) !== this.burn) this.pressBurn(f.payload[0] === 1);
        break;
      case MSG.LOCK:
      case MSG.UNLOCK: {
        const want = f.type === MSG.LOCK;
        if (want !== this.isLocked) {
          this.isLocked = want;
          this.event(MSG.LOCK_STATE, [want ? 1 : 0], '');
        }
        break;
      }
      case MSG.REPLAY_FROM: {
        const from = rdU16(f.payload, 0);
        for (const q of this.queue) if (seqDiff(q.seq, from) >= 0) this.send(q.frame);
        break;
      }
      default:
        result = RESULT.UNKNOWN;
    }
    const reply = encodeShoeFrame(0, MSG.CMD_RESULT, [...u16(f.seq), result]);
    this.lastCmd = { seq: f.seq, result: reply };
    this.send(reply);
  }
}
