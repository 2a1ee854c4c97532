// Adapter for the unframed ASCII streams some shoes send (one line per event, no CRC, no ACK),
// modelled on the Bee-Tek format seen in public code (research note §3.2): `[Game]<Card:4S>`,
// `[Manual Burn Cards]<Card:H3>`, `[Game]<Game>` (card not read), `<Alarm:E3 Card Not Read>`,
// `<W0x01>`; also bare codes (`AS`, `D12`). Resync at every line end; over-long lines and partial
// lines older than lineTimeoutMs are discarded. Sequence numbers are assigned here.
import type { BytePort, PortOpener } from '../transport/byte-port.js';
import { ShoeBase } from './base.js';
import { parseVendorCard, partsOf, type CardCode } from './card-code.js';
import type { SequencedShoeEvent, ShoeOptions } from './types.js';
import { asciiBytes } from '../bytes.js';
import { sleep } from '../clock.js';
import { hex } from '../wire-frame.js';

export const MAX_LINE = 120;

/** What one line means, before a sequence number is attached. */
export type AsciiLine =
  | { kind: 'card'; card: CardCode; burn: boolean; raw: string }
  | { kind: 'unreadable'; burn: boolean; raw: string }
  | { kind: 'alarm'; code: string; text: string; severity: 'info' | 'warning' | 'critical' }
  | { kind: 'lid'; open: boolean }
  | { kind: 'cutCard' }
  | { kind: 'loaded'; decks: number }
  | { kind: 'empty' }
  | { kind: 'burnMode'; on: boolean };

export function parseAsciiLine(line: string): AsciiLine | null {
  const s = line.trim();
  if (!s) return null;
  // The last complete "[Section]<Tag>" wins: a truncated line glued to the next one still yields
  // the intact event at its end.
  const all = [...s.matchAll(/(?:\[([^\]]*)\])?<([^<>]*)>/g)];
  const last = all.at(-1);
  const section = last?.[1] ?? '';
  const burn = /burn/i.test(section);
  const tag = last?.[2];
  if (tag === undefined) {
    const card = parseVendorCard(s);
    return card ? { kind: 'card', card, burn: false, raw: s } : null;
  }
  const [head, ...rest] = tag.split(':');
  const arg = rest.join(':').trim();
  switch ((head ?? '').trim().toLowerCase()) {
    case 'card': {
      const card = parseVendorCard(arg);
      return card ? { kind: 'card', card, burn, raw: arg } : { kind: 'unreadable', burn, raw: arg };
    }
    case 'game':
      return { kind: 'unreadable', burn, raw: tag };
    case 'alarm': {
      const [code, ...words] = arg.split(/\s+/);
      return { kind: 'alarm', code: code || 'ALARM', text: words.join(' ') || arg, severity: 'warning' };
    }
    case 'lid':
      return { kind: 'lid', open: /open/i.test(arg) };
    case 'cutcard':
      return { kind: 'cutCard' };
    case 'loaded':
      return { kind: 'loaded', decks: Number.parseInt(arg, 10) || 8 };
    case 'empty':
      return { kind: 'empty' };
    case 'burn':
      return { kind: 'burnMode', on: /on/i.test(arg) };
    default:
      if (/^W0x[0-9a-f]+$/i.test(tag)) return { kind: 'alarm', code: tag, text: 'warning', severity: 'info' };
      return null;
  }
}

/** A line the splitter dropped as damaged (over-long, a control or 8-bit byte in it): its printable part, for the record. */
export interface DamagedLine {
  damaged: string;
}

/** Splits a byte stream into lines: CR, LF or CRLF; drops over-long lines and non-ASCII bytes. */
export class LineSplitter {
  private buf = '';
  private overflow = false;
  dropped = 0;

  push(bytes: Uint8Array): string[] {
    return this.pushItems(bytes).filter((l) => typeof l === 'string');
  }

  /** The lines, and in their place the damaged ones the splitter dropped (the adapter reads each as an unreadable read). */
  pushItems(bytes: Uint8Array): (string | DamagedLine)[] {
    const out: (string | DamagedLine)[] = [];
    for (const b of bytes) {
      if (b === 0x0a || b === 0x0d) {
        if (!this.overflow && this.buf.length > 0) out.push(this.buf);
        if (this.overflow) {
          this.dropped++;
          out.push({ damaged: this.buf });
        }
        this.buf = '';
        this.overflow = false;
      } else if (b >= 0x20 && b < 0x7f) {
        if (this.buf.length >= MAX_LINE) this.overflow = true;
        else this.buf += String.fromCharCode(b);
      } else {
        // A control or 8-bit byte inside a line means a damaged line: it is dropped at its end.
        this.overflow = true;
      }
    }
    return out;
  }

