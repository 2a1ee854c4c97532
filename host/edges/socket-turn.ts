import type { SharedMessage } from '../screens/outbox.js';

/** The stream under a station's WebSocket, as the batch uses it (a `net`/`tls` socket). */
export interface CorkableStream {
  cork(): void;
  uncork(): void;
  write(chunk: Uint8Array): boolean;
}

/**
 * Writes of one event-loop turn, held corked per stream and let go at its end (issue 55: an
 * edge's CPU went to a TLS record, a `writev` and a write callback per message per station).
 * Everything a stream is handed in the turn (a public part, the station's own part, a reply)
 * leaves as one write, one TLS record, at the turn's end (`setImmediate`, after the turn's I/O:
 * the NATS messages that came together). Nothing is reordered, dropped or merged: the messages
 * keep their frames and their order; a stream closed meanwhile takes its own with it, and
 * every other stream's go as they would have.
 */
export class TurnBatch {
  private readonly corked = new Set<CorkableStream>();
  private scheduled = false;
  /** Turns that let something go, and the streams let go over them (the tests count writes by them). */
  readonly counters = { turns: 0, uncorked: 0 };

  constructor(private readonly later: (run: () => void) => void = (run) => void setImmediate(run)) {}

  /** `chunk` to `stream`, held until the end of this turn. */
  write(stream: CorkableStream, chunk: Uint8Array): void {
    this.hold(stream);
    stream.write(chunk);
  }

  /** Corks `stream` until the end of this turn (what else writes to it meanwhile waits too). */
  hold(stream: CorkableStream): void {
    if (this.corked.has(stream)) return;
    stream.cork();
    this.corked.add(stream);
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => this.flush());
  }

  /** Lets every held stream go (the end of the turn; tests call it themselves). */
  flush(): void {
    this.scheduled = false;
    if (this.corked.size === 0) return;
    const streams = [...this.corked];
    this.corked.clear();
    this.counters.turns++;
    for (const s of streams) {
      this.counters.uncorked++;
      try {
        s.uncork();
      } catch {
        // A stream that fails to let go is its own connection's loss (its `error`/`close` follow), never the others'.
      }
    }
  }
}

const frames = new WeakMap<SharedMessage, Buffer>();

/**
 * A text message as a WebSocket frame from a server (RFC 6455 §5.2: FIN, opcode 1, unmasked, no
 * extension), made once per message and the same bytes for every connection that is sent it.
 * Only for a connection that negotiated no extension (the edge's `ws` server offers none).
 */
export function textFrame(m: SharedMessage): Buffer {
  let f = frames.get(m);
  if (f) return f;
  const body = m.bytes;
  const n = body.byteLength;
  const head = n < 126 ? 2 : n < 65536 ? 4 : 10;
  f = Buffer.allocUnsafe(head + n);
  f[0] = 0x81;
  if (n < 126) f[1] = n;
  else if (n < 65536) {
    f[1] = 126;
    f.writeUInt16BE(n, 2);
  } else {
    f[1] = 127;
    f.writeBigUInt64BE(BigInt(n), 2);
  }
  f.set(body, head);
  frames.set(m, f);
  return f;
}
