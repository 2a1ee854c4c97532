// A floor of two tables and their validation authority for the tickets' browser test (issue 47),
// started as an operator would, through `etg`: an upstream on embedded PGlite
// (`etg upstream --data-dir`), each table enrolled on it through its admin route
// (`POST /v1/admin/terminals`, the credentials saved in the table's data folder as
// `upstream-credentials.json`) and started `etg start --headless --json --sim-controls --upstream
// URL` (the demonstration table: a simulated TCL printer at every station), each with a supervisor
// and a technician for service mode (tests/browser/service-kit.ts).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { AccountStore } from '../../host/service/accounts.js';
import { etgScript } from './etg-child.js';
import type { Kiosk } from './kiosk-fixture.js';
import { SUP, TECH } from './service-kit.js';

const root = path.resolve(import.meta.dirname, '../..');

/** One table of the floor: its kiosk's URLs and sim token, its data folder and terminal id. */
export interface FloorKiosk extends Kiosk {
  dataDir: string;
  terminalId: string;
}

export interface TitoFloor {
  upstream: { url: string; dataDir: string; adminToken: string };
  tables: FloorKiosk[];
  /** Stops the kiosks (SIGTERM, waited for), then the upstream; the folders stay until `remove`. */
  stop: () => Promise<void>;
  remove: () => void;
}

function etg(args: string[]): string {
  const r = spawnSync(process.execPath, ['bin/etg.js', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`etg ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Spawns `etg` and resolves with the first stdout line that parses as JSON and passes `wanted`. */
async function serve<T>(args: string[], wanted: (line: unknown) => line is T): Promise<{ child: ChildProcess; first: T }> {
  const child = spawn(process.execPath, [await etgScript(), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`etg ${args[0]} exited with ${code} before it was ready`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      if (wanted(parsed)) resolve(parsed);
    });
  });
  return { child, first };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const isListening = (l: unknown): l is { listening: string; adminTokenFile: string } =>
  typeof l === 'object' && l !== null && 'listening' in l && 'adminTokenFile' in l;
const isKiosk = (l: unknown): l is Kiosk => typeof l === 'object' && l !== null && 'origin' in l && 'screens' in l;

/** The floor: `games[i]`'s table enrolled as `terminals[i]` (each a demonstration table's own id). */
export async function startTitoFloor(tables: readonly { game: string; terminalId: string; args?: string[] }[]): Promise<TitoFloor> {
  const upDir = mkdtempSync(path.join(os.tmpdir(), 'tito-upstream-'));
  const dirs = tables.map((t) => mkdtempSync(path.join(os.tmpdir(), `tito-${t.game}-`)));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.slice(1).map(stopChild));
    if (children[0]) await stopChild(children[0]);
  };
  const remove = () => {
    for (const d of [upDir, ...dirs]) rmSync(d, { recursive: true, force: true });
  };
  try {
    const up = await serve(['upstream', '--data-dir', upDir, '--listen', '127.0.0.1:0'], isListening);
    children.push(up.child);
    const adminToken = readFileSync(up.first.adminTokenFile, 'utf8').trim();
    for (const [i, t] of tables.entries()) {
      const r = await fetch(`${up.first.listening}/v1/admin/terminals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ terminalId: t.terminalId }),
      });
      if (!r.ok) throw new Error(`enrol ${t.terminalId}: ${r.status} ${await r.text()}`);
      writeFileSync(path.join(dirs[i]!, 'upstream-credentials.json'), await r.text(), { mode: 0o600 });
    }
    // Each table's service accounts, as `etg service add-user` makes them before the first start.
    for (const dir of dirs) {
      const accounts = new AccountStore(dir);
      await accounts.add({ name: SUP.name, role: 'supervisor', pin: SUP.pin, staff: SUP.staff }, null);
      await accounts.add({ name: TECH.name, role: 'technician', pin: TECH.pin, staff: TECH.staff }, SUP);
      accounts.close();
    }
    // Both tables start at once: on a loaded machine each start takes its time.
    const kiosks = await Promise.all(
      tables.map(async (t, i): Promise<FloorKiosk> => {
        const k = await serve(
          ['start', '--headless', '--json', '--sim-controls', '--data-dir', dirs[i]!, '--game', t.game, '--upstream', up.first.listening, ...(t.args ?? [])],
          isKiosk,
        );
        children.push(k.child);
        return { ...k.first, dataDir: dirs[i]!, terminalId: t.terminalId };
      }),
    );
    return {
      upstream: { url: up.first.listening, dataDir: upDir, adminToken },
      tables: kiosks,
      stop,
      remove,
    };
  } catch (e) {
    await stop();
    remove();
    throw e;
  }
}

/** `etg ledger meters --scope SCOPE --json` of a stopped table: its meters by name (a meter never moved is absent). */
export function metersOf(dataDir: string, scope: string): Record<string, number> {
  return JSON.parse(etg(['ledger', 'meters', '--data-dir', dataDir, '--scope', scope, '--json'])) as Record<string, number>;
}

/** `etg ledger verify --full --json` of a stopped table. */
export function verifyLedger(dataDir: string): { ok: boolean; problems: string[] } {
  const r = spawnSync(process.execPath, ['bin/etg.js', 'ledger', 'verify', '--data-dir', dataDir, '--full', '--json'], { cwd: root, encoding: 'utf8' });
  const report = JSON.parse(r.stdout) as { ok: boolean; problems: string[] };
  return { ok: r.status === 0 && report.ok, problems: report.problems };
}