  get partial(): boolean {
    return this.buf.length > 0 || this.overflow;
  }

  /** Drops the partial line; returns what it held. */
  discard(): string {
    const held = this.buf;
    this.buf = '';
    this.overflow = false;
    return held;
  }
}

/**
 * What came before the last complete `[Section]<Tag>` group of a line (a line cut short and glued
 * to this one, or an event whose line end was lost); null when nothing did.
 */
export function gluedBefore(line: string): string | null {
  const s = line.trim();
  const last = [...s.matchAll(/(?:\[([^\]]*)\])?<([^<>]*)>/g)].at(-1);
  const before = last ? s.slice(0, last.index).trim() : '';
  return before.length > 0 ? before : null;
}

/**
 * The lines waiting for the journal, one at a time and in order, at most ASCII_LINES_WAITING: past
 * that, lines are dropped and counted, and the count takes their place in the queue (one entry for
 * a run of drops), handed to `dropped` when its turn comes.
 */
class LineQueue {
  private readonly items: (string | DamagedLine | { dropped: number })[] = [];
  private running: Promise<void> | null = null;

  constructor(
    private readonly line: (line: string) => Promise<void>,
    private readonly dropped: (n: number) => Promise<void>,
    private readonly damaged: (text: string) => Promise<void>,
  ) {}

  push(line: string | DamagedLine): void {
    const last = this.items.at(-1);
    if (this.items.length < ASCII_LINES_WAITING) this.items.push(line);
    else if (typeof last === 'object' && 'dropped' in last) last.dropped++;
    else this.items.push({ dropped: 1 });
    this.running ??= this.run();
  }

  private async run(): Promise<void> {
    try {
      for (let item = this.items.shift(); item !== undefined; item = this.items.shift()) {
        await (typeof item === 'string' ? this.line(item) : 'damaged' in item ? this.damaged(item.damaged) : this.dropped(item.dropped));
      }
    } finally {
      this.running = null;
    }
  }

  /** Resolves once every line pushed so far is handled. */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }
}

/**
 * Lines held for the journal at most. A shoe's stream is a line per card, a few a second; a stream
 * faster than the journal for longer than this is a flood (a review: 50,000 lines held 19.5 MB and
 * took 260 s to drain, the table's cards behind them).
 */
export const ASCII_LINES_WAITING = 256;

export class AsciiShoe extends ShoeBase {
  readonly protocol = 'ascii' as const;
  private seq: number;
  private index = 0;
  /** Aborted when the session's stream ends (closed, or the adapter stopped): a read offered again stops being offered. */
  private ended: AbortSignal | null = null;

  constructor(opener: PortOpener, options: ShoeOptions = {}) {
    super(opener, options);
    this.seq = options.lastSequence ?? 0;
  }

  get lastSequence(): number {
    return this.seq;
  }

  // An ASCII stream has no way back to the shoe.
  async lock(): Promise<boolean> {
    return false;
  }
  async unlock(): Promise<boolean> {
    return false;
  }
  async setBurnMode(): Promise<boolean> {
    return false;
  }

  protected async session(port: BytePort, signal: AbortSignal): Promise<void> {
    const splitter = new LineSplitter();
    const lines = new LineQueue(
      (line) => this.onLine(line),
      (n) => this.onDropped(n),
      (text) => this.onDamaged(text),
    );
    const ended = new AbortController();
    this.ended = ended.signal;
    let staleTimer: unknown = null;
    const lineTimeout = this.opts.lineTimeoutMs ?? 2000;
    const armStale = (): void => {
      this.clock.clearTimeout(staleTimer);
      staleTimer = splitter.partial
        ? this.clock.setTimeout(() => {
            const held = splitter.discard();
            this.events.emit({ type: 'warning', text: 'partial line timed out and was discarded' });
            lines.push({ damaged: held });
          }, lineTimeout)
        : null;
    };
    const off = port.onData((bytes) => {
      const got = splitter.pushItems(bytes);
      armStale();
      for (const line of got) {
        // The vendor's stream has no frames: each line is one, shown as text (built only for a listener).
        if (this.tracing && typeof line === 'string') this.frame({ dir: 'rx', hex: hex(asciiBytes(line)), meaning: `line "${line}"` });
        lines.push(line);
      }
    });
    this.link.markUp();
    this.events.emit({ type: 'connected', protocol: 'ascii' });
    try {
      await new Promise<void>((resolve) => {
        const end = (): void => {
          ended.abort();
          resolve();
        };
        port.onClose(end);
        signal.addEventListener('abort', end, { once: true });
      });
      await lines.drained();
    } finally {
      off();
      this.clock.clearTimeout(staleTimer);
    }
    if (!signal.aborted) throw new Error('shoe stream closed');
  }

