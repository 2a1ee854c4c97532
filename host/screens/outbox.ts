/**
 * A message encoded once and sent to every screen that shows it: its text, and its UTF-8 bytes
 * made once on first use (a WebSocket sends bytes; encoding the same text per socket is the cost
 * a stadium must not pay). One made from bytes (an edge's, as NATS brought them) keeps them and
 * decodes its text only if asked.
 */
export class SharedMessage {
  private utf8: Uint8Array | null = null;
  private str: string | null;
  constructor(text: string) {
    this.str = text;
  }

  /** A message of these UTF-8 bytes, kept as they are (the caller does not change them after). */
  static ofBytes(bytes: Uint8Array): SharedMessage {
    const m = new SharedMessage('');
    m.str = null;
    m.utf8 = bytes;
    return m;
  }

  get text(): string {
    this.str ??= new TextDecoder().decode(this.utf8 ?? new Uint8Array(0));
    return this.str;
  }

  get bytes(): Uint8Array {
    this.utf8 ??= new TextEncoder().encode(this.str ?? '');
    return this.utf8;
  }

  get size(): number {
    return this.bytes.byteLength;
  }
}

/**
 * A new version of a view or a public part, as the hub hands it to every screen showing it: the
 * patch from the version before (encoded once, the same bytes for every screen; null when there
 * is none or it would be bigger than the whole), and the whole part (encoded once when first
 * asked for). Each screen's outbox picks one by what that screen was last sent.
 */
export interface Update {
  readonly version: number;
  readonly patch: SharedMessage | null;
  whole(): SharedMessage;
}

/** An update with no patch: a whole message (the table display's and service mode's views). */
export function wholeUpdate(version: number, message: SharedMessage): Update {
  return { version, patch: null, whole: () => message };
}

/** What an outbox writes to: `written` is called once the transport has handed the message on (WebSocket: to the socket). */
export interface CallbackTransport {
  write(message: SharedMessage, written: () => void): void;
}

/**
 * A transport that says how many bytes it holds not yet written out, instead of calling back
 * per message (an edge's socket: `bufferedAmount`). Its owner calls the outbox's `drained()`
 * when it has written them out (the socket's `drain`), so it must emit that whenever the outbox
 * stopped at its high water: a stream whose own high-water mark is at most the outbox's does.
 */
export interface BufferedTransport {
  send(message: SharedMessage): void;
  buffered(): number;
}

export type OutboxTransport = CallbackTransport | BufferedTransport;

export interface OutboxLimits {
  /** Bytes handed to the transport and not yet written out, above which nothing more is handed over. */
  readonly highWater: number;
  /** Replies (acks, errors) waiting at most; more is a screen that sends and never reads. */
  readonly maxReplies: number;
}

export const OUTBOX_LIMITS: OutboxLimits = { highWater: 64 * 1024, maxReplies: 64 };

/** What the outbox counts (the stadium bench prints them). */
export interface OutboxCounters {
  sent: number;
  bytes: number;
  /** Snapshots replaced by a newer one before they were sent (latest wins). */
  superseded: number;
  /** Messages and bytes by what they carried: `own`, `round` or `panel`, whole or as a patch, and `reply`. */
  kinds: Record<string, { messages: number; bytes: number }>;
}

/** A slot's kind as the counters name it: a station's own part, or the public part it names. */
function kindOf(slot: string): string {
  return slot.startsWith('public:') ? slot.slice('public:'.length) : 'own';
}

/**
 * One connection's send buffer, bounded. Updates go in slots, one per view or shared part:
 * a newer one replaces the one still waiting, so a slow or stalled screen gets the latest state
 * when it catches up, never a queue of old ones, and never holds anyone else up. Each slot
 * remembers the version it last wrote: an update whose patch follows it goes as the patch, any
 * other (the first, one after a replaced one, one after `forget`) goes whole. Replies keep their
 * order in the same queue (a slot waits where it was first queued). Past `highWater` bytes in
 * flight nothing more is handed to the transport until it has written some out.
 */
