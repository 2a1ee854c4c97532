import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temporary folder, the
 * server on a free loopback port, everything removed by `destroy()`. initdb and postgres refuse
 * to run as root, so under root (CI) they run as the `postgres` system user via runuser.
 * A missing PostgreSQL is an error, never a skip.
 */
export interface LocalCluster {
  url: string;
  port: number;
  dir: string;
  /** Stops the server (immediate shutdown), keeping the data: "the database is down". */
  stop(): void;
  /** Starts it again on the same port. */
  start(): void;
  destroy(): void;
}

export function findPgBin(): string {
  const roots = ['/usr/lib/postgresql'];
  const found: { v: number; dir: string }[] = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const v of readdirSync(root)) {
      const dir = path.join(root, v, 'bin');
      if (existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) found.push({ v: Number(v) || 0, dir });
    }
  }
  found.sort((a, b) => b.v - a.v);
  if (found[0]) return found[0].dir;
  for (const p of (process.env.PATH ?? '').split(':')) {
    if (p && existsSync(path.join(p, 'initdb')) && existsSync(path.join(p, 'pg_ctl'))) return p;
  }
  throw new Error('PostgreSQL is not installed (no initdb/pg_ctl in /usr/lib/postgresql/*/bin or PATH): apt-get install postgresql');
}

export async function startLocalCluster(options: { durable?: boolean } = {}): Promise<LocalCluster> {
  const bin = findPgBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'etg-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const file = path.join(bin, cmd);
    try {
      return asRoot
        ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { encoding: 'utf8', stdio: 'pipe', cwd: dir })
        : execFileSync(file, args, { encoding: 'utf8', stdio: 'pipe', cwd: dir });
    } catch (e) {
      const err = e as { stderr?: string; stdout?: string; message: string };
      const log = existsSync(path.join(dir, 'log')) ? readFileSync(path.join(dir, 'log'), 'utf8').slice(-2000) : '';
      throw new Error(`${cmd} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}\n${log}`, { cause: e });
    }
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings = ['-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=50'];
  // Tests want speed, so no fsync (the benchmark asks for a durable server). synchronous_commit
  // stays on: `stop()` is an immediate shutdown, i.e. a crash, and with it off the last commits
  // (an enrolment, acknowledged batches) would vanish — an upstream that forgets what it acked.
  if (!options.durable) settings.push('-c', 'fsync=off', '-c', 'full_page_writes=off');
  const start = () => void run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', settings.join(' '), '-w', '-t', '60', 'start']);
  const stop = () => void run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  start();
  let alive = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    stop: () => {
      stop();
      alive = false;
    },
    start: () => {
      start();
      alive = true;
    },
    destroy: () => {
      try {
        if (alive) stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
