import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where Debian's `nats-server` package puts the server (NATS_SERVER overrides). */
export function natsServerPath(): string {
  return process.env.NATS_SERVER ?? (existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
}

/** One NATS user: its password and, for an edge, the subjects it may publish and subscribe to (absent: all). */
export interface NatsUser {
  readonly user: string;
  readonly password: string;
  readonly publish?: readonly string[];
  readonly subscribe?: readonly string[];
}

export interface NatsServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL after a second). */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port (its JetStream keeps memory streams only: they come back empty). */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** A free TCP port on the loopback, asked of the kernel. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const address = srv.address();
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

const quote = (s: string) => JSON.stringify(s);
const list = (xs: readonly string[]) => `[${xs.map(quote).join(', ')}]`;

/** The server's TLS key and certificate (files): with them, every client must speak TLS (`tls_required`), none in clear. */
export interface NatsServerTls {
  readonly certFile: string;
  readonly keyFile: string;
}

/**
 * The server's configuration: on `host` (the loopback unless the table's configuration names an
 * address), JetStream on, one account holding every user, and with `tls` a `tls` block, which
 * makes the server require TLS of every client before it reads anything (a client in clear is
 * closed after the INFO; docs/security.md, *Edges on NATS*). Its handshake may take 10 s, not
 * the server's default 2: on a loaded machine the tests' handshakes were cut at 2 s.
 */
export function natsConfig(port: number, dir: string, users: readonly NatsUser[], host = '127.0.0.1', tls?: NatsServerTls): string {
  const userLines = users.map((u) => {
    const perms = [u.publish ? `publish: { allow: ${list(u.publish)} }` : '', u.subscribe ? `subscribe: { allow: ${list(u.subscribe)} }` : ''].filter(
      (p) => p !== '',
    );
    return `      { user: ${quote(u.user)}, password: ${quote(u.password)}${perms.length ? `, permissions: { ${perms.join(', ')} }` : ''} }`;
  });
  return [
    `listen: ${quote(host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)}`,
    `jetstream { store_dir: ${quote(path.join(dir, 'js'))}, max_memory_store: 256MB, max_file_store: 64MB }`,
    ...(tls ? [`tls { cert_file: ${quote(tls.certFile)}, key_file: ${quote(tls.keyFile)}, timeout: 10 }`] : []),
    ...(users.length ? ['accounts {', '  ETG {', '    jetstream: enabled', '    users: [', userLines.join(',\n'), '    ]', '  }', '}'] : []),
    '',
  ].join('\n');
}

/**
 * The servers this process started and has not stopped. A test that times out ends its process
 * (`--test-force-exit`) before any `after` or `finally` runs, and a server left running listens on
 * for the rest of the suite: every one still running is killed when the process exits.
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

async function waitForPort(host: string, port: number, child: ChildProcess, deadlineMs: number): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = tcpConnect(port, host);
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > until) throw new Error(`nats-server did not listen on ${port} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Starts Debian's nats-server with JetStream on a free loopback port in a folder of its own (the
 * tests', the bench's, and `npm start`'s when the table is configured with edges). Only a table
 * with edges needs it: nothing else starts one.
 */
export async function startNatsServer(
  options: { users?: readonly NatsUser[]; dir?: string; port?: number; host?: string; tls?: NatsServerTls } = {},
): Promise<NatsServer> {
  const host = options.host ?? '127.0.0.1';
  const dial = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const dir = options.dir ?? mkdtempSync(path.join(os.tmpdir(), 'etg-nats-'));
  const own = options.dir === undefined;
  const port = options.port ?? (await freePort());
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const conf = path.join(dir, 'nats.conf');
  writeFileSync(conf, natsConfig(port, dir, options.users ?? [], host, options.tls), { mode: 0o600 });
  let child: ChildProcess | null = null;
  const launch = async () => {
    const c = spawn(natsServerPath(), ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    running.add(c);
    c.once('exit', () => running.delete(c));
    let err = '';
    c.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child = c;
    try {
      await waitForPort(dial, port, c, 10_000);
    } catch (e) {
      c.kill('SIGKILL');
      throw new Error(`${String(e)}: ${err}`, { cause: e });
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const c: ChildProcess | null = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill(signal);
    const timer = setTimeout(() => c.kill('SIGKILL'), 1000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    url: `nats://${dial.includes(':') ? `[${dial}]` : dial}:${port}`,
    port,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGTERM');
      await launch();
    },
    close: async () => {
      await end('SIGTERM');
      if (own) rmSync(dir, { recursive: true, force: true });
    },
  };
}
