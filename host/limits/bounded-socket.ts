import type { Logger } from 'pino';
import type WebSocket from 'ws';

/** A link's send buffer cap and ping interval: the two ways a peer that stopped reading is found out. */
export interface LinkTiming {
  /** The bytes held unsent for the peer before the link is cut. */
  maxBufferedBytes: number;
  /** The peer is pinged this often, and cut when it has not answered the last ping by the next one. */
  pingMs: number;
}

/**
 * A station's device link, at the host's end and the agent's: each reads what the other says at
 * once, and 1 MiB is minutes of a real SAS line's or an acceptor's traffic. Before the caps, a
 * station that stopped reading while it kept polling grew the host by ~530 MB in 10 s, and a host
 * that stopped reading grew the agent by every chunk the casino system's polls brought.
 */
export const DEVICE_LINK_TIMING: LinkTiming = { maxBufferedBytes: 1024 * 1024, pingMs: 15_000 };

/**
 * A remote station's screen link is pinged as its device link is, at the host's LAN listener and
 * at an edge: a station's machine switched off or unplugged says nothing, and its connection stayed
 * open until TCP gave up (many minutes; never, on a link with nothing to send), its slot under the
 * listener's caps taken and its screen shown connected in service mode all that while.
 */
export const SCREEN_PING_MS = DEVICE_LINK_TIMING.pingMs;

/** How a link is named in its log lines ("station device link", "device link to the table"). */
export interface BoundedLink {
  name: string;
  log: Logger;
}

/**
 * Sends `text` and cuts the link when more than `max` bytes are then held unsent for it: the peer
 * keeps the connection open and stops reading (hostile or wedged), and whatever is said to it
 * would otherwise pile up here without bound. Whether the link is still open after the send (a
 * link cut drops what it held; its owner deals with that as with any other loss).
 */
export function sendBounded(socket: WebSocket, text: string, max: number, link: BoundedLink, written?: () => void): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  if (written) socket.send(text, () => written());
  else socket.send(text);
  const buffered = socket.bufferedAmount;
  if (buffered <= max) return true;
  link.log.warn({ buffered, max }, `${link.name} not reading, its send buffer over the cap: terminated`);
  socket.terminate();
  return false;
}

/** Pings a link every `ms`: one that has not answered the last ping by the next is cut (it reads nothing, whatever it sends). */
export function keepAlive(socket: WebSocket, ms: number, link: BoundedLink): void {
  let answered = true;
  socket.on('pong', () => (answered = true));
  const timer = setInterval(() => {
    if (!answered) {
      link.log.warn({ pingMs: ms }, `${link.name} answered no ping: terminated`);
      clearInterval(timer);
      return socket.terminate();
    }
    answered = false;
    socket.ping();
  }, ms);
  timer.unref();
  socket.on('close', () => clearInterval(timer));
}

/**
 * Closes a link its listener is done with and cuts it, so that its slot under the listener's caps
 * (connection-guard.ts) is free at once, not after the 30 s ws waits for a peer's answer to the
 * close frame (one that never reads, hostile or gone, never answers): cut at once, or when
 * `graceMs` pass without the peer's answer (a well-behaved peer answers at once and the link
 * closes cleanly before).
 */
export function closeAndCut(socket: WebSocket, code: number, reason: string, graceMs = 0): void {
  socket.close(code, reason);
  if (graceMs <= 0) return socket.terminate();
  const timer = setTimeout(() => socket.terminate(), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
