import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_PUBLISHED_UPDATE_BYTES } from './subjects.js';

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
  /** Starts it again on the same port (it keeps nothing: the host publishes the display state again). */
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
 * address), no JetStream (nothing uses it since the edges stopped reading the last values from
 * it; on, it kept 256 MB of memory and a store on disk for whoever may reach its API), one account holding every user, and with `tls` a `tls` block, which
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
    `listen: ${quote(hostPort(host, at))}`,
    `ports_file_dir: ${quote(dir)}`,
    // An update carries its patch and its whole in one message: over the default 1 MiB (subjects.ts).
    `max_payload: ${MAX_PUBLISHED_UPDATE_BYTES}`,
    ...(tls ? [`tls { cert_file: ${quote(tls.certFile)}, key_file: ${quote(tls.keyFile)}, timeout: 10 }`] : []),
    ...(users.length ? ['accounts {', '  ETG {', '    users: [', userLines.join(',\n'), '    ]', '  }', '}'] : []),
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
 * its client listener is open, `<its argv[0]'s name>_<its pid>.ports`, `{"nats": ["nats://host:port"]}`
 * (`tls://` with TLS). Not "something answers on the port": another program's listener would answer
 * too, and the server, unable to bind, would exit unseen. Found by the pid's suffix, so a
 * `NATS_SERVER` that is a link or a renamed binary is found too (a wrapper script must `exec` it).
 */
async function waitForPortsFile(dir: string, child: ChildProcess, deadlineMs: number): Promise<number> {
  const until = Date.now() + deadlineMs;
  const suffix = `_${child.pid}.ports`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nats-server exited (${child.exitCode ?? child.signalCode})`);
    const file = readdirSync(dir).find((f) => f.endsWith(suffix));
    const port = file ? portOf(readFileSync(path.join(dir, file), 'utf8')) : null;
    if (port !== null) return port;
    if (Date.now() > until) throw new Error(`nats-server wrote no ports file within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Removes the ports files a server killed by a signal left (SIGTERM removes its own; SIGKILL, a power
 * cut or the OOM killer do not): a new server given a dead one's pid would be taken as listening at once.
 */
function removeStalePortsFiles(dir: string): void {
  for (const f of readdirSync(dir)) if (f.endsWith('.ports')) rmSync(path.join(dir, f), { force: true });
}

/** `host:port` as an address is written, an IPv6 host in brackets. */
const hostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

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
 * Starts Debian's nats-server on a free loopback port in a folder of its own (the
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
  // restart asks for the port the first start listened on (the edges and the host dial that one).
  // A kernel-chosen port is in the ephemeral range: while the server is down another process may
  // take it, and the restart then fails with an error naming it, not a server on another port.
  const configure = (port: number | 'any') => writeFileSync(conf, natsConfig(port, dir, options.users ?? [], host, options.tls), { mode: 0o600 });
  configure(options.port ?? 'any');
  let port = 0;
  let child: ChildProcess | null = null;
  const launch = async () => {
    removeStalePortsFiles(dir);
    const c = spawn(natsServerPath(), ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    running.add(c);
    c.once('exit', () => running.delete(c));
    // A binary that is not there: an error event, not a crash of the host; the wait below sees its exit.
    let err = '';
    c.once('error', (e) => (err = `${e.message}\n${err}`));
    c.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    child = c;
    try {
      port = await waitForPortsFile(dir, c, 10_000);
    } catch (e) {
      c.kill('SIGKILL');
      // Its last words (`Error listening on port: …: address already in use`) come after its exit.
      // The wait's own timer is cleared: a refused start's process is not kept alive by it (tests/host/start-partial-failure.test.ts).
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((r) => (wait = setTimeout(r, 1000)))]);
      clearTimeout(wait);
      const asked = port || options.port;
      throw new Error(`${e instanceof Error ? e.message : String(e)}${asked ? ` on ${hostPort(host, asked)}` : ''}: ${err.trim()}`, { cause: e });
    }
  };
  const end = async (signal: NodeJS.Signals) => {
    const c: ChildProcess | null = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
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
