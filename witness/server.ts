import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import type { Witness } from './witness.js';
import { MAX_LINE_BYTES, type Answer } from './wire.js';

export interface Listening {
  /** The socket's path, or `fd:N` for one systemd handed over. */
  address: string;
  /** The connections open, and the answers written to them that their clients have not taken yet. */
  stats(): { connections: number; bufferedBytes: number };
  close(): Promise<void>;
}

/** How long a connection may keep the witness waiting, and how much it may hold. */
export interface ConnectionLimits {
  /** At most this many connections: a new one past it ends the one idle longest. Default 64. */
  maxConnections?: number;
  /** A connection that sends no complete line for this long is ended (the host's client closes its own sooner, and reconnects at its next request). Default 10 min. */
  idleMs?: number;
  /** A connection with part of a line pending this long (a client that stalls mid-request) is ended. Default 30 s. */
  partialLineMs?: number;
  /** Answers buffered past `maxBufferedBytes`: reading stops until the client takes them; not taken within this, the connection is ended. Default 30 s. */
  stalledMs?: number;
  /** Default 1 MiB. */
  maxBufferedBytes?: number;
  /** How often the limits are checked. Default 1 s. */
  sweepMs?: number;
}

export type Listen =
  /** A socket the witness makes itself (tests, a cabinet without socket activation), with this mode. */
  | { socket: string; mode?: number }
  /** A listening socket systemd made and passed (etg-witness.socket: its owner, group and mode set there). */
  | { fd: number };

/** One connection, as the sweep sees it. */
interface Conn {
  socket: net.Socket;
  /** When it last sent a complete line (or connected). */
  lastLine: number;
  /** Since when part of a line has been pending, or null. */
  partialSince: number | null;
  /** Since when reading has been paused for answers it does not take, or null. */
  stalledSince: number | null;
}

/**
 * The witness on a Unix socket: one JSON request per line, each answered in order on its own
 * connection by `witness.handle` (synchronous: a signed head is on disk before its answer is
 * written). A line longer than the protocol allows, or that is not JSON, is refused and the
 * connection closed; nothing a client sends can make the witness throw.
 */
export async function listenWitness(witness: Witness, where: Listen, limits: ConnectionLimits = {}): Promise<Listening> {
  // Connections are long-lived (the host keeps one open): close() ends them so it returns.
  const open = new Map<net.Socket, Conn>();
  const max = limits.maxConnections ?? 64;
  const server = net.createServer({ allowHalfOpen: false }, (socket) => {
    // Full: the connection idle longest makes room (a flood of idle connections never locks the host out).
    // Taken out of the map at once: connections accepted before its 'close' event must not pick it again.
    if (open.size >= max) {
      const idlest = [...open.values()].sort((a, b) => a.lastLine - b.lastLine)[0];
      if (idlest) {
        open.delete(idlest.socket);
        idlest.socket.destroy();
      }
    }
    const conn: Conn = { socket, lastLine: performance.now(), partialSince: null, stalledSince: null };
    open.set(socket, conn);
    socket.on('close', () => open.delete(socket));
    serveConnection(witness, conn, limits.maxBufferedBytes ?? 1024 * 1024);
  });
  const sweep = setInterval(() => sweepConnections(open, limits), limits.sweepMs ?? 1_000);
  sweep.unref();
  const close = () => {
    clearInterval(sweep);
    return closeServer(server, open.keys());
  };
  const stats = () => ({ connections: open.size, bufferedBytes: [...open.keys()].reduce((n, s) => n + s.writableLength, 0) });
  if ('fd' in where) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ fd: where.fd }, () => resolve());
    });
    return { address: `fd:${where.fd}`, stats, close };
  }
  // A socket file left by a witness that died is in the way; anything else at that path is not ours to remove.
  if (existsSync(where.socket)) {
    if (!lstatSync(where.socket).isSocket()) throw new Error(`${where.socket} exists and is not a socket`);
    unlinkSync(where.socket);
  }
  const mode = where.mode ?? 0o660;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Made with its mode: Node binds a path within listen(), here under a umask that leaves only
    // `mode`, given back at once. Before (a review of 7 December) it was made at the default mode
    // and chmod-ed once listening: for that moment anyone could connect, and keep the connection.
    const umask = process.umask(~mode & 0o777);
    try {
      server.listen(where.socket, () => resolve());
    } finally {
      process.umask(umask);
    }
  });
  // Also set afterwards: a umask only takes bits away (and a bind done later would miss it).
  chmodSync(where.socket, mode);
  return { address: where.socket, stats, close };
}