export class Outbox {
  private inFlight = 0;
  /** In order: a reply's text, or the name of a slot whose latest message goes out then. */
  private readonly queue: ({ reply: SharedMessage } | { slot: string })[] = [];
  private readonly slots = new Map<string, Update>();
  /** Per slot, the version last written to the transport: a patch to the next one may go as a patch. */
  private readonly written = new Map<string, number>();
  private replies = 0;
  private closed = false;
  readonly counters: OutboxCounters = { sent: 0, bytes: 0, superseded: 0, kinds: {} };

  constructor(
    private readonly transport: OutboxTransport,
    private readonly limits: OutboxLimits = OUTBOX_LIMITS,
    /** Too many replies waiting: the connection is to be closed (it reconnects and resynchronises). */
    private readonly overflow: () => void = () => undefined,
  ) {}

  /** An update for `slot`: replaces one still waiting there. */
  latest(slot: string, update: Update): void {
    if (this.closed) return;
    // Nothing waiting and room in flight (a stadium's every station at every card): straight to
    // the transport, without a slot or a queue entry on the way.
    if (this.queue.length === 0 && this.inTransit() < this.limits.highWater) return this.send(slot, update);
    if (this.slots.has(slot)) this.counters.superseded++;
    else this.queue.push({ slot });
    this.slots.set(slot, update);
    this.flush();
  }

  /** The screen lost track of `slot` (it asked for the part whole): its next update goes whole. */
  forget(slot: string): void {
    this.written.delete(slot);
  }

  /** A reply (ack, error, welcome): sent in order, never dropped; too many waiting closes the connection. */
  reply(message: SharedMessage): void {
    if (this.closed) return;
    if (this.replies >= this.limits.maxReplies) {
      this.close();
      this.overflow();
      return;
    }
    this.replies++;
    this.queue.push({ reply: message });
    this.flush();
  }

  /** Bytes waiting here (not yet handed to the transport). */
  waiting(): number {
    let n = 0;
    for (const e of this.queue) {
      if ('reply' in e) n += e.reply.size;
      else {
        const u = this.slots.get(e.slot);
        if (u) n += (this.written.get(e.slot) === u.version - 1 && u.patch ? u.patch : u.whole()).size;
      }
    }
    return n;
  }

  /** Bytes handed to the transport and not yet written out. */
  inTransit(): number {
    return 'buffered' in this.transport ? this.transport.buffered() : this.inFlight;
  }

  /** A buffered transport wrote out what it held: what waits here goes now, as room allows. */
  drained(): void {
    this.flush();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.slots.clear();
    this.written.clear();
  }

  private flush(): void {
    while (!this.closed && this.queue.length > 0 && this.inTransit() < this.limits.highWater) {
      const next = this.queue.shift();
      if (!next) return;
      if ('reply' in next) {
        this.replies--;
        this.write(next.reply, 'reply');
      } else {
        const u = this.slots.get(next.slot);
        this.slots.delete(next.slot);
        if (u) this.send(next.slot, u);
      }
    }
  }

  /** The patch when the screen holds the version it follows, else the whole part. */
  private send(slot: string, u: Update): void {
    const patch = u.patch !== null && this.written.get(slot) === u.version - 1;
    const m = patch && u.patch ? u.patch : u.whole();
    this.written.set(slot, u.version);
    this.write(m, `${kindOf(slot)} ${patch ? 'patch' : 'whole'}`);
  }

  private write(m: SharedMessage, kind: string): void {
    const size = m.size;
    this.counters.sent++;
    this.counters.bytes += size;
    const k = (this.counters.kinds[kind] ??= { messages: 0, bytes: 0 });
    k.messages++;
    k.bytes += size;
    const t = this.transport;
    if ('buffered' in t) return t.send(m);
    let done = false;
    this.inFlight += size;
    t.write(m, () => {
      if (done) return;
      done = true;
      this.inFlight -= size;
      this.flush();
    });
  }
}
