import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
export function natsConfig(port: number | 'any', dir: string, users: readonly NatsUser[], host = '127.0.0.1', tls?: NatsServerTls): string {
  // -1: a port of the kernel's choosing, taken as the server binds it; the server writes which one
  // into its ports file in `dir` (`ports_file_dir`), where startNatsServer reads it.
  const at = port === 'any' ? -1 : port;
  const userLines = users.map((u) => {
    const perms = [u.publish ? `publish: { allow: ${list(u.publish)} }` : '', u.subscribe ? `subscribe: { allow: ${list(u.subscribe)} }` : ''].filter(
      (p) => p !== '',
    );
    return `      { user: ${quote(u.user)}, password: ${quote(u.password)}${perms.length ? `, permissions: { ${perms.join(', ')} }` : ''} }`;
  });
  return [
    `listen: ${quote(host.includes(':') ? `[${host}]:${at}` : `${host}:${at}`)}`,
    `ports_file_dir: ${quote(dir)}`,
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

/**
 * Waits for the server's own word that it listens: the ports file it writes (`ports_file_dir`) once
 * its listeners are open, named by its process id, `{"nats": ["nats://host:port"]}`. Not "something
 * answers on the port": another program's listener would answer too, and the server, unable to bind,
 * would exit unseen.
 */
async function waitForPortsFile(dir: string, child: ChildProcess, deadlineMs: number): Promise<number> {
  const until = Date.now() + deadlineMs;
  const file = path.join(dir, `${path.basename(natsServerPath())}_${child.pid}.ports`);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nats-server exited (${child.exitCode ?? child.signalCode})`);
    const port = existsSync(file) ? portOf(readFileSync(file, 'utf8')) : null;
    if (port !== null) return port;
    if (Date.now() > until) throw new Error(`nats-server wrote no ports file within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The client port in a ports file's text; null while it is still being written. */
export function portOf(text: string): number | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const urls = typeof parsed === 'object' && parsed !== null && 'nats' in parsed && Array.isArray(parsed.nats) ? parsed.nats : [];
  const first: unknown = urls[0];
  const m = typeof first === 'string' ? /:(\d{1,5})$/.exec(first) : null;
  return m ? Number(m[1]) : null;
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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const conf = path.join(dir, 'nats.conf');
  // The first start on the port asked for, or one the kernel chooses as the server binds it; a
  // restart on the port the first start listened on (the edges and the host dial that one).
  const configure = (port: number | 'any') => writeFileSync(conf, natsConfig(port, dir, options.users ?? [], host, options.tls), { mode: 0o600 });
  configure(options.port ?? 'any');
  let port = 0;
  let child: ChildProcess | null = null;
  const launch = async () => {
    const c = spawn(natsServerPath(), ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    running.add(c);
    c.once('exit', () => running.delete(c));
    let err = '';
    c.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    child = c;
    try {
      port = await waitForPortsFile(dir, c, 10_000);
    } catch (e) {
      c.kill('SIGKILL');
      const asked = port || options.port;
      throw new Error(`${String(e)}${asked ? ` on ${host}:${asked}` : ''}: ${err}`, { cause: e });
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
  configure(port);
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