  /**
   * Lines the queue dropped (the stream outran the journal): any of them may have been a card the
   * dealer drew, so they stand as one unreadable read, in their place in the stream, and the table
   * holds for a person.
   */
  private async onDropped(n: number): Promise<void> {
    this.events.emit({ type: 'warning', text: `${n} lines dropped: the stream came faster than the journal` });
    const sequence = this.seq + 1;
    this.seq = sequence;
    this.index++;
    await this.deliverRead({ type: 'unreadable', sequence, index: this.index, reason: `${n} lines dropped unread`, burn: false });
  }

  /**
   * A line damaged on the wire (over-long, a control or 8-bit byte in it, cut short and glued to the
   * next or never ended): no CRC and no resend, it is gone, and it may have been a card the dealer
   * drew. It stands as an unreadable read in its place, so the table holds rather than let the next
   * card take its place in the deal (as the lines a flood drops, `onDropped`).
   */
  private async onDamaged(text: string): Promise<void> {
    const shown = JSON.stringify(text.slice(0, 60));
    this.events.emit({ type: 'warning', text: `damaged line ${shown}: read as an unreadable card` });
    const sequence = this.seq + 1;
    this.seq = sequence;
    this.index++;
    await this.deliverRead({ type: 'unreadable', sequence, index: this.index, reason: `damaged line ${shown}`, burn: false, raw: text.slice(0, MAX_LINE) });
  }

  private async onLine(line: string): Promise<void> {
    const glued = gluedBefore(line);
    if (glued !== null) await this.onDamaged(glued);
    const p = parseAsciiLine(line);
    if (!p) {
      this.events.emit({ type: 'warning', text: `unrecognised line: ${JSON.stringify(line.slice(0, 60))}` });
      return;
    }
    const sequence = this.seq + 1;
    let e: SequencedShoeEvent;
    switch (p.kind) {
      case 'card':
        e = {
          type: 'card',
          sequence,
          card: p.card,
          ...partsOf(p.card),
          index: this.index + 1,
          quality: 100,
          burn: p.burn,
          wrongDeck: false,
          raw: p.raw,
        };
        break;
      case 'unreadable':
        e = { type: 'unreadable', sequence, index: this.index + 1, reason: 'not read', burn: p.burn, raw: p.raw };
        break;
      case 'alarm':
        e = { type: 'alarm', sequence, code: p.code, severity: p.severity, text: p.text };
        break;
      case 'lid':
        e = { type: 'lid', sequence, open: p.open };
        break;
      case 'cutCard':
        e = { type: 'cutCard', sequence, index: this.index };
        break;
      case 'loaded':
        e = { type: 'shoeLoaded', sequence, sessionId: 0, decks: p.decks, cards: p.decks * 52, setId: '' };
        break;
      case 'empty':
        e = { type: 'shoeEmpty', sequence, index: this.index };
        break;
      case 'burnMode':
        e = { type: 'burnMode', sequence, on: p.on };
        break;
    }
    this.seq = sequence;
    if (e.type === 'card' || e.type === 'unreadable') this.index++;
    if (e.type === 'shoeLoaded') this.index = 0;
    // A read is offered again until journalled (`deliverRead`); any other event whose entry is refused is reported and counts as seen.
    await (e.type === 'card' || e.type === 'unreadable' ? this.deliverRead(e) : this.deliver(e));
  }

  /**
   * A card read (or one that stands for a card) until the host journalled it. The framed shoe sends
   * an event again until its ACK; a stream says each line once, so the adapter offers the same read
   * again (its sequence and index), backing off to 2 s, until it is taken or the stream ends: a card
   * that left the shoe is never in no record while the table goes on (the host refuses a read it
   * cannot journal on hold: host/table/runtime.ts). The lines behind it wait in the queue.
   */
  private async deliverRead(e: SequencedShoeEvent): Promise<void> {
    const ended = this.ended;
    for (let attempt = 0; !(await this.deliver(e)); attempt++) {
      if (!ended || ended.aborted) return;
      await sleep(this.clock, Math.min(2000, 100 * 2 ** Math.min(attempt, 5)), ended);
    }
  }
}
