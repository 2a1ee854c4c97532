import type { Server } from 'node:http';
import { isIPv4 } from 'node:net';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';

/** What one listener admits, and how long a connection has to earn its keep. */
export interface ConnectionLimits {
  /** A connection that has neither said its hello nor has a request in flight is closed after this long (ms). */
  readonly helloMs: number;
  /** Connections open at once from one client address. */
  readonly perAddress: number;
  /** Connections open at once in all. */
  readonly total: number;
}

/** Why the guard closed a connection. */
export type GuardClose =
  /** Over a cap with every other connection in use: refused as it arrived. */
  | 'refused'
  /** The oldest idle connection, closed to make room under a cap for a newer one. */
  | 'evicted'
  /** No hello (and no request in flight) within `helloMs`. */
  | 'no-hello'
  /** An HTTP connection kept alive after its answers, idle for `helloMs` (a browser's, normally). */
  | 'idle';

export const GUARD_CLOSES: readonly GuardClose[] = ['refused', 'evicted', 'no-hello', 'idle'];

interface Ticket {
  readonly socket: Socket;
  readonly address: string;
  readonly key: string;
  /** Set once the connection is a WebSocket: whether its session has said a hello the host accepted. */
  earned: (() => boolean) | null;
  /** HTTP requests in flight on it. */
  busy: number;
  /** HTTP requests answered on it. */
  served: number;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * Every connection to a listener must earn its keep. A TCP connection is counted from the moment
 * it is accepted (before TLS, before any byte), against a cap per client address and a cap in
 * all, and it has `helloMs` to become useful: a WebSocket whose session said a hello the host
 * accepted (a launch token, a station's credential) is kept; an HTTP connection is kept while a
 * request is in flight and gets `helloMs` again after each answer (then closed as `idle`);
 * anything else is closed (`no-hello`).
 *
 * At a cap, the newcomer is not simply refused, or an attacker holding every slot with idle
 * sockets would lock out a real screen for as long as they are held: the oldest connection that
 * has earned nothing and has nothing in flight is closed to make room, one that never sent a byte
 * first. Only when every connection under the cap is in use is the newcomer refused. On the
 * loopback listener every client is 127.0.0.1, so its per-address cap is its total.
 */
export class ConnectionGuard {
  private readonly tickets = new Map<string, Ticket>();
  private readonly bySocket = new WeakMap<Socket, Ticket>();
  private readonly byAddress = new Map<string, Set<Ticket>>();
  private readonly counts: Record<GuardClose, number> = { refused: 0, evicted: 0, 'no-hello': 0, idle: 0 };
  /** Closes since the last log line (one line a second at most, whatever the flood). */
  private unlogged: Partial<Record<GuardClose, number>> = {};
  private logTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly o: { listener: 'local' | 'lan' | 'edge' | 'station-screen'; log: Logger; onClose?: (reason: GuardClose) => void },
  ) {}

  /** Guards every connection `server` accepts (for an HTTPS server: the TCP connection, before TLS). */
  attach(server: Server): void {
    // An idle kept-alive HTTP connection is the server's to close, and first: after half the
    // guard's deadline, said to the client in its answers' Keep-Alive header, so that no client
    // reuses a connection at the moment the guard closes it (a lost request, ECONNRESET). Fastify's
    // own default is 72 s, and Node's 5 s was the guard's deadline exactly. Node closes the socket
    // `keepAliveTimeoutBuffer` later than it says (1 s by default): a quarter of the deadline here,
    // so that the server's close comes before the guard's at any `helloSeconds` (1 s: at 750 ms).
    server.keepAliveTimeout = Math.floor(this.limits.helloMs / 2);
    server.keepAliveTimeoutBuffer = Math.floor(this.limits.helloMs / 4);
    server.on('connection', (socket: Socket) => this.admit(socket));
    server.on('request', (req: { socket: Socket }, res: { once(event: 'close', l: () => void): unknown }) => {
      const t = this.ticketOf(req.socket);
      if (!t) return;
      t.busy++;
      this.disarm(t);
      res.once('close', () => {
        t.busy--;
        t.served++;
        if (t.busy === 0 && !this.proven(t) && this.tickets.has(t.key)) this.arm(t);
      });
    });
  }

  /**
   * The connection under `socket` is a WebSocket now: it is kept once `greeted()` (its session
   * said a hello the host accepted), else closed at its deadline, `helloMs` from now. The time
   * until the upgrade (the TLS handshake, the upgrade request, the host's own backlog under load)
   * was not the client's to say its hello in: a client can answer the host's 101 only once it
   * has it. Counted from the accept, a busy host closed stations it had just upgraded (issue 30:
   * 4.7 s of a 5 s deadline gone before the 101 was written). A connection is held at most twice
   * `helloMs` so, and may be evicted for a newcomer all the while.
   */
  watch(socket: Socket, greeted: () => boolean): void {
    const t = this.ticketOf(socket);
    if (!t) return;
    t.earned = greeted;
    if (t.busy === 0 && !this.proven(t)) this.arm(t);
  }

  /** The client address of a connection, as the caps count it (an IPv4-mapped IPv6 address as IPv4). */
  static address(socket: Socket): string | null {
    const a = socket.remoteAddress;
    if (!a) return null;
    const mapped = a.startsWith('::ffff:') ? a.slice(7) : a;
    return isIPv4(mapped) ? mapped : a;
  }

  /** Open connections and the closes so far, by reason (metrics, tests). */
  stats(): { open: number; closed: Record<GuardClose, number> } {
    return { open: this.tickets.size, closed: { ...this.counts } };
  }

  close(): void {
    if (this.logTimer) clearTimeout(this.logTimer);
    for (const t of this.tickets.values()) this.disarm(t);
  }

  private admit(socket: Socket): void {
    const address = ConnectionGuard.address(socket);
    if (address === null) return void socket.destroy();
    const same = this.byAddress.get(address);
    if ((same?.size ?? 0) >= this.limits.perAddress && !this.evictFrom(same?.values() ?? [].values())) return this.closeSocket(socket, 'refused');
    if (this.tickets.size >= this.limits.total && !this.evictFrom(this.tickets.values())) return this.closeSocket(socket, 'refused');
    const t: Ticket = { socket, address, key: keyOf(socket), earned: null, busy: 0, served: 0, timer: null };
    this.tickets.set(t.key, t);
    this.bySocket.set(socket, t);
    let set = this.byAddress.get(address);
    if (!set) this.byAddress.set(address, (set = new Set()));
    set.add(t);
    socket.once('close', () => this.forget(t));
    this.arm(t);
  }

  /** Closes the oldest connection of `from` that earned nothing and has nothing in flight, a silent one first; whether one was. */
  private evictFrom(from: Iterable<Ticket>): boolean {
    let idle: Ticket | null = null;
    for (const t of from) {
      if (t.busy > 0 || this.proven(t)) continue;
      if (t.socket.bytesRead === 0) {
        idle = t;
        break;
      }
      idle ??= t;
    }
    if (!idle) return false;
    this.forget(idle);
    this.closeSocket(idle.socket, 'evicted');
    return true;
  }

  private proven(t: Ticket): boolean {
    return t.earned !== null && t.earned();
  }

  private arm(t: Ticket): void {
    this.disarm(t);
    t.timer = setTimeout(() => {
      t.timer = null;
      // Decided after this turn's input is read: a hello that arrived while the host was busy
      // past the deadline is in the socket already, and timers run before input in a turn.
      setImmediate(() => {
        if (t.busy > 0 || this.proven(t) || !this.tickets.has(t.key) || t.timer !== null) return;
        this.forget(t);
        this.closeSocket(t.socket, t.served > 0 ? 'idle' : 'no-hello');
      });
    }, this.limits.helloMs);
    t.timer.unref();
  }

  private disarm(t: Ticket): void {
    if (t.timer !== null) clearTimeout(t.timer);
    t.timer = null;
  }

  /** Counted no more (before its socket's own close event, so a cap has room at once). */
  private forget(t: Ticket): void {
    if (this.tickets.get(t.key) !== t) return;
    this.disarm(t);
    this.tickets.delete(t.key);
    const set = this.byAddress.get(t.address);
    set?.delete(t);
    if (set?.size === 0) this.byAddress.delete(t.address);
  }

  private ticketOf(socket: Socket): Ticket | undefined {
    // An HTTPS request's socket is the TLS socket over the TCP one the guard admitted: same four-tuple.
    return this.bySocket.get(socket) ?? this.tickets.get(keyOf(socket));
  }

  private closeSocket(socket: Socket, reason: GuardClose): void {
    socket.destroy();
    this.counts[reason]++;
    this.o.onClose?.(reason);
    this.unlogged[reason] = (this.unlogged[reason] ?? 0) + 1;
    this.logTimer ??= setTimeout(() => {
      this.logTimer = null;
      const closed = this.unlogged;
      this.unlogged = {};
      // A browser's kept-alive and preconnected sockets end so every day: only a cap reached is a warning.
      const line = { listener: this.o.listener, closed, open: this.tickets.size };
      if (closed.refused || closed.evicted) this.o.log.warn(line, 'connections closed by the guard');
      else this.o.log.info(line, 'connections closed by the guard');
    }, 1000).unref();
  }
}

/** A TCP connection's four-tuple: the same for its TLS socket. */
function keyOf(s: Socket): string {
  return `${s.remoteAddress}|${s.remotePort}|${s.localAddress}|${s.localPort}`;
}

/** The log of one client (its address): its lines count against its own budget (host/logging/client-budget.ts). */
export function clientLog(log: Logger, socket: Socket): Logger {
  return log.child({ client: ConnectionGuard.address(socket) ?? 'unknown' });
}
