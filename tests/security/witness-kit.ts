// Test-only: the ledger witness as its own process (`etg witness serve`), as a cabinet runs it, and
// a client that writes raw lines to its socket, as an attacker with access to the socket would.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface WitnessProcess {
  child: ChildProcess;
  socket: string;
  /** Everything it wrote on stderr so far (its log). */
  stderr(): string;
  /** Whether it is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

/** `etg witness serve --dir DIR --key-file KEY --socket SOCKET`, waited for (up to `waitMs`) until its socket is there. */
export async function spawnWitness(dir: string, key: string, socket: string, waitMs = 30_000): Promise<WitnessProcess> {
  const child = spawn(process.execPath, ['bin/etg.js', 'witness', 'serve', '--dir', dir, '--key-file', key, '--socket', socket], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: path.resolve(import.meta.dirname, '../..'),
  });
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  child.stdout?.resume();
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const until = Date.now() + waitMs;
  while (!existsSync(socket) || !(await answers(socket))) {
    if (exited) throw new Error(`the witness exited at start: ${err}`);
    if (Date.now() > until) {
      // Not left running behind a failed test (a timed-out start outlived its test by an hour).
      child.kill('SIGKILL');
      throw new Error(`the witness did not listen within ${waitMs / 1000} s: ${err}`);
    }
    await sleep(50);
  }
  return {
    child,
    socket,
    stderr: () => err,
    alive: () => !exited,
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      await gone;
    },
  };
}

async function answers(socket: string): Promise<boolean> {
  try {
    const a = await rawLines(socket, ['{"id":0,"op":"hello"}\n'], 2_000);
    return a.length === 1;
  } catch {
    return false;
  }
}

/**
 * Writes `lines` to the socket and returns every line answered, parsed, once as many answers as
 * lines came back, the witness closed the connection, or `waitMs` passed.
 */
export function rawLines(socket: string, lines: string[], waitMs = 5_000): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const s = net.createConnection(socket);
    let buf = '';
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(
        buf
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    };
    const timer = setTimeout(done, waitMs);
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      buf += d;
      if (buf.split('\n').filter(Boolean).length >= lines.length) done();
    });
    s.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    s.on('close', done);
    s.on('connect', () => {
      for (const l of lines) s.write(l);
    });
  });
}