/**
 * Ends the connections past a limit: stalled mid-line, not taking their answers, or idle too long.
 * Measured on the monotonic clock: on the wall clock a step forward cut every client at once, and
 * a step back spared a stalled one for the step's length.
 */
function sweepConnections(open: Map<net.Socket, Conn>, limits: ConnectionLimits): void {
  const now = performance.now();
  for (const c of open.values()) {
    const partial = c.partialSince !== null && now - c.partialSince > (limits.partialLineMs ?? 30_000);
    const stalled = c.stalledSince !== null && now - c.stalledSince > (limits.stalledMs ?? 30_000);
    const idle = now - c.lastLine > (limits.idleMs ?? 600_000);
    if (partial || stalled || idle) c.socket.destroy();
  }
}

function closeServer(server: net.Server, open: Iterable<net.Socket>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    for (const s of open) s.destroy();
  });
}

/**
 * Splits what a connection sends into request lines: every whole line, then, when the text after
 * the last newline is longer than a request may be, `overflow` (the connection is refused and
 * ended: the witness holds at most one line's worth per connection).
 */
export class LineReader {
  private pending = '';

  /** Whether part of a line is pending (sent, its newline not yet). */
  get partial(): boolean {
    return this.pending !== '';
  }

  push(chunk: string): { lines: string[]; overflow: boolean } {
    this.pending += chunk;
    const lines: string[] = [];
    for (;;) {
      const nl = this.pending.indexOf('\n');
      if (nl < 0) break;
      lines.push(this.pending.slice(0, nl));
      this.pending = this.pending.slice(nl + 1);
    }
    const overflow = Buffer.byteLength(this.pending) > MAX_LINE_BYTES;
    if (overflow) this.pending = '';
    return { lines, overflow };
  }
}

/** One line to its answer: not JSON is refused (and the caller ends the connection); nothing here throws. */
export function answerLine(witness: Witness, line: string): { answer: Answer; end: boolean } {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { answer: { id: null, ok: false, error: 'bad-request', message: 'a request is one JSON object on one line', head: null }, end: true };
  }
  try {
    return { answer: witness.handle(request), end: false };
  } catch {
    // handle() answers every error itself; this is the last guard, so no request can end the process.
    return { answer: { id: null, ok: false, error: 'failed', message: 'the witness could not answer', head: null }, end: false };
  }
}

function serveConnection(witness: Witness, conn: Conn, maxBuffered: number): void {
  const { socket } = conn;
  const reader = new LineReader();
  socket.setEncoding('utf8');
  const answer = (a: Answer) => socket.write(`${JSON.stringify(a)}\n`);
  // A client that sends requests and does not read the answers: reading stops until it takes them
  // (the witness holds at most about maxBuffered and one chunk's answers per connection).
  socket.on('drain', () => {
    conn.stalledSince = null;
    socket.resume();
  });
  socket.on('data', (chunk: string) => {
    const { lines, overflow } = reader.push(chunk);
    const now = performance.now();
    if (lines.length > 0) conn.lastLine = now;
    conn.partialSince = reader.partial ? (conn.partialSince !== null && lines.length === 0 ? conn.partialSince : now) : null;
    for (const line of lines) {
      const a = answerLine(witness, line);
      answer(a.answer);
      if (a.end) {
        socket.end();
        return;
      }
    }
    if (overflow) {
      answer({ id: null, ok: false, error: 'bad-request', message: `a request is at most ${MAX_LINE_BYTES} bytes`, head: null });
      socket.end();
      return;
    }
    if (socket.writableLength > maxBuffered) {
      conn.stalledSince ??= now;
      socket.pause();
    }
  });
  socket.on('error', () => socket.destroy());
}

/** The listening socket systemd passed (LISTEN_FDS, LISTEN_PID: sd_listen_fds(3)), if any. */
export function systemdSocket(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | null {
  if (env.LISTEN_PID !== String(pid) || env.LISTEN_FDS !== '1') return null;
  return 3;
}
