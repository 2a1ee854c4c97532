// A card shoe on the wire that a test scripts frame by frame: the real FramedShoe driver on one side,
// whatever the test sends on the other (valid CRCs, lies in the content). The shoe answers GET_STATUS
// with a HELLO saying its last sequence is `last` and nothing is unacknowledged, and OK to every
// command, as an honest shoe would; everything else is the test's.
import { BasePort } from '../../hardware/transport/byte-port.js';
import { FramedShoe } from '../../hardware/shoe/framed-driver.js';
import { MSG, encodeShoeFrame, u16 } from '../../hardware/shoe/framed.js';
import type { SequencedShoeEvent, ShoeEvent, ShoeOptions } from '../../hardware/shoe/types.js';

export class ScriptedShoePort extends BasePort {
  readonly description = 'scripted shoe';
  readonly written: Uint8Array[] = [];
  onWrite: ((b: Uint8Array) => void) | null = null;
  async write(b: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('closed');
    this.written.push(Uint8Array.from(b));
    this.onWrite?.(b);
  }
  send(b: Uint8Array): void {
    this.deliver(b);
  }
  protected async shutdown(): Promise<void> {}
}

/** Answers GET_STATUS with a HELLO at `last`, and OK to LOCK, UNLOCK, SET_MODE and REPLAY_FROM. */
export function honestReplies(port: ScriptedShoePort, last: () => number, oldest = 0): void {
  port.onWrite = (b) => {
    const type = b[4] ?? 0;
    if (type === MSG.GET_STATUS) queueMicrotask(() => port.send(encodeShoeFrame(0, MSG.HELLO, [1, 0, 0, 0, ...u16(last()), ...u16(oldest)])));
    if (type >= MSG.SET_MODE && type <= MSG.REPLAY_FROM) queueMicrotask(() => port.send(encodeShoeFrame(0, MSG.CMD_RESULT, [b[2] ?? 0, b[3] ?? 0, 0])));
  };
}

/** CARD_DRAWN at `seq`: index, wire rank (1 = A … 13 = K) and suit (0 S, 1 H, 2 D, 3 C), quality 90. */
export const cardFrame = (seq: number, index: number, rank: number, suit: number): Uint8Array =>
  encodeShoeFrame(seq, MSG.CARD_DRAWN, [...u16(index), rank, suit, 90, 0]);

export const typeOf = (b: Uint8Array): number => b[4] ?? 0;
export const ackOf = (b: Uint8Array): number => (b[6] ?? 0) | ((b[7] ?? 0) << 8);

/** Polls `pred` until it holds, or fails after `ms`. */
export async function until(pred: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** The real driver on a scripted shoe whose counter stood at `last` (or says so when asked; its oldest unacknowledged event `oldest`, 0 none); journal, events, ACKs. */
export function scriptedShoe(last: number | (() => number) = 10, options: Partial<ShoeOptions> = {}, oldest = 0) {
  const port = new ScriptedShoePort();
  const events: ShoeEvent[] = [];
  const journal: SequencedShoeEvent[] = [];
  honestReplies(port, typeof last === 'number' ? () => last : last, oldest);
  const shoe = new FramedShoe(async () => port, {
    onEvent: (e) => void journal.push(e),
    heartbeatMs: 60_000,
    replyTimeoutMs: 50,
    reconnectBaseMs: 10_000,
    ...options,
  });
  shoe.on((e) => events.push(e));
  const acks = (): number[] => port.written.filter((b) => typeOf(b) === MSG.ACK).map(ackOf);
  const statusAsks = (): number => port.written.filter((b) => typeOf(b) === MSG.GET_STATUS).length;
  shoe.start();
  return { port, shoe, events, journal, acks, statusAsks, connected: () => until(() => events.some((e) => e.type === 'connected'), 'connected') };
}
