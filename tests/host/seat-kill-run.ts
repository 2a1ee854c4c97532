// Runs seat-kill-child.ts (a real host over a data folder, playing the test's steps) and SIGKILLs it
// once the steps are journalled: the seat-change tests' "host killed" runs, for every game.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { bundledChild } from '../children/bundle.js';
import { reserveStartHour } from './restarted-host.js';
import type { SeatKillChild } from './seat-kill-child.js';

/** What the killed host reached before the kill: its phase, the seating waiting, the steps it refused. */
export interface ChildSaid {
  phase: string;
  seatsNext: { station: number; seat: number }[] | null;
  refused: string[];
}

let childScript: Promise<string> | null = null;

/** A real host of `game` in a child over `dataDir`, seated `seats`, that plays `steps` and is then SIGKILLed. */
export async function killedAfter(game: SeatKillChild['game'], dataDir: string, seats: [number, number][], steps: string[]): Promise<ChildSaid> {
  childScript ??= bundledChild('tests/host/seat-kill-child.ts');
  const arg: SeatKillChild = { dataDir, game, seats, hour: reserveStartHour(), steps };
  const child = spawn(process.execPath, [await childScript], {
    env: { ...process.env, SEAT_KILL_CHILD: JSON.stringify(arg) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A test abandoned at its timeout never runs its finally: the child must not outlive this process.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  try {
    const said = await new Promise<ChildSaid>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line && out.includes('\n')) resolve(JSON.parse(line) as ChildSaid);
      });
      void exited.then((signal) => reject(new Error(`the killed run's host ended (${signal}) before it was ready`)));
    });
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL', 'the host was killed, not stopped');
    return said;
  } finally {
    process.removeListener('exit', orphan);
  }
}
