import { chmodSync, existsSync, lstatSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import type { Witness } from './witness.js';
import { MAX_LINE_BYTES, type Answer } from './wire.js';

export interface Listening {
  /** The socket's path, or `fd:N` for one systemd handed over. */
  address: string;
  close(): Promise<void>;
}

export type Listen =
  /** A socket the witness makes itself (tests, a cabinet without socket activation), with this mode. */
  | { socket: string; mode?: number }
  /** A listening socket systemd made and passed (etg-witness.socket: its owner, group and mode set there). */
  | { fd: number };

/** At most this many connections at once: the host, a verify, a few more; a flood waits in the backlog. */
const MAX_CONNECTIONS = 16;

/**
 * The witness on a Unix socket: one JSON request per line, each answered in order on its own
 * connection by `witness.handle` (synchronous: a signed head is on disk before its answer is
 * written). A line longer than the protocol allows, or that is not JSON, is refused and the
 * connection closed; nothing a client sends can make the witness throw.
 */
export async function listenWitness(witness: Witness, where: Listen): Promise<Listening> {
  // Connections are long-lived (the host keeps one open): close() ends them so it returns.
  const open = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: false }, (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    serveConnection(witness, socket);
  });
  const close = () => closeServer(server, open);
  server.maxConnections = MAX_CONNECTIONS;
  if ('fd' in where) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ fd: where.fd }, () => resolve());
    });
    return { address: `fd:${where.fd}`, close };
  }
  // A socket file left by a witness that died is in the way; anything else at that path is not ours to remove.
  if (existsSync(where.socket)) {
    if (!lstatSync(where.socket).isSocket()) throw new Error(`${where.socket} exists and is not a socket`);
    unlinkSync(where.socket);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.socket, () => resolve());
  });
  chmodSync(where.socket, where.mode ?? 0o660);
  return { address: where.socket, close };
}

function closeServer(server: net.Server, open: Set<net.Socket>): Promise<void> {
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

function serveConnection(witness: Witness, socket: net.Socket): void {
  const reader = new LineReader();
  socket.setEncoding('utf8');
  const answer = (a: Answer) => socket.write(`${JSON.stringify(a)}\n`);
  socket.on('data', (chunk: string) => {
    const { lines, overflow } = reader.push(chunk);
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
    }
  });
  socket.on('error', () => socket.destroy());
}

/** The listening socket systemd passed (LISTEN_FDS, LISTEN_PID: sd_listen_fds(3)), if any. */
export function systemdSocket(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | null {
  if (env.LISTEN_PID !== String(pid) || env.LISTEN_FDS !== '1') return null;
  return 3;
}
